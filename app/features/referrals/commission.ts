/**
 * Ambassador commission arithmetic (docs/product.md#commissions; issues #4 and #5), in integer cents.
 * commission = rate × base, where base is the invoice total when the proposal has an
 * invoice, else its budget; only client-approved proposals earn a commission.
 */

/**
 * @param baseCents - invoice total or budget, in cents (null → no commission).
 * @param rateBps - rate in basis points (settings.commissionRateBps, default 1500 = 15 %).
 * @returns commission in cents, rounded half up to the cent.
 */
export function commissionCents(baseCents: number | null | undefined, rateBps: number): number {
  if (!baseCents || baseCents < 0) return 0;
  return Math.floor((baseCents * rateBps + 5_000) / 10_000);
}

/** The amount a commission is computed on: the invoice total when there is one, else the budget. */
export function commissionBaseCents(p: { invoiceTotalCents?: number | null; budgetCents?: number | null }): number | null {
  return p.invoiceTotalCents ?? p.budgetCents ?? null;
}
