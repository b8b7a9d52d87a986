/**
 * Free meeting slots from the agency's availability (docs/product.md#availability): pure
 * functions of the settings, the meetings that already hold time, and "now". Zone arithmetic is
 * done by date-fns with `@date-fns/tz` (`{ in: tz(zone) }`), never by hand-rolled offsets.
 *
 * A slot starts on the weekly hours' grid (every meeting length from each range's start, the whole
 * meeting inside the range), on an agency date that is not a date off, at least the minimum notice
 * after now and at most the horizon ahead, and does not overlap a pending or accepted meeting with
 * the buffer on both sides.
 */
import { TZDate, tz, tzOffset } from "@date-fns/tz";
import { addDays, format, parseISO } from "date-fns";
import { WEEKDAYS, type WeeklyHours } from "#app/db/enums";

/** The availability settings the slots depend on (a subset of the settings row). */
export interface Availability {
  /** The agency's IANA zone: weekly hours and dates off are read in it. */
  timeZone: string;
  weeklyHours: WeeklyHours;
  /** 15–240. */
  meetingMinutes: number;
  /** 0–240, kept free before and after every meeting. */
  meetingBufferMinutes: number;
  minNoticeHours: number;
  bookingHorizonDays: number;
  /** `YYYY-MM-DD` in the agency's zone. */
  datesOff: string[];
}

/** Time already held by a meeting (pending or accepted): [start, end), the buffer not included. */
export interface BusyRange {
  start: Date;
  end: Date;
}

/** @returns minutes since midnight of `HH:MM` (`24:00` → 1440). */
export function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * Every free slot start between now + notice and now + horizon, earliest first.
 *
 * Cheap on every booking page (issue #30): a day whose zone offset does not change is laid out
 * with integer arithmetic from one offset (two `Intl` look-ups per day); only a day with a
 * daylight-saving change falls back to resolving each wall time in the zone. Overlap with the held
 * time is a binary search, not a scan of every meeting.
 *
 * @param availability - the agency's settings.
 * @param busy - meetings holding time (any order).
 * @param now - the current instant.
 * @returns slot starts (UTC instants); each slot lasts `meetingMinutes`.
 */
export function openSlots(availability: Availability, busy: BusyRange[], now: Date): Date[] {
  const zoneName = availability.timeZone;
  const zone = tz(zoneName);
  const length = availability.meetingMinutes;
  const buffer = availability.meetingBufferMinutes * 60_000;
  const earliest = now.getTime() + availability.minNoticeHours * 3_600_000;
  const latest = now.getTime() + availability.bookingHorizonDays * 86_400_000;
  const off = new Set(availability.datesOff);
  const overlapsHeld = heldTime(busy, buffer);
  const slots: Date[] = [];
  const seen = new Set<number>();
  // Agency dates from the one holding `earliest` to the one holding `latest`.
  const last = dateIn(new Date(latest), zoneName);
  for (let date = dateIn(new Date(earliest), zoneName); date <= last; date = addCalendarDays(date, 1)) {
    const [y, m, d] = date.split("-").map(Number) as [number, number, number];
    // The weekday of a calendar date does not depend on the zone.
    const weekday = WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7]!;
    const ranges = off.has(date) ? [] : availability.weeklyHours[weekday];
    if (ranges.length === 0) continue;
    const midnight = Date.UTC(y, m - 1, d); // the date's wall clock read as UTC
    const offset = steadyOffset(zoneName, midnight);
    for (const range of ranges) {
      const end = minutesOf(range.end);
      for (let minute = minutesOf(range.start); minute + length <= end; minute += length) {
        let t: number;
        if (offset !== null) t = midnight + minute * 60_000 - offset * 60_000;
        else {
          const start = new TZDate(y, m - 1, d, Math.floor(minute / 60), minute % 60, zoneName);
          // A wall time skipped by a daylight-saving jump does not exist: no slot there.
          if (format(start, "yyyy-MM-dd HH:mm", { in: zone }) !== `${date} ${clock(minute)}`) continue;
          t = start.getTime();
        }
        if (t < earliest || t > latest || seen.has(t)) continue;
        if (overlapsHeld(t, t + length * 60_000)) continue;
        seen.add(t);
        slots.push(new Date(t));
      }
    }
  }
  return slots.sort((a, b) => a.getTime() - b.getTime());
}

/**
 * The zone's UTC offset (minutes) over the whole of one calendar date, or null when it changes on
 * or near that date. `midnight` is the date's wall-clock midnight read as UTC; the probes, 14 h
 * before it and 36 h after it, enclose the date's every instant in any zone (offsets span
 * −12 h…+14 h). Equal offsets at both ends mean no change in between, as no zone changes its
 * offset twice within 50 hours.
 */
function steadyOffset(zone: string, midnight: number): number | null {
  const before = tzOffset(zone, new Date(midnight - 14 * 3_600_000));
  const after = tzOffset(zone, new Date(midnight + 36 * 3_600_000));
  return before === after && Number.isFinite(before) ? before : null;
}

/**
 * @returns a test whether [start, end) overlaps a held range widened by `buffer` ms on both sides:
 *   the ranges sorted by start with the running maximum of their ends, so one binary search finds
 *   whether any range starting before `end` ends after `start`.
 */
function heldTime(busy: BusyRange[], buffer: number): (start: number, end: number) => boolean {
  const held = busy.map((b) => ({ start: b.start.getTime() - buffer, end: b.end.getTime() + buffer })).sort((a, b) => a.start - b.start);
  const starts = held.map((h) => h.start);
  const maxEnd: number[] = [];
  for (const [i, h] of held.entries()) maxEnd.push(Math.max(h.end, i ? maxEnd[i - 1]! : -Infinity));
  return (start, end) => {
    // The number of ranges starting before `end`.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && maxEnd[lo - 1]! > start;
  };
}

/** @returns `HH:MM` of minutes since midnight. */
function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * Groups slot starts by their calendar date in the viewer's zone.
 *
 * A few `Intl` look-ups per day of slots, not per slot: a date whose offset is steady (see
 * {@link steadyOffset}) runs from its midnight to the next, so its slots need no look-up.
 *
 * @returns `YYYY-MM-DD` (viewer's zone) → the slots of that day, in order; the map keeps date order.
 */
export function slotsByDay(slots: Date[], viewerZone: string): Map<string, Date[]> {
  const days = new Map<string, Date[]>();
  // [from, to): the instants of the date `key` when its offset is steady.
  let from = Infinity;
  let to = -Infinity;
  let key = "";
  for (const slot of slots) {
    const t = slot.getTime();
    if (t < from || t >= to) {
      key = dateIn(slot, viewerZone);
      const [y, m, d] = key.split("-").map(Number) as [number, number, number];
      const steady = steadyOffset(viewerZone, Date.UTC(y, m - 1, d));
      if (steady !== null) {
        // The whole date has this offset: it runs from its midnight to the next one.
        from = Date.UTC(y, m - 1, d) - steady * 60_000;
        to = from + 86_400_000;
      } else {
        from = Infinity;
        to = -Infinity;
      }
    }
    const list = days.get(key);
    if (list) list.push(slot);
    else days.set(key, [slot]);
  }
  return days;
}

/** @returns the calendar date `YYYY-MM-DD` of `instant` in `timeZone`. */
export function dateIn(instant: Date, timeZone: string): string {
  return format(instant, "yyyy-MM-dd", { in: tz(timeZone) });
}

/** @returns `YYYY-MM-DD` plus `days` (calendar arithmetic). */
export function addCalendarDays(date: string, days: number): string {
  return format(addDays(parseISO(date), days), "yyyy-MM-dd");
}
