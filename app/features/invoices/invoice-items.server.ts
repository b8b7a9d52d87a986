/**
 * Server-side checks of an invoice's items and due date (docs/product.md#invoices-generating), shared by
 * generating and editing: a use-case may be called without the form schema in between; and the items
 * as one column of the statement that reads an invoice (issue #42).
 */
import { sql } from "drizzle-orm";
import { invoice } from "#app/db/schema";
import { fieldError } from "#app/lib/errors";
import { MAX_CENTS } from "#app/lib/money";
import { invoiceTotalCents, type InvoiceInput } from "./invoices.schema";
import { INVOICE_MESSAGES, MAX_INVOICE_ITEMS } from "./invoices.messages";

/**
 * Validates items and due date again on the server.
 *
 * @returns the trimmed items and their total in cents.
 * @throws {AppError} 400 with the field's message: no items, too many, an empty description, an
 *   amount out of range, a total above the maximum, or a due date that is not a real date.
 */
export function checkedItems(input: InvoiceInput): { items: InvoiceInput["items"]; totalCents: number } {
  if (input.items.length === 0) throw fieldError("items", "Add at least one item.");
  if (input.items.length > MAX_INVOICE_ITEMS) throw fieldError("items", `An invoice can have at most ${MAX_INVOICE_ITEMS} items.`);
  const items = input.items.map((item, index) => {
    const description = item.description.trim();
    if (!description) throw fieldError(`items[${index}].description`, "Description is required.");
    if (!Number.isSafeInteger(item.amountCents) || item.amountCents < 0 || item.amountCents > MAX_CENTS) {
      throw fieldError(`items[${index}].amount`, "Enter an amount like 5000 or $5,000.50");
    }
    return { description: description.slice(0, 200), amountCents: item.amountCents };
  });
  const totalCents = invoiceTotalCents(items);
  if (totalCents > MAX_CENTS) throw fieldError("items", INVOICE_MESSAGES.totalTooLarge);
  const date = new Date(`${input.dueDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.dueDate) || !Number.isFinite(date.getTime()) || date.toISOString().slice(0, 10) !== input.dueDate) {
    throw fieldError("dueDate", "Enter a real due date.");
  }
  return { items, totalCents };
}

/** One line of an invoice: its text and amount in cents. */
export interface InvoiceItemLine {
  description: string;
  amountCents: number;
}

/**
 * The lines of the selected invoice (`invoice.id` of the row) in their order (position, then id), as
 * a JSON array, `[]` for none: the invoice pages read them with the invoice, not in a statement of
 * their own (issue #42). Add it to a select whose `from` is the `invoice` table.
 */
export const invoiceItemsSql =
  sql`coalesce((select json_agg(json_build_object('description', ii.description, 'amountCents', ii.amount_cents) order by ii.position, ii.id) from invoice_item ii where ii.invoice_id = ${invoice.id}), '[]'::json)`.mapWith(
    (value: unknown): InvoiceItemLine[] => (typeof value === "string" ? JSON.parse(value) : value) as InvoiceItemLine[],
  );
