/**
 * The terms of one offer version (docs/product.md#offer-versions) — the object whose canonical
 * form is hashed — and the pure helpers pages and use-cases share. No server imports.
 */
import type { OfferDeposit, OfferItem } from "#app/db/schema";
import { computeSchedule, type ScheduleLineTerms } from "./schedule";

/** A schedule line as a version holds it: its terms and its amount in cents (#37). */
export interface TermsScheduleLine extends ScheduleLineTerms {
  amountCents: number;
}

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
  /**
   * The payment schedule after the deposit (#37, ADR 026): the milestones, then the final payment,
   * each with its amount. Absent (not null) when the offer has none, so that versions made before
   * schedules existed keep their canonical form and hash.
   */
  schedule?: TermsScheduleLine[];
}

/**
 * @param issued - position → amount (cents) of lines already invoiced: they keep it (#37).
 * @returns the schedule lines with their amounts (cents, summing with the deposit to the total), or
 *   `[]` when the offer has no schedule.
 * @throws {ScheduleError} when the lines do not add up (the form and the use-case refuse that first).
 */
export function priceSchedule(
  totalCents: number,
  deposit: OfferDeposit | null,
  lines: readonly ScheduleLineTerms[],
  issued: ReadonlyMap<number, number> = new Map(),
): TermsScheduleLine[] {
  if (lines.length === 0) return [];
  const dep = depositCents(deposit, totalCents);
  return computeSchedule(totalCents, dep, lines, issued)
    .slice(dep !== null ? 1 : 0)
    .map((line) => ({ label: line.label, share: line.share, due: line.due, amountCents: line.amountCents }));
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
