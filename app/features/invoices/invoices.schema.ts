/**
 * Invoice forms (docs/product.md#invoices-generating; due date
 * required; the total is the sum of the items). Parsed by the actions; pages get their browser-side
 * checks from `formConstraints` (docs/architecture.md#forms). The total is never a form field — the
 * server computes it from the items.
 */
import { z } from "zod";
import { requiredText } from "#app/lib/text-fields";
import { MAX_CENTS, parseMoneyToCents } from "#app/lib/money";
import { INVOICE_MESSAGES, MAX_INVOICE_ITEMS } from "./invoices.messages";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { INVOICE_MESSAGES, MAX_INVOICE_ITEMS } from "./invoices.messages";

/** Re-exported for server code; pages import `invoice-filters.ts` (no zod in the browser). */
export { INVOICE_FILTERS, invoiceListFiltersFrom, type InvoiceFilter } from "./invoice-filters";

/** An amount typed by a person ("1,200.50", "$90") as integer cents, required. */
const amountField = z
  .string({ error: "Amount is required." })
  .trim()
  .min(1, { error: "Amount is required.", abort: true })
  .transform((value, ctx) => {
    try {
      return parseMoneyToCents(value)!;
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

/** `YYYY-MM-DD` that is a real calendar date. */
export const calendarDateField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, { error: `${label} is required.`, abort: true })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `Enter the ${label.toLowerCase()} as a date (YYYY-MM-DD).`, abort: true })
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return Number.isFinite(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= "2000-01-01" && value <= "2999-12-31";
    }, `Enter a real ${label.toLowerCase()}.`);

export const invoiceItemSchema = z.object({
  description: requiredText("Description", 200),
  amount: amountField,
});

const invoiceFields = {
  items: z
    .array(invoiceItemSchema, { error: "Add at least one item." })
    .min(1, "Add at least one item.")
    .max(MAX_INVOICE_ITEMS, `An invoice can have at most ${MAX_INVOICE_ITEMS} items.`),
  dueDate: calendarDateField("Due date"),
};

const totalWithinLimit: [(value: { items: { amount: number }[] }) => boolean, { path: string[]; message: string }] = [
  (value) => value.items.reduce((sum, item) => sum + item.amount, 0) <= MAX_CENTS,
  { path: ["items"], message: "The total must be at most $10,000,000.00." },
];

/** Generate and edit invoice form: line items (amounts → cents) and the due date. */
export const invoiceFormSchema = z.object(invoiceFields).refine(...totalWithinLimit);

/**
 * Generate invoice form: the same fields and how many invoices of the proposal the page showed (a
 * hidden field, #37), so that a second submission or another admin's invoice is noticed.
 */
export const invoiceGenerateSchema = z
  .object({
    ...invoiceFields,
    knownInvoices: z
      .string()
      .regex(/^\d{1,6}$/, INVOICE_MESSAGES.alreadyInvoiced)
      .transform(Number)
      .optional(),
  })
  .refine(...totalWithinLimit);

/**
 * Edit invoice form: the same fields and the invoice's `version` the page was loaded with (a
 * hidden field), so that a save from a stale page is refused (docs/product.md#invoices).
 */
export const invoiceEditSchema = z
  .object({
    ...invoiceFields,
    version: z
      .string({ error: INVOICE_MESSAGES.changedBySomeoneElse })
      .regex(/^[1-9]\d{0,8}$/, INVOICE_MESSAGES.changedBySomeoneElse)
      .transform(Number),
  })
  .refine(...totalWithinLimit);

/** What the invoice use-cases take: amounts in cents, due date `YYYY-MM-DD`. */
export interface InvoiceInput {
  items: { description: string; amountCents: number }[];
  dueDate: string;
  /** Edit only: the version the editor saw; the save is refused when the invoice has moved on. */
  version?: number;
}

/** Maps the form's parsed value to {@link InvoiceInput}. */
export function toInvoiceInput(value: z.infer<typeof invoiceFormSchema> & { version?: number }): InvoiceInput {
  return {
    dueDate: value.dueDate,
    items: value.items.map((item) => ({ description: item.description, amountCents: item.amount })),
    ...(value.version === undefined ? {} : { version: value.version }),
  };
}

/** The sum of the items, in cents (docs/product.md#field-rules: total equals the sum of the item amounts). */
export function invoiceTotalCents(items: readonly { amountCents: number }[]): number {
  return items.reduce((sum, item) => sum + item.amountCents, 0);
}
