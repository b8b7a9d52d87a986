/**
 * Invoice status as people see it (docs/product.md#invoice-statuses): stored `unpaid` |
 * `paid`; `overdue` is derived — unpaid and the due date (a calendar date) is before today
 * in UTC. No job is needed. Used by the client's invoice page and the admin list alike.
 */

export type InvoiceDisplayStatus = "paid" | "pending" | "overdue";

/** Today's calendar date in UTC, `YYYY-MM-DD`. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * @param invoice.status - stored status.
 * @param invoice.dueDate - `YYYY-MM-DD`.
 * @param now - the current instant (tests pass a fixed one).
 * @returns `paid`, `overdue` (unpaid, due date before today UTC) or `pending` (unpaid, due today or later).
 */
export function invoiceDisplayStatus(
  invoice: { status: "unpaid" | "paid"; dueDate: string },
  now: Date = new Date(),
): InvoiceDisplayStatus {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate < todayUtc(now) ? "overdue" : "pending";
}
