/**
 * Calendar date + wall-clock time in an IANA time zone → UTC instant (design: meetings are
 * stored as `startsAt` timestamptz + the zone the client picked them in). The conversion is
 * done by `@date-fns/tz` (TZDate), never by hand-rolled offset arithmetic. Shared by the
 * browser (schemas) and the server (use-cases).
 */
import { TZDate } from "@date-fns/tz";

/** `YYYY-MM-DD` as typed by `<input type="date">`. */
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `HH:MM` (24 h) as typed by `<input type="time">`; seconds are accepted and ignored. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?$/;

/**
 * @param value - a candidate IANA time zone name, e.g. `America/New_York` or `UTC`.
 * @returns true when this runtime's Intl knows it.
 */
export function isValidTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
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

/**
 * Converts a wall-clock date and time in `timeZone` to the UTC instant it denotes.
 * A time that does not exist in that zone (skipped by a daylight-saving jump) moves forward
 * by the jump, as TZDate does (02:30 on a spring-forward night in New York → 03:30 EDT).
 *
 * @param date - `YYYY-MM-DD` (a real calendar date).
 * @param time - `HH:MM` (24 h).
 * @param timeZone - IANA zone name, validated with {@link isValidTimeZone}.
 * @returns the instant (a `Date`, i.e. UTC milliseconds).
 * @throws {RangeError} when the date, time or zone is invalid.
 */
export function zonedDateTimeToUtc(date: string, time: string, timeZone: string): Date {
  const d = DATE_PATTERN.exec(date);
  const t = TIME_PATTERN.exec(time);
  if (!d || !isCalendarDate(date)) throw new RangeError(`Invalid date: ${date}`);
  if (!t) throw new RangeError(`Invalid time: ${time}`);
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Invalid time zone: ${timeZone}`);
  const zoned = new TZDate(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]), 0, 0, timeZone);
  return new Date(zoned.getTime());
}
