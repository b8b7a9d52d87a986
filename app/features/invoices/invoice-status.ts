/**
 * Invoice status as people see it (docs/product.md#invoice-statuses), derived from the invoice's
 * payments by `app/features/payments/invoice-money.ts` (ADR 013): Unpaid (`pending`), Partially paid,
 * Overdue, Partially paid · Overdue, Paid, Refunded. Overdue needs no job: balance due and the due
 * date before today in the agency's time zone (Settings). Used by the client's invoice page, the admin list, the PDF and the CSV alike.
 */
import { deriveInvoiceStatus, type InvoiceDisplayStatus, type InvoiceMoneyInput } from "#app/features/payments/invoice-money";

export { type InvoiceDisplayStatus };

/**
 * @param invoice - total, paid and refunded cents (select `invoiceMoneyColumns`) and the due date `YYYY-MM-DD`.
 * @param now - the current instant (tests pass a fixed one).
 * @returns the derived status.
 */
export function invoiceDisplayStatus(invoice: InvoiceMoneyInput, now: Date = new Date(), timeZone = "UTC"): InvoiceDisplayStatus {
  return deriveInvoiceStatus(invoice, now, timeZone);
}
