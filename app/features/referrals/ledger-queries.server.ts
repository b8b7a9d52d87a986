/**
 * Reading the commission ledger (docs/product.md#commissions-ledger): one ambassador's entries
 * (a keyset page, newest first) and totals, shared by the ambassador's earnings page and the
 * admin's ambassador detail. States are relative to the server's clock (`lib/clock.server`).
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "#app/db/client.server";
import {
  billingCycle,
  billingPlan,
  commissionEntries,
  invoice,
  organisation,
  payments,
  payouts,
  proposal,
  user,
  type CommissionEntryKind,
} from "#app/db/schema";
import { toIsoOrNull } from "#app/lib/dates";
import { cursorKeySql, keysetPage, type KeysetQuery, type Page, type PageRequest } from "#app/lib/pagination";
import { commissionEntryState, type CommissionEntryState, type CommissionTotals } from "./commission";

/** One ledger line. Money in cents, instants as ISO strings (UTC). */
export interface LedgerRow {
  id: number;
  /** When the entry was made (the payment was recorded, or the approval caught it up). */
  createdAt: string;
  clientName: string | null;
  projectName: string | null;
  proposalId: number | null;
  invoiceNumber: string | null;
  paymentId: number | null;
  kind: CommissionEntryKind;
  /** The payment's amount (negative for a refund); for a historical entry, its base. */
  baseCents: number;
  /** When the payment was received (null for historical entries). */
  paymentReceivedAt: string | null;
  rateBps: number;
  /** Signed commission. */
  amountCents: number;
  currency: string;
  payableAt: string;
  state: CommissionEntryState;
  payoutId: number | null;
  payoutPaidAt: string | null;
  /** #39: the invoice's card payment is disputed (a chargeback): the entry is flagged. */
  invoiceDisputed: boolean;
}

export const ledgerOrdering = { sort: commissionEntries.createdAt, id: commissionEntries.id };

const clientUser = alias(user, "ledger_client");

/** The ledger's select (one page or one export batch) for entries matching `where`. */
export function fetchLedgerRows(q: Queryable, keyset: KeysetQuery) {
  return q
    .select({
      id: commissionEntries.id,
      cursorKey: cursorKeySql(ledgerOrdering),
      createdAt: commissionEntries.createdAt,
      clientName: sql<
        string | null
      >`coalesce(case when ${clientUser.closedAt} is null then coalesce(${clientUser.businessName}, ${clientUser.name}) end, ${proposal.clientName}, ${organisation.name})`,
      // A billing plan's invoice (#39) has no proposal: the plan's name.
      projectName: sql<string | null>`coalesce(${proposal.projectName}, ${billingPlan.name})`,
      proposalId: commissionEntries.proposalId,
      invoiceNumber: invoice.number,
      invoiceDisputed: sql<boolean>`${invoice.disputedAt} is not null`.mapWith(Boolean),
      paymentId: commissionEntries.paymentId,
      kind: commissionEntries.kind,
      baseCents: commissionEntries.baseCents,
      paymentReceivedAt: payments.receivedAt,
      rateBps: commissionEntries.rateBps,
      amountCents: commissionEntries.amountCents,
      currency: commissionEntries.currency,
      payableAt: commissionEntries.payableAt,
      payoutId: commissionEntries.payoutId,
      payoutPaidAt: payouts.paidAt,
    })
    .from(commissionEntries)
    .leftJoin(proposal, eq(proposal.id, commissionEntries.proposalId))
    .leftJoin(clientUser, eq(clientUser.id, proposal.clientId))
    .leftJoin(invoice, eq(invoice.id, commissionEntries.invoiceId))
    .leftJoin(organisation, eq(organisation.id, invoice.organisationId))
    .leftJoin(billingCycle, eq(billingCycle.invoiceId, commissionEntries.invoiceId))
    .leftJoin(billingPlan, eq(billingPlan.id, billingCycle.planId))
    .leftJoin(payments, eq(payments.id, commissionEntries.paymentId))
    .leftJoin(payouts, eq(payouts.id, commissionEntries.payoutId))
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

type RawLedgerRow = Omit<Awaited<ReturnType<typeof fetchLedgerRows>>[number], "cursorKey">;

/** @returns the row with its state at `at` and instants as ISO strings. */
export function toLedgerRow(row: RawLedgerRow, at: Date): LedgerRow {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    paymentReceivedAt: toIsoOrNull(row.paymentReceivedAt),
    payableAt: row.payableAt.toISOString(),
    payoutPaidAt: toIsoOrNull(row.payoutPaidAt),
    state: commissionEntryState(row, at),
  };
}

/**
 * One page of an ambassador's ledger, newest first (index `commission_entries_ambassador_idx`).
 *
 * @param at - the present, for the states.
 */
export async function ledgerPage(q: Queryable, ambassadorId: string, request: PageRequest, at: Date): Promise<Page<LedgerRow>> {
  const page = await keysetPage(
    q,
    { order: ledgerOrdering, request, table: commissionEntries, where: eq(commissionEntries.ambassadorId, ambassadorId) },
    (keyset) => fetchLedgerRows(q, keyset),
  );
  return { ...page, items: page.items.map((row) => toLedgerRow(row, at)) };
}

/** Aggregates pending, payable and paid out at `at` (cents) over the entries matching the query. */
export function totalsSelection(at: Date) {
  const open = sql`${commissionEntries.payoutId} is null`;
  return {
    pendingCents:
      sql<number>`coalesce(sum(${commissionEntries.amountCents}) filter (where ${open} and ${commissionEntries.payableAt} > ${at}), 0)`.mapWith(
        Number,
      ),
    payableCents:
      sql<number>`coalesce(sum(${commissionEntries.amountCents}) filter (where ${open} and ${commissionEntries.payableAt} <= ${at}), 0)`.mapWith(
        Number,
      ),
    paidOutCents:
      sql<number>`coalesce(sum(${commissionEntries.amountCents}) filter (where ${commissionEntries.payoutId} is not null), 0)`.mapWith(
        Number,
      ),
  };
}

/** One ambassador's totals at `at`. */
export async function ledgerTotals(q: Queryable, ambassadorId: string, at: Date): Promise<CommissionTotals> {
  const [row] = await q.select(totalsSelection(at)).from(commissionEntries).where(eq(commissionEntries.ambassadorId, ambassadorId));
  return row ?? { pendingCents: 0, payableCents: 0, paidOutCents: 0 };
}

/**
 * Totals of several ambassadors at once: one grouped query, unexecuted, its columns named
 * (`ambassador_id`, `pending_cents`, `payable_cents`, `paid_out_cents`) so that a list joins it as
 * a subquery (`.as(…)`) and reads the totals in its own statement.
 */
export function ledgerTotalsByAmbassadorQuery(q: Queryable, ambassadorIds: string[], at: Date) {
  const totals = totalsSelection(at);
  return q
    .select({
      ambassadorId: commissionEntries.ambassadorId,
      pendingCents: totals.pendingCents.as("pending_cents"),
      payableCents: totals.payableCents.as("payable_cents"),
      paidOutCents: totals.paidOutCents.as("paid_out_cents"),
    })
    .from(commissionEntries)
    .where(inArray(commissionEntries.ambassadorId, ambassadorIds))
    .groupBy(commissionEntries.ambassadorId);
}

/** The entries of one payout (for its CSV), in ledger order. */
export function payoutEntriesWhere(payoutId: number): SQL {
  return and(eq(commissionEntries.payoutId, payoutId))!;
}
