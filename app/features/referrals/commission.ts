/**
 * Ambassador commission arithmetic (docs/product.md#commissions-ledger; issues #4, #5 and #25), in
 * integer cents. Only proposals an ambassador submitted and the client approved earn a commission;
 * the rate (basis points) is frozen on the proposal when the client approves it, and every
 * payment and refund on its invoice makes one ledger entry: rate × amount, rounded half up to
 * the cent per entry (a refund's entry is the negative of rate × refunded amount).
 */

/** Basis points per 100 %. */
const BPS = 10_000;

/**
 * @param baseCents - a non-negative amount in cents (null → no commission).
 * @param rateBps - rate in basis points (1500 = 15 %).
 * @returns commission in cents, rounded half up to the cent.
 */
export function commissionCents(baseCents: number | null | undefined, rateBps: number): number {
  if (!baseCents || baseCents < 0) return 0;
  return Math.floor((baseCents * rateBps + BPS / 2) / BPS);
}

/**
 * The ledger entry of one payment or refund: +round(rate × amount) for a payment, −round(rate ×
 * |amount|) for a refund (half up on the magnitude, so a full refund cancels its payment's entry
 * exactly).
 *
 * @param paymentCents - the payment's amount in cents, negative for a refund (integer).
 * @param rateBps - the proposal's frozen rate in basis points (0–10000).
 * @returns the signed commission in cents.
 */
export function commissionEntryCents(paymentCents: number, rateBps: number): number {
  if (!Number.isSafeInteger(paymentCents) || !Number.isInteger(rateBps) || rateBps < 0 || rateBps > BPS) {
    throw new RangeError("commissionEntryCents: integer cents and a rate of 0–10000 basis points expected");
  }
  const magnitude = commissionCents(Math.abs(paymentCents), rateBps);
  return paymentCents < 0 ? -magnitude : magnitude;
}

/** An entry's state for the ambassador (docs/product.md#commissions-ledger). */
export type CommissionEntryState = "pending" | "payable" | "paid_out";

/** The words each state reads as, on every page and CSV. */
export const COMMISSION_STATE_LABELS: Record<CommissionEntryState, string> = {
  pending: "Pending",
  payable: "Payable",
  paid_out: "Paid out",
};

/**
 * @param entry.payableAt - created_at + hold days.
 * @param entry.payoutId - the payout it was taken into, or null.
 * @param at - the present (the server's clock).
 * @returns Paid out once in a payout; else Payable from `payableAt` on; else Pending.
 */
export function commissionEntryState(entry: { payableAt: Date | string; payoutId: number | null }, at: Date): CommissionEntryState {
  if (entry.payoutId !== null) return "paid_out";
  return new Date(entry.payableAt).getTime() <= at.getTime() ? "payable" : "pending";
}

/** Pending, payable and paid-out totals in cents. */
export interface CommissionTotals {
  /** Not payable yet (within the hold). */
  pendingCents: number;
  /** Payable now and not paid out: may be negative (a refund after a payout), carried over to the next payout. */
  payableCents: number;
  /** Taken into payouts. */
  paidOutCents: number;
}

/** @returns the totals of `entries` at `at`. */
export function commissionTotals(
  entries: Array<{ amountCents: number; payableAt: Date | string; payoutId: number | null }>,
  at: Date,
): CommissionTotals {
  const totals: CommissionTotals = { pendingCents: 0, payableCents: 0, paidOutCents: 0 };
  for (const entry of entries) {
    const state = commissionEntryState(entry, at);
    if (state === "pending") totals.pendingCents += entry.amountCents;
    else if (state === "payable") totals.payableCents += entry.amountCents;
    else totals.paidOutCents += entry.amountCents;
  }
  return totals;
}

/**
 * Whether a payout can be made from the payable entries: all of them go into one payout when
 * their sum is positive; a zero or negative sum (refunds after a payout) waits and is netted
 * against later entries.
 *
 * @returns the payout's total in cents, or null when nothing can be paid out.
 */
export function payoutTotalCents(payableEntries: Array<{ amountCents: number }>): number | null {
  const total = payableEntries.reduce((sum, entry) => sum + entry.amountCents, 0);
  return total > 0 ? total : null;
}

/** @returns `from` (the payment's date received) plus `holdDays` days (UTC, exact 24-hour days). */
export function payableAtFor(from: Date, holdDays: number): Date {
  return new Date(from.getTime() + holdDays * 86_400_000);
}
