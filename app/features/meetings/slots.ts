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
import { TZDate, tz } from "@date-fns/tz";
import { addDays, format, getISODay, parseISO } from "date-fns";
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
 * @param availability - the agency's settings.
 * @param busy - meetings holding time (any order).
 * @param now - the current instant.
 * @returns slot starts (UTC instants); each slot lasts `meetingMinutes`.
 */
export function openSlots(availability: Availability, busy: BusyRange[], now: Date): Date[] {
  const zone = tz(availability.timeZone);
  const length = availability.meetingMinutes;
  const buffer = availability.meetingBufferMinutes * 60_000;
  const earliest = now.getTime() + availability.minNoticeHours * 3_600_000;
  const latest = now.getTime() + availability.bookingHorizonDays * 86_400_000;
  const off = new Set(availability.datesOff);
  const held = busy.map((b) => ({ start: b.start.getTime() - buffer, end: b.end.getTime() + buffer })).sort((a, b) => a.start - b.start);
  const slots: Date[] = [];
  const seen = new Set<number>();
  // Agency dates from the one holding `earliest` to the one holding `latest`.
  const last = dateIn(new Date(latest), availability.timeZone);
  for (let date = dateIn(new Date(earliest), availability.timeZone); date <= last; date = addCalendarDays(date, 1)) {
    const [y, m, d] = date.split("-").map(Number) as [number, number, number];
    const weekday = WEEKDAYS[getISODay(new TZDate(y, m - 1, d, availability.timeZone)) - 1]!;
    const ranges = off.has(date) ? [] : availability.weeklyHours[weekday];
    for (const range of ranges) {
      const end = minutesOf(range.end);
      for (let minute = minutesOf(range.start); minute + length <= end; minute += length) {
        const start = new TZDate(y, m - 1, d, Math.floor(minute / 60), minute % 60, availability.timeZone);
        // A wall time skipped by a daylight-saving jump does not exist: no slot there.
        if (format(start, "yyyy-MM-dd HH:mm", { in: zone }) !== `${date} ${clock(minute)}`) continue;
        const t = start.getTime();
        if (t < earliest || t > latest || seen.has(t)) continue;
        const slotEnd = t + length * 60_000;
        if (held.some((h) => t < h.end && slotEnd > h.start)) continue;
        seen.add(t);
        slots.push(new Date(t));
      }
    }
  }
  return slots.sort((a, b) => a.getTime() - b.getTime());
}

/** @returns `HH:MM` of minutes since midnight. */
function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * Groups slot starts by their calendar date in the viewer's zone.
 *
 * @returns `YYYY-MM-DD` (viewer's zone) → the slots of that day, in order; the map keeps date order.
 */
export function slotsByDay(slots: Date[], viewerZone: string): Map<string, Date[]> {
  const zone = tz(viewerZone);
  const days = new Map<string, Date[]>();
  for (const slot of slots) {
    const key = format(slot, "yyyy-MM-dd", { in: zone });
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
