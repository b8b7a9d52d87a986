/**
 * Writing the commission ledger (docs/product.md#commissions-ledger, ADR 017, issue #25).
 *
 * Which payments earn a commission (the product's rule since issue #4, kept): those on the invoice
 * of a proposal an ambassador submitted (`proposal.ambassador_id`) once its client approved it.
 * Each such payment or refund makes exactly one entry (unique per payment): rate × amount with
 * the rate frozen on the proposal at approval, rounded half up per entry, negative for a refund
 * (the parts of a payment refunded in several refunds are allocated by largest remainder, #36).
 * It is Pending until `payable_at` = the payment's date received + `settings.commission_hold_days`, then Payable
 * until a payout takes it. Payments recorded before the client approved earn their entries at
 * approval. A proposal whose commission was marked paid before the ledger existed (a `historical`
 * entry, migration 0021) earns nothing more from payments — that commission was already paid on
 * its whole base — but its refunds still make negative entries.
 *
 * Everything here runs inside the caller's transaction (the payment's or the approval's).
 */
import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { billingCycle, billingPlan, commissionEntries, invoice, payments, proposal, settings } from "#app/db/schema";
import { publishLive } from "#app/features/live/live-events.server";
import { now } from "#app/lib/clock.server";
import { commissionCents, commissionEntryCents, payableAtFor } from "./commission";

/** The payment fields the ledger needs. */
export interface LedgerPayment {
  id: number;
  invoiceId: number;
  /** Cents, negative for a refund. */
  amountCents: number;
  currency: string;
  /** When the money was received (the hold counts from it). */
  receivedAt: Date;
  /** For a refund: the payment it refunds (its entry is then allocated by largest remainder). */
  refundOf?: number | null;
}

/**
 * The entry of a refund of a payment refunded in several parts (issue #36): the commission of
 * everything refunded of that payment so far, including this one, minus that of what was refunded
 * before it, each rounded half up — so the parts' entries always sum to the cent to the entry of
 * the same amount refunded at once (largest remainder), and a full refund cancels the payment's
 * entry exactly.
 *
 * @returns the signed (≤ 0) commission of the refund in cents.
 */
async function refundEntryCents(q: Queryable, refund: LedgerPayment & { refundOf: number }, rateBps: number): Promise<number> {
  const [row] = await q
    .select({ before: sql<number>`coalesce(-sum(${payments.amountCents}), 0)::int`.mapWith(Number) })
    .from(payments)
    .where(and(eq(payments.refundOf, refund.refundOf), lt(payments.id, refund.id)));
  const before = row?.before ?? 0;
  return -(commissionCents(before + Math.abs(refund.amountCents), rateBps) - commissionCents(before, rateBps));
}

/**
 * What earns a commission behind an invoice, or null when its payments earn nothing: the invoice's
 * commissionable proposal, or — for an invoice of a billing plan (#39, no proposal) — the plan's
 * ambassador at the rate frozen when the plan was made, while the cycle is dated before the plan's
 * `commission_until` (Settings' "recurring commission months" from its start).
 */
async function commissionableProposal(q: Queryable, invoiceId: number) {
  const [row] = await q
    .select({
      proposalId: proposal.id,
      ambassadorId: proposal.ambassadorId,
      rateBps: proposal.commissionRateBps,
      approvedAt: proposal.clientApprovedAt,
      historical: sql<boolean>`exists (select 1 from ${commissionEntries} where ${commissionEntries.proposalId} = ${proposal.id} and ${commissionEntries.kind} = 'historical')`,
    })
    .from(invoice)
    .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
    .where(eq(invoice.id, invoiceId));
  if (!row) return recurringCommission(q, invoiceId);
  if (!row.ambassadorId || !row.approvedAt || row.rateBps === null) return null;
  return { ...row, ambassadorId: row.ambassadorId, rateBps: row.rateBps };
}

/** A billing plan's invoice: its ambassador and frozen rate while the cycle is within the plan's commission months. */
async function recurringCommission(q: Queryable, invoiceId: number) {
  const [row] = await q
    .select({ ambassadorId: billingPlan.ambassadorId, rateBps: billingPlan.commissionRateBps })
    .from(billingCycle)
    .innerJoin(billingPlan, eq(billingPlan.id, billingCycle.planId))
    .where(and(eq(billingCycle.invoiceId, invoiceId), sql`${billingCycle.cycleOn} < ${billingPlan.commissionUntil}`));
  if (!row || !row.ambassadorId || row.rateBps === null) return null;
  return { proposalId: null, ambassadorId: row.ambassadorId, rateBps: row.rateBps, approvedAt: null, historical: false };
}

async function holdDays(q: Queryable): Promise<number> {
  const [row] = await q.select({ days: settings.commissionHoldDays }).from(settings).where(eq(settings.id, 1));
  return row?.days ?? 30;
}

/**
 * Writes the ledger entry of one payment or refund (called by `onPaymentRecorded`, in the
 * payment's transaction). A payment that earns nothing, or that already has its entry, writes
 * nothing (so a replayed hook is harmless).
 *
 * @param payment - the payment row as written (amount in cents, negative for a refund).
 * @returns the entry's signed amount in cents, or null when none was written.
 */
export async function recordCommissionForPayment(q: Queryable, payment: LedgerPayment): Promise<number | null> {
  const target = await commissionableProposal(q, payment.invoiceId);
  if (!target) return null;
  if (target.historical && payment.amountCents > 0) return null;
  const createdAt = now();
  const amountCents =
    payment.amountCents < 0 && payment.refundOf
      ? await refundEntryCents(q, { ...payment, refundOf: payment.refundOf }, target.rateBps)
      : commissionEntryCents(payment.amountCents, target.rateBps);
  const inserted = await q
    .insert(commissionEntries)
    .values({
      ambassadorId: target.ambassadorId,
      proposalId: target.proposalId,
      invoiceId: payment.invoiceId,
      paymentId: payment.id,
      kind: payment.amountCents < 0 ? "refund" : "payment",
      baseCents: payment.amountCents,
      rateBps: target.rateBps,
      amountCents,
      currency: payment.currency,
      createdAt,
      // The hold (the refund window) counts from when the money was received, not when it was recorded (#36).
      payableAt: payableAtFor(payment.receivedAt, await holdDays(q)),
    })
    .onConflictDoNothing({ target: commissionEntries.paymentId })
    .returning({ id: commissionEntries.id });
  if (!inserted.length) return null;
  // Live update (docs/product.md#live-updates): the ambassador's earnings page and dashboard.
  await publishLive(q, { kind: "commission.entry-created", entityId: inserted[0]!.id, userIds: [target.ambassadorId] });
  return amountCents;
}

/**
 * Writes the entries of the payments already recorded on a proposal's invoice that have none
 * (called when the client approves the proposal, after its rate is frozen).
 *
 * @returns how many entries were written.
 */
export async function syncProposalCommissions(q: Queryable, proposalId: number): Promise<number> {
  const missing = await q
    .select({
      id: payments.id,
      invoiceId: payments.invoiceId,
      amountCents: payments.amountCents,
      currency: payments.currency,
      receivedAt: payments.receivedAt,
      refundOf: payments.refundOf,
    })
    .from(payments)
    .innerJoin(invoice, eq(invoice.id, payments.invoiceId))
    .where(
      and(
        eq(invoice.proposalId, proposalId),
        notExists(
          q
            .select({ one: sql`1` })
            .from(commissionEntries)
            .where(eq(commissionEntries.paymentId, payments.id)),
        ),
      ),
    )
    .orderBy(payments.receivedAt, payments.id);
  let written = 0;
  for (const payment of missing) if ((await recordCommissionForPayment(q, payment)) !== null) written += 1;
  return written;
}

/**
 * The SQL that freezes the commission rate on approval: today's settings rate (default 1500).
 * Used by `approveProposal` as `commissionRateBps: currentCommissionRateSql()`.
 */
export function currentCommissionRateSql() {
  return sql<number>`coalesce((select ${settings.commissionRateBps} from ${settings} where ${settings.id} = 1), 1500)`;
}
