/**
 * Invoice counts and sums for the admin dashboard (docs/product.md#admin-dashboard).
 */
import { and, count, eq, gt, sql, sum } from "drizzle-orm";
import { invoiceBalanceSql } from "#app/features/payments/balance.server";
import type { Queryable } from "#app/db/client.server";
import { readTally, tallyCount } from "#app/db/tally.server";
import { invoice, payments } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { invoiceFilterSql } from "./invoice-filter.server";
import { todayUtc } from "./invoice-status";

/** Invoice totals for the admin dashboard. Money in cents. */
export interface InvoiceSummary {
  count: number;
  paidCount: number;
  unpaidCount: number;
  overdueCount: number;
  /** Balance due of the invoices with something due (pending, partially paid and overdue). */
  unpaidCents: number;
  /** Balance due of the overdue invoices (due before today UTC). */
  overdueCents: number;
  paidCents: number;
}

/**
 * Counts and sums invoices by display status (docs/product.md#admin-dashboard; unpaid and
 * overdue totals in money), against today in UTC.
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function invoiceSummary(db: Queryable, actor: Actor, now: Date = new Date()): Promise<InvoiceSummary> {
  assertRole(actor, "admin");
  const buckets = await readTally(db, "invoice");
  // Overdue depends on today's date, so it is counted from the partial index invoice_unpaid_due_idx.
  const [overdue] = await db
    .select({ n: count(), cents: sum(invoiceBalanceSql).mapWith(Number) })
    .from(invoice)
    .where(invoiceFilterSql("overdue", todayUtc(now)));
  // What was paid on invoices still due (partial payments), through the status index: the tally holds their totals.
  const [partly] = await db
    .select({ cents: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number) })
    .from(payments)
    .innerJoin(invoice, eq(invoice.id, payments.invoiceId))
    .where(and(eq(invoice.status, "unpaid"), gt(payments.amountCents, 0)));
  const paid = buckets.find((b) => b.bucket === "paid");
  const unpaid = buckets.filter((b) => b.bucket !== "paid");
  return {
    count: tallyCount(buckets),
    paidCount: paid?.n ?? 0,
    paidCents: paid?.cents ?? 0,
    unpaidCount: tallyCount(unpaid),
    unpaidCents: unpaid.reduce((total, b) => total + b.cents, 0) - (partly?.cents ?? 0),
    overdueCount: overdue?.n ?? 0,
    overdueCents: overdue?.cents ?? 0,
  };
}
