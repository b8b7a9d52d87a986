/**
 * The client's e-mail about an issued or edited invoice (docs/product.md#invoices-generating,
 * docs/product.md#invoices-editing): essential, sent whatever their preference.
 */
import { formatCalendarDate } from "#app/lib/dates";
import { currencyOf, formatCents } from "#app/lib/money";

export { currencyOf };

/**
 * @param id - the invoice id (the link is /view-invoice/:id).
 * @param totalCents - the invoice total in cents, written in `currencyCode`.
 * @param dueDate - `YYYY-MM-DD`.
 * @returns the notification's subject, lines and link.
 */
export function invoiceNotice(
  id: number,
  number: string,
  totalCents: number,
  dueDate: string,
  currencyCode: string,
  kind: "issued" | "updated",
  /** The link's path: the signed invoice link (docs/product.md#invoice-link), else `/view-invoice/:id`. */
  path = `/view-invoice/${id}`,
) {
  const amount = formatCents(totalCents, currencyCode);
  return {
    subject: kind === "issued" ? `New invoice ${number}` : `Invoice ${number} was updated`,
    lines: [
      kind === "issued"
        ? `Invoice ${number} for ${amount} was issued to you.`
        : `Invoice ${number} was updated. The new total is ${amount}.`,
      `It is due on ${formatCalendarDate(dueDate)}.`,
    ],
    link: { label: "View and pay your invoice", path },
  };
}
