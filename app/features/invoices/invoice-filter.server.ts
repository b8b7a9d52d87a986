/**
 * The SQL form of the derived invoice statuses (docs/product.md#invoice-statuses), shared by the
 * admin list, its CSV export, the admin dashboard and the client's balance, so that "overdue"
 * means the same on every screen. Its TypeScript twin is `invoice-status.ts`.
 */
import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import { invoice } from "#app/db/schema";
import type { InvoiceFilter } from "./invoices.schema";

/**
 * The SQL form of {@link invoiceDisplayStatus} for list filters: `paid`; `pending` = unpaid
 * and due today or later; `overdue` = unpaid and due before `today`.
 *
 * @param today - `YYYY-MM-DD`, today in UTC ({@link todayUtc}).
 * @returns the WHERE condition, or undefined for `all`.
 */
export function invoiceFilterSql(filter: InvoiceFilter, today: string): SQL | undefined {
  switch (filter) {
    case "paid":
      return eq(invoice.status, "paid");
    case "pending":
      return and(eq(invoice.status, "unpaid"), gte(invoice.dueDate, today));
    case "overdue":
      return and(eq(invoice.status, "unpaid"), lt(invoice.dueDate, today));
    default:
      return undefined;
  }
}
