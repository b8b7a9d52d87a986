/**
 * The payment schedule of an offer (issue #37, docs/product.md#payment-schedule): the deposit, then
 * any number of milestones, then the final payment. Each line has a share of the offer's total — an
 * amount, a percentage, or an equal part of what the amounts and percentages leave — and a due rule.
 * The lines always add up to the total exactly, in cents: shares that are not whole cents are
 * rounded by the largest remainder method (each line gets its share rounded down, and the cents
 * left go one each to the lines with the largest dropped fractions, the earlier line first on a tie).
 *
 * Pure: no server imports; pages, use-cases and tests share it.
 */

import type { ScheduleDue, ScheduleLineTerms, ScheduleShare } from "#app/db/schema";

export type { ScheduleDue, ScheduleLineTerms, ScheduleShare } from "#app/db/schema";

/** A line with its amount in cents, as {@link computeSchedule} returns it. */
export interface ScheduledLine extends ScheduleLineTerms {
  /** 0 = the deposit when there is one; then the terms' order. */
  position: number;
  amountCents: number;
}

/** Why a schedule cannot be made (shown next to the schedule on the offer form). */
export const SCHEDULE_MESSAGES = {
  overTotal: (sum: string, total: string) => `The schedule asks ${sum}, more than the offer's total of ${total}.`,
  underTotal: (sum: string, total: string) =>
    `The schedule adds up to ${sum}, not the offer's total of ${total}. Make the last line "the rest", or change the amounts.`,
  percentRange: "Enter a percentage above 0 and at most 100, with at most two decimals.",
  amountRange: "Enter an amount above 0.",
  tooMany: "A schedule can have at most 20 lines.",
  labelRequired: "Name each payment (e.g. “Milestone 1: design approved”).",
  daysRange: "Enter a number of days from 1 to 730.",
  finalEmpty: "The milestones take the whole total: lower one of them so the final payment is above 0.",
  lineEmpty: (label: string) => `“${label}” comes to 0: give it a larger share or remove it.`,
} as const;

/** Most lines in a schedule (deposit included). */
export const MAX_SCHEDULE_LINES = 20;

/** A schedule that does not add up (the message names both sums). */
export class ScheduleError extends Error {}

/** Default money formatting for messages (USD-style); callers pass the agency's. */
const plainCents = (cents: number) => `${(cents / 100).toFixed(2)}`;

/**
 * Splits the offer's total over its schedule, exactly.
 *
 * @param totalCents - the offer's total, integer cents ≥ 0.
 * @param depositCents - the deposit (already rounded by the offer's own rule), or null for none: it
 *   becomes line 0, due at signing.
 * @param lines - the milestones and final payment, in order.
 * @param fixed - lines whose amount is settled (an invoice was issued for them), by position: they
 *   keep that amount whatever their share says (#37: a new version changes only unissued lines).
 * @param format - formats cents for the messages.
 * @returns one line per input line (the deposit first), amounts summing to `totalCents`.
 * @throws {ScheduleError} when the amounts and percentages exceed the total, or (without a `rest`
 *   line) do not reach it.
 */
export function computeSchedule(
  totalCents: number,
  depositCents: number | null,
  lines: readonly ScheduleLineTerms[],
  fixed: ReadonlyMap<number, number> = new Map(),
  format: (cents: number) => string = plainCents,
): ScheduledLine[] {
  const all: ScheduleLineTerms[] = [
    ...(depositCents !== null
      ? [{ label: "Deposit", share: { kind: "amount", value: depositCents } as ScheduleShare, due: { kind: "signing" } as ScheduleDue }]
      : []),
    ...lines,
  ];
  if (all.length > MAX_SCHEDULE_LINES) throw new ScheduleError(SCHEDULE_MESSAGES.tooMany);
  // Every share as a fraction num / D, with D = 10,000 × (number of rest lines, at least 1).
  const shares = all.map((line, position): ScheduleShare => {
    const settled = fixed.get(position);
    return settled !== undefined ? { kind: "amount", value: settled } : line.share;
  });
  const restCount = shares.filter((s) => s.kind === "rest").length;
  const n = Math.max(restCount, 1);
  const D = 10_000 * n;
  const amountSum = shares.reduce((sum, s) => sum + (s.kind === "amount" ? s.value : 0), 0);
  const bpsSum = shares.reduce((sum, s) => sum + (s.kind === "percent" ? s.value : 0), 0);
  const restNumerator = 10_000 * totalCents - 10_000 * amountSum - totalCents * bpsSum;
  if (restNumerator < 0) {
    const asked = amountSum + Math.ceil((totalCents * bpsSum) / 10_000);
    throw new ScheduleError(SCHEDULE_MESSAGES.overTotal(format(asked), format(totalCents)));
  }
  const numerators = shares.map((s) =>
    s.kind === "amount" ? s.value * D : s.kind === "percent" ? totalCents * s.value * n : restNumerator,
  );
  const amounts = numerators.map((num) => Math.floor(num / D));
  let left = totalCents - amounts.reduce((a, b) => a + b, 0);
  if (restCount === 0 && (left < 0 || left > shares.filter((s) => s.kind === "percent").length)) {
    const sum = totalCents - left;
    throw new ScheduleError(
      left < 0
        ? SCHEDULE_MESSAGES.overTotal(format(sum), format(totalCents))
        : SCHEDULE_MESSAGES.underTotal(format(sum), format(totalCents)),
    );
  }
  // Largest remainder: the cents left go to the largest dropped fractions (amount lines drop none).
  const order = numerators
    .map((num, i) => ({ i, fraction: shares[i]!.kind === "amount" ? -1 : num % D }))
    .filter((x) => x.fraction >= 0)
    .sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length) {
    amounts[order[k]!.i]! += 1;
    left -= 1;
  }
  return all.map((line, position) => ({ ...line, position, amountCents: amounts[position]! }));
}

/**
 * A schedule carried to a new offer version (#37): lines already issued as invoices keep their
 * amount, label and due rule; every other line takes the new version's terms, and the shares are
 * split over the new total around the settled amounts.
 *
 * @param issued - position → amount in cents of the lines already invoiced.
 * @returns the new schedule, or throws {@link ScheduleError} when the issued lines alone exceed the new total.
 */
export function reviseSchedule(
  previous: readonly ScheduledLine[],
  issued: ReadonlyMap<number, number>,
  totalCents: number,
  depositCents: number | null,
  lines: readonly ScheduleLineTerms[],
  format?: (cents: number) => string,
): ScheduledLine[] {
  const next = computeSchedule(totalCents, depositCents, lines, issued, format);
  return next.map((line) => {
    const before = previous[line.position];
    return issued.has(line.position) && before ? { ...before, amountCents: issued.get(line.position)! } : line;
  });
}

/** @returns the date `days` after the calendar date `YYYY-MM-DD`. */
function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The calendar date a line falls due, once the offer is signed.
 *
 * @param signedOn - the signing date in the agency's time zone (`YYYY-MM-DD`).
 * @returns `YYYY-MM-DD`, or null for a milestone not reached yet (it waits for the admin).
 */
export function lineDueDate(due: ScheduleDue, signedOn: string): string | null {
  switch (due.kind) {
    case "signing":
      return signedOn;
    case "date":
      return due.date < signedOn ? signedOn : due.date;
    case "days_after_signing":
      return plusDays(signedOn, due.days);
    case "milestone":
      return null;
  }
}

/** The due rule in words, for the offer, the signing page and the dashboard. */
export function dueRuleText(due: ScheduleDue, formatDate: (date: string) => string = (d) => d): string {
  switch (due.kind) {
    case "signing":
      return "when you sign";
    case "date":
      return `on ${formatDate(due.date)}`;
    case "days_after_signing":
      return `${due.days} ${due.days === 1 ? "day" : "days"} after signing`;
    case "milestone":
      return "when the agency marks it reached";
  }
}

/** The share in words: "$1,500.00", "30 %", "the rest". */
export function shareText(share: ScheduleShare, format: (cents: number) => string = plainCents): string {
  if (share.kind === "amount") return format(share.value);
  if (share.kind === "percent") return `${(share.value / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;
  return "the rest";
}
