/**
 * Reading commission payouts (docs/product.md#commissions-ledger): one ambassador's payouts (a
 * keyset page, newest first) and what each covered, shared by the admin's ambassador detail and
 * CSVs and the ambassador's Payouts page. These functions check no rights: their callers (the
 * use-cases) do, and pass the ambassador whose payouts may be read.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { billingCycle, billingPlan, commissionEntries, invoice, payouts, proposal, user, type PayoutMethod } from "#app/db/schema";
import { cursorKeySql, keysetPage, type KeysetQuery, type Page, type PageRequest } from "#app/lib/pagination";

/** One payout in a list. Money in cents, instants as ISO strings (UTC). */
export interface PayoutRow {
  id: number;
  ambassadorId: string;
  ambassadorName: string;
  ambassadorEmail: string;
  totalCents: number;
  currency: string;
  reference: string;
  method: PayoutMethod;
  /** ISO instant (UTC). */
  paidAt: string;
  /** How many ledger entries the payout took. */
  entries: number;
  /** The admin who recorded it (admin views only; the ambassador's use-case drops it). */
  createdByEmail: string | null;
}

/** Payouts newest first: by paid date, then id. */
export const payoutOrdering = { sort: payouts.paidAt, id: payouts.id };

/** The payouts' select (one page or one export batch) for payouts matching `keyset.where`. */
export function fetchPayoutRows(db: Queryable, keyset: KeysetQuery) {
  const creator = sql<string | null>`(select ${user.email} from ${user} where ${user.id} = ${payouts.createdBy})`;
  return db
    .select({
      id: payouts.id,
      cursorKey: cursorKeySql(payoutOrdering),
      ambassadorId: payouts.ambassadorId,
      ambassadorName: user.name,
      ambassadorEmail: user.email,
      totalCents: payouts.totalCents,
      currency: payouts.currency,
      reference: payouts.reference,
      method: payouts.method,
      paidAt: payouts.paidAt,
      entries: sql<number>`(select count(*) from ${commissionEntries} where ${commissionEntries.payoutId} = ${payouts.id})`.mapWith(Number),
      createdByEmail: creator,
    })
    .from(payouts)
    .innerJoin(user, eq(user.id, payouts.ambassadorId))
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

/** @returns the row with its instant as an ISO string. */
export function toPayoutRow(row: Omit<Awaited<ReturnType<typeof fetchPayoutRows>>[number], "cursorKey">): PayoutRow {
  return { ...row, paidAt: row.paidAt.toISOString() };
}

/**
 * One page of an ambassador's payouts, newest first (`payouts.ambassador_id`).
 *
 * @param ambassadorId - whose payouts: the caller has checked the actor may read them.
 * @param request - the keyset page request (size, `after` / `before` cursor).
 */
export async function payoutPage(q: Queryable, ambassadorId: string, request: PageRequest): Promise<Page<PayoutRow>> {
  const page = await keysetPage(
    q,
    { order: payoutOrdering, request, table: payouts, where: eq(payouts.ambassadorId, ambassadorId) },
    (keyset) => fetchPayoutRows(q, keyset),
  );
  return { ...page, items: page.items.map(toPayoutRow) };
}

/** What one payout paid for one proposal (or billing plan, or entries of neither). */
export interface PayoutCoverage {
  payoutId: number;
  /** The proposal the commissions were earned on, or null (a billing plan's invoice, or none). */
  proposalId: number | null;
  /** The proposal's project name, else the billing plan's name, else null. */
  projectName: string | null;
  /** The invoice numbers the commissions were earned on, sorted. */
  invoiceNumbers: string[];
  /** How many ledger entries (commissions and refunds). */
  entries: number;
  /** Their signed sum (cents). */
  amountCents: number;
}

/**
 * What each payout covered, grouped by proposal (one grouped query over the payouts' entries).
 *
 * @param payoutIds - the payouts of one page (the caller has checked the actor may read them).
 * @returns the groups keyed by payout id, each payout's groups by proposal id.
 */
export async function payoutCoverage(q: Queryable, payoutIds: number[]): Promise<Map<number, PayoutCoverage[]>> {
  const byPayout = new Map<number, PayoutCoverage[]>();
  if (!payoutIds.length) return byPayout;
  const projectName = sql<string | null>`coalesce(${proposal.projectName}, ${billingPlan.name})`;
  const rows = await q
    .select({
      payoutId: sql<number>`${commissionEntries.payoutId}`.mapWith(Number),
      proposalId: commissionEntries.proposalId,
      projectName,
      invoiceNumbers: sql<string[] | null>`array_agg(distinct ${invoice.number}) filter (where ${invoice.number} is not null)`,
      entries: sql<number>`count(*)`.mapWith(Number),
      amountCents: sql<number>`sum(${commissionEntries.amountCents})`.mapWith(Number),
    })
    .from(commissionEntries)
    .leftJoin(proposal, eq(proposal.id, commissionEntries.proposalId))
    .leftJoin(invoice, eq(invoice.id, commissionEntries.invoiceId))
    .leftJoin(billingCycle, eq(billingCycle.invoiceId, commissionEntries.invoiceId))
    .leftJoin(billingPlan, eq(billingPlan.id, billingCycle.planId))
    .where(inArray(commissionEntries.payoutId, payoutIds))
    .groupBy(commissionEntries.payoutId, commissionEntries.proposalId, projectName)
    .orderBy(commissionEntries.payoutId, commissionEntries.proposalId, projectName);
  for (const row of rows) {
    const group: PayoutCoverage = { ...row, invoiceNumbers: [...(row.invoiceNumbers ?? [])].sort() };
    byPayout.set(row.payoutId, [...(byPayout.get(row.payoutId) ?? []), group]);
  }
  return byPayout;
}
