/**
 * The terms of one offer version (docs/product.md#offer-versions) — the object whose canonical
 * form is hashed — and the pure helpers pages and use-cases share. No server imports.
 */
import type { OfferDeposit, OfferItem } from "#app/db/schema";

/** One line as a version holds it: quantity × unit price = line total (cents). */
export interface TermsItem extends OfferItem {
  lineTotalCents: number;
}

/**
 * A version's terms. Every key is always present (null when unset), so the canonical form is the
 * same whichever code wrote it. Money in integer cents, dates `YYYY-MM-DD`.
 */
export interface VersionTerms {
  proposalId: number;
  version: number;
  projectName: string;
  scope: string;
  items: TermsItem[];
  totalCents: number;
  currency: string;
  timeline: string;
  deposit: OfferDeposit | null;
  validUntil: string | null;
  termsAndConditions: string | null;
}

/** @returns the items with their line totals, and the sum (cents). */
export function priceItems(items: OfferItem[]): { items: TermsItem[]; totalCents: number } {
  const priced = items.map((item) => ({
    description: item.description,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    lineTotalCents: item.quantity * item.unitPriceCents,
  }));
  return { items: priced, totalCents: priced.reduce((sum, item) => sum + item.lineTotalCents, 0) };
}

/** @returns the deposit in cents: the amount, or the percentage of the total rounded half up. */
export function depositCents(deposit: OfferDeposit | null, totalCents: number): number | null {
  if (!deposit) return null;
  if (deposit.kind === "amount") return deposit.value;
  return Math.round((totalCents * deposit.value) / 100);
}
