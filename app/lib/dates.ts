/**
 * Date display helpers that never throw (spec §8: an admin meeting whose date cannot be
 * shown reads "Invalid Date" instead of breaking the page). Locale is fixed (en-US) so the
 * server-rendered text and the hydrated text agree.
 */

/** The text shown for a date that cannot be displayed (spec §8). */
export const INVALID_DATE = "Invalid Date";

/** @returns a Date for a Date, ISO string or epoch ms; null when missing or not a real instant. */
export function toValidDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isFinite(date.getTime()) ? date : null;
}

/** @returns the instant as an ISO string (UTC), or null when it is not a real instant. */
export function toIsoOrNull(value: Date | string | number | null | undefined): string | null {
  return toValidDate(value)?.toISOString() ?? null;
}

/** @returns whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string | null | undefined): timeZone is string {
  if (!timeZone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Formats an instant as date and time in a time zone, e.g. "Tue, Mar 3, 2026, 2:00 PM EST".
 *
 * @param value - the instant (Date, ISO string or epoch ms).
 * @param timeZone - IANA zone; an unknown zone falls back to UTC (and says so).
 * @returns the text, or {@link INVALID_DATE} when the value is not a real instant.
 */
export function formatDateTime(value: Date | string | number | null | undefined, timeZone = "UTC"): string {
  const date = toValidDate(value);
  if (!date) return INVALID_DATE;
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  try {
    return new Intl.DateTimeFormat("en-US", {
      weekday: "short",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: zone,
      timeZoneName: "short",
    }).format(date);
  } catch {
    return INVALID_DATE;
  }
}

/**
 * Formats a calendar date `YYYY-MM-DD` (e.g. an invoice due date) as "Mar 3, 2026".
 *
 * @returns the text, or {@link INVALID_DATE} when it is not a real calendar date.
 */
export function formatCalendarDate(value: string | null | undefined): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return INVALID_DATE;
  const date = new Date(`${value}T00:00:00Z`);
  if (!Number.isFinite(date.getTime()) || date.toISOString().slice(0, 10) !== value) return INVALID_DATE;
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(date);
}

/**
 * Adds days to a calendar date.
 *
 * @param date - `YYYY-MM-DD`.
 * @returns `YYYY-MM-DD`, `days` later (UTC calendar arithmetic).
 */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
