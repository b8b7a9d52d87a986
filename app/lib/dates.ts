/**
 * Dates and times (design: timestamps are UTC instants, shown in the viewer's or the
 * client's time zone).
 * - Calendar dates, time zone names and the viewer's zone cookie. Zoned arithmetic (meeting
 *   slots) is done by date-fns with `@date-fns/tz` in `features/meetings/slots.ts`, never by
 *   hand; this module, shared by the browser and the server, imports neither (ADR 010).
 * - Display helpers that never throw (docs/product.md#meetings-admin: an admin meeting whose date cannot be shown
 *   reads "Invalid Date" instead of breaking the page). Locale is fixed (en-US) so the
 *   server-rendered text and the hydrated text agree.
 */
import { dateTimeFormat } from "#app/lib/intl-cache";

/** `YYYY-MM-DD` as typed by `<input type="date">`. */
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `HH:MM` (24 h) as typed by `<input type="time">`; seconds are accepted and ignored. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?$/;

/**
 * @param value - a candidate IANA time zone name, e.g. `America/New_York` or `UTC`.
 * @returns true when this runtime's Intl knows it.
 */
export function isValidTimeZone(value: string | null | undefined): value is string {
  if (!value || value.length > 64) return false;
  try {
    dateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * @param value - `YYYY-MM-DD`.
 * @returns true for a real calendar date (no 2026-02-30), years 1900–9999.
 */
export function isCalendarDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900) return false;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

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

/**
 * Formats an instant as date and time in a time zone, e.g. "Mar 3, 2026, 2:00 PM EST"
 * (docs/product.md#dates; use `formatTime` of app/lib/vocabulary.ts in new code).
 *
 * @param value - the instant (Date, ISO string or epoch ms).
 * @param timeZone - IANA zone; an unknown zone falls back to UTC (and says so).
 * @returns the text, or {@link INVALID_DATE} when the value is not a real instant.
 */
export function formatDateTime(value: Date | string | number | null | undefined, timeZone = "UTC"): string {
  const date = toValidDate(value);
  if (!date) return INVALID_DATE;
  try {
    return dateTimeFormatIn(timeZone).format(date);
  } catch {
    return INVALID_DATE;
  }
}

/**
 * formatDateTime's formatter per time zone, looked up by the zone alone: a table of 25 rows formats
 * 25–50 instants, and building the shared cache's key (two JSON texts of options) per instant cost
 * more than the formatting. Only zones this runtime knows are kept (IANA has ~600).
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** @returns the "Mar 3, 2026, 2:00 PM EST" formatter of `timeZone` (UTC when the zone is unknown). */
function dateTimeFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    const valid = isValidTimeZone(timeZone);
    format = dateTimeFormat("en-US", {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: valid ? timeZone : "UTC",
      timeZoneName: "short",
    });
    if (valid) dateTimeFormats.set(timeZone, format);
  }
  return format;
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
  return dateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(date);
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

/**
 * The business day (issue #36): today's calendar date in a time zone — the agency's (Settings) for
 * due dates, overdue, dates received and deposit terms.
 *
 * @param instant - the current instant.
 * @param timeZone - an IANA zone; an unknown one falls back to UTC.
 * @returns `YYYY-MM-DD` in that zone.
 */
export function todayIn(instant: Date, timeZone = "UTC"): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  const parts = dateTimeFormat("en-US", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** Name of the cookie in which the browser states its time zone (docs/product.md#dates). */
export const TIME_ZONE_COOKIE = "tz";

/**
 * The viewer's time zone stated by the `tz` cookie (set by the browser once a page has loaded).
 *
 * @param cookieHeader - the request's `Cookie` header.
 * @returns the IANA zone, or null when absent or not a zone this runtime knows.
 */
export function timeZoneFromCookie(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
    return isValidTimeZone(value) ? value : null;
  }
  return null;
}

/** @returns the first candidate that is a time zone this runtime knows, else "UTC". */
export function firstValidTimeZone(...candidates: (string | null | undefined)[]): string {
  return candidates.find((zone): zone is string => isValidTimeZone(zone)) ?? "UTC";
}
