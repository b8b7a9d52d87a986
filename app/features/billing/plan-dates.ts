/**
 * The calendar of a recurring billing plan (issue #39, docs/product.md#recurring-billing): pure
 * functions of the plan's schedule and "today" in the agency's time zone.
 *
 * - A plan bills on cycle dates: cycle 0 is the first billing date on or after the start date;
 *   weekly plans then bill every 7 days; monthly, quarterly and yearly plans bill every 1, 3 or 12
 *   months on the plan's day of the month, or on the month's last day when the month is shorter
 *   (a plan on the 31st bills Feb 28 — Feb 29 in a leap year —, Mar 31, Apr 30). Each date is
 *   computed from cycle 0 with date-fns' `addMonths` (never from the previous, clamped, date), so a
 *   short month never drags the later dates back.
 * - A plan ends after its end date (no cycle dated after it) or its number of cycles.
 * - "Today" is the agency's calendar date ({@link agencyToday}, `@date-fns/tz`): a cycle is due
 *   from the first moment of its date in that zone.
 *
 * Dates are calendar dates `YYYY-MM-DD` (no time, no zone). Nothing here reads the clock or the
 * database.
 */
import { tz } from "@date-fns/tz";
import { addDays, addMonths, format, getDaysInMonth } from "date-fns";

/** How often a plan bills (docs/product.md#recurring-billing). */
export const BILLING_FREQUENCIES = ["weekly", "monthly", "quarterly", "yearly"] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];

/** Months between two cycles of a frequency billed by the month (weekly: none). */
const MONTHS: Record<Exclude<BillingFrequency, "weekly">, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The part of a plan its calendar depends on. */
export interface PlanSchedule {
  frequency: BillingFrequency;
  /** `YYYY-MM-DD`: no cycle before it. */
  startDate: string;
  /**
   * 1–31, for monthly, quarterly and yearly plans: the day of the month it bills on (the month's
   * last day when the month is shorter). Null: the start date's day. Ignored for weekly plans.
   */
  dayOfMonth: number | null;
  /** `YYYY-MM-DD`: no cycle after it (null: no end date). */
  endDate: string | null;
  /** At most this many cycles (null: no limit). */
  maxCycles: number | null;
}

/** A calendar date `YYYY-MM-DD` as a local Date at midnight (for date-fns arithmetic only). */
function toDate(value: string): Date {
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** A local Date as `YYYY-MM-DD`. */
function toDay(value: Date): string {
  return format(value, "yyyy-MM-dd");
}

/** @returns `day` in the month of `date`, clamped to that month's last day. */
function onDay(date: Date, day: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), Math.min(day, getDaysInMonth(date)));
}

/**
 * The first billing date: the start date for weekly plans; otherwise the plan's day of the month
 * in the start date's month when that is not before the start date, else in the next period's month.
 */
function firstCycle(schedule: PlanSchedule): Date {
  const start = toDate(schedule.startDate);
  if (schedule.frequency === "weekly" || schedule.dayOfMonth === null) return start;
  const inStartMonth = onDay(start, schedule.dayOfMonth);
  return inStartMonth >= start
    ? inStartMonth
    : onDay(addMonths(new Date(start.getFullYear(), start.getMonth(), 1), 1), schedule.dayOfMonth);
}

/**
 * The date of cycle `index` (0-based), whether or not the plan still runs then.
 *
 * @param index - 0, 1, 2, … (a whole number).
 * @returns `YYYY-MM-DD`.
 */
export function cycleDate(schedule: PlanSchedule, index: number): string {
  const first = firstCycle(schedule);
  if (schedule.frequency === "weekly") return toDay(addDays(first, 7 * index));
  const day = schedule.dayOfMonth ?? toDate(schedule.startDate).getDate();
  // From the first cycle's month, then the plan's day clamped (addMonths alone would keep a clamped day).
  const month = addMonths(new Date(first.getFullYear(), first.getMonth(), 1), MONTHS[schedule.frequency] * index);
  return toDay(onDay(month, day));
}

/** @returns whether the plan bills a cycle `index` at all (its end date and number of cycles). */
export function cycleInPlan(schedule: PlanSchedule, index: number): boolean {
  if (schedule.maxCycles !== null && index >= schedule.maxCycles) return false;
  if (schedule.endDate !== null && cycleDate(schedule, index) > schedule.endDate) return false;
  return true;
}

/**
 * The cycles due by `today` from cycle `fromIndex` on (those not yet issued), in order.
 *
 * @param fromIndex - the first cycle not issued yet.
 * @param today - the agency's date `YYYY-MM-DD`.
 * @param limit - at most this many (a plan down for years must not issue an unbounded batch at once).
 * @returns `{ index, date }` of each due cycle.
 */
export function dueCycles(schedule: PlanSchedule, fromIndex: number, today: string, limit = 100): Array<{ index: number; date: string }> {
  const due: Array<{ index: number; date: string }> = [];
  for (let index = fromIndex; due.length < limit && cycleInPlan(schedule, index); index++) {
    const date = cycleDate(schedule, index);
    if (date > today) break;
    due.push({ index, date });
  }
  return due;
}

/**
 * @returns the next cycle from `fromIndex` on that the plan bills, or null when the plan has ended.
 */
export function nextCycle(schedule: PlanSchedule, fromIndex: number): { index: number; date: string } | null {
  return cycleInPlan(schedule, fromIndex) ? { index: fromIndex, date: cycleDate(schedule, fromIndex) } : null;
}

/**
 * The first cycle dated on or after `date` (e.g. where a resumed plan goes on: the cycles of its
 * pause are not billed).
 *
 * @param fromIndex - no earlier cycle than this one.
 * @returns its index (possibly past the plan's end: check {@link cycleInPlan}).
 */
export function firstCycleOnOrAfter(schedule: PlanSchedule, fromIndex: number, date: string): number {
  let index = fromIndex;
  // Bounded: 53 weekly cycles a year; a plan resumed after centuries is not a case.
  while (cycleDate(schedule, index) < date && index < fromIndex + 100_000) index++;
  return index;
}

/**
 * The period a cycle covers: from its date to the day before the next cycle's date.
 *
 * @returns `{ from, to }` as `YYYY-MM-DD`.
 */
export function cyclePeriod(schedule: PlanSchedule, index: number): { from: string; to: string } {
  return { from: cycleDate(schedule, index), to: toDay(addDays(toDate(cycleDate(schedule, index + 1)), -1)) };
}

/** @returns `date` plus `days` calendar days (`YYYY-MM-DD`), e.g. a cycle's due date. */
export function addCalendarDays(date: string, days: number): string {
  return toDay(addDays(toDate(date), days));
}

/**
 * The agency's calendar date at an instant.
 *
 * @param instant - the current instant (the injectable clock's).
 * @param timeZone - the agency's IANA zone (Settings).
 * @returns `YYYY-MM-DD` in that zone.
 */
export function agencyToday(instant: Date, timeZone: string): string {
  return format(instant, "yyyy-MM-dd", { in: tz(timeZone) });
}
