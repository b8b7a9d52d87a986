/**
 * Invoice counts and sums for the admin dashboard (docs/product.md#admin-dashboard).
 */
import { businessDay } from "#app/features/settings/settings.server";
import type { Queryable } from "#app/db/client.server";
import { readDueTotals, readTallies, tallyCount } from "#app/db/tally.server";
import { assertRole, type Actor } from "#app/features/users/actor";

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
 * overdue totals in money), against today in UTC — from the trigger-kept tallies only (issue #30:
 * two small reads, whatever the number of invoices).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function invoiceSummary(db: Queryable, actor: Actor, now: Date = new Date()): Promise<InvoiceSummary> {
  assertRole(actor, "admin");
  // 'invoice_due': each unpaid invoice under its due date with its balance due (total − paid, kept
  // by the payments triggers), summed in the database; overdue = due before today in the agency's zone.
  const [{ invoice: buckets }, due] = await Promise.all([
    readTallies(db, ["invoice"]),
    businessDay(db, now).then(({ today }) => readDueTotals(db, today)),
  ]);
  const paid = buckets.find((b) => b.bucket === "paid");
  return {
    count: tallyCount(buckets),
    paidCount: paid?.n ?? 0,
    paidCents: paid?.cents ?? 0,
    unpaidCount: tallyCount(buckets, (bucket) => bucket !== "paid"),
    unpaidCents: due.dueCents,
    overdueCount: due.overdueCount,
    overdueCents: due.overdueCents,
  };
}
