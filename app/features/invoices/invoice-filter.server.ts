/**
 * The SQL form of the derived invoice statuses (docs/product.md#invoice-statuses), shared by the
 * admin list, its CSV export, the admin dashboard and the client's balance, so that "overdue"
 * means the same on every screen. Its TypeScript twin is `payments/invoice-money.ts`; the
 * conditions themselves are `payments/balance.server.ts` ({@link invoiceStatusSql}).
 */
import type { SQL } from "drizzle-orm";
import { invoiceStatusSql } from "#app/features/payments/balance.server";
import type { InvoiceFilter } from "./invoices.schema";

/**
 * The SQL form of {@link invoiceDisplayStatus} for list filters: `pending` = nothing paid, due today or
 * later; `partial` = partly paid, due today or later; `overdue` = a balance due and due before `today`;
 * `paid` = balance 0 (not fully refunded); `refunded` = everything paid refunded.
 *
 * @param today - `YYYY-MM-DD`, today in UTC ({@link todayUtc}).
 * @returns the WHERE condition, or undefined for `all`.
 */
export function invoiceFilterSql(filter: InvoiceFilter, today: string): SQL | undefined {
  return filter === "all" ? undefined : invoiceStatusSql(filter, today);
}
