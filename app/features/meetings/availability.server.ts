/**
 * The agency's availability (docs/product.md#availability): read from and saved to the settings
 * row, and the free slots it leaves once pending and accepted meetings hold their time.
 */
import { and, gt, inArray, lt, ne, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import { meeting, settings } from "#app/db/schema";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError } from "#app/lib/errors";
import { isCalendarDate, isValidTimeZone } from "#app/lib/dates";
import { formatClock, formatDay, formatZone } from "#app/lib/vocabulary";
import { AVAILABILITY_LIMITS, AVAILABILITY_MESSAGES, meetingLink, parseRanges, type AvailabilityInput } from "./availability.schema";
import { openSlots, slotsByDay, type Availability, type BusyRange } from "./slots";
import { WEEKDAYS } from "#app/db/enums";

/** The availability settings plus the clients' change cutoff, instant confirmation and the meetings' place (issue #41). */
export type AgencyAvailability = Availability & { changeCutoffHours: number; instantBooking: boolean; meetingLocation: string };

/** @returns the agency's availability from the settings row (defaults when none was saved). */
export async function getAvailability(q: Queryable): Promise<AgencyAvailability> {
  const s = await getSettings(q);
  return {
    timeZone: isValidTimeZone(s.timeZone) ? s.timeZone : "UTC",
    // jsonb keeps its own key order: rebuild Monday first (audit diffs compare JSON text).
    weeklyHours: Object.fromEntries(
      WEEKDAYS.map((d) => [d, (s.weeklyHours[d] ?? []).map((r) => ({ start: r.start, end: r.end }))]),
    ) as AgencyAvailability["weeklyHours"],
    meetingMinutes: s.meetingMinutes,
    meetingBufferMinutes: s.meetingBufferMinutes,
    minNoticeHours: s.minNoticeHours,
    bookingHorizonDays: s.bookingHorizonDays,
    datesOff: s.datesOff,
    changeCutoffHours: s.changeCutoffHours,
    instantBooking: s.instantBooking,
    meetingLocation: s.meetingLocation,
  };
}

/**
 * Reads the availability for the admin's form.
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function getAvailabilityForAdmin(q: Queryable, actor: Actor): Promise<AgencyAvailability> {
  assertRole(actor, "admin");
  return getAvailability(q);
}

/**
 * Saves the agency's availability (docs/product.md#availability), checked again here whatever the
 * browser did; one audit event `updated` (entity settings) with the changed fields, none when
 * nothing changed. Meetings already booked keep their time.
 *
 * @param input - validated values (`availabilitySchema` → `toAvailabilityInput`).
 * @throws {AppError} 403 unless the actor is an admin; 400 next to the field for a value outside
 *   its limits, an unknown zone, or hours that are not sorted, non-overlapping ranges.
 */
export async function saveAvailability(db: Database, actor: Actor, input: AvailabilityInput): Promise<void> {
  assertRole(actor, "admin");
  if (!isValidTimeZone(input.timeZone)) throw fieldError("timeZone", "Choose a time zone from the list.");
  for (const key of ["meetingMinutes", "meetingBufferMinutes", "minNoticeHours", "bookingHorizonDays", "changeCutoffHours"] as const) {
    const { min, max } = AVAILABILITY_LIMITS[key];
    const value = input[key];
    if (!Number.isInteger(value) || value < min || value > max) throw fieldError(key, `Enter a whole number between ${min} and ${max}.`);
  }
  for (const day of WEEKDAYS) {
    const parsed = parseRanges((input.weeklyHours[day] ?? []).map((r) => `${r.start}-${r.end}`).join(","));
    if ("error" in parsed) throw fieldError(day, parsed.error);
  }
  if (input.datesOff.length > AVAILABILITY_LIMITS.datesOff) throw fieldError("datesOff", "Too many dates off.");
  const location = (input.meetingLocation ?? "").trim();
  if (location.length > AVAILABILITY_LIMITS.meetingLocation || /[\u0000-\u0008\u000B-\u001F\u007F]/.test(location))
    throw fieldError("meetingLocation", AVAILABILITY_MESSAGES.meetingLocation);
  await db.transaction(async (tx) => {
    const current = await getAvailability(tx);
    const next = {
      timeZone: input.timeZone,
      weeklyHours: Object.fromEntries(WEEKDAYS.map((d) => [d, input.weeklyHours[d] ?? []])) as AvailabilityInput["weeklyHours"],
      meetingMinutes: input.meetingMinutes,
      meetingBufferMinutes: input.meetingBufferMinutes,
      minNoticeHours: input.minNoticeHours,
      bookingHorizonDays: input.bookingHorizonDays,
      changeCutoffHours: input.changeCutoffHours,
      datesOff: input.datesOff,
      instantBooking: input.instantBooking ?? false,
      meetingLocation: location,
    };
    const { before, after } = changedFields(
      {
        timeZone: current.timeZone,
        weeklyHours: current.weeklyHours,
        meetingMinutes: current.meetingMinutes,
        meetingBufferMinutes: current.meetingBufferMinutes,
        minNoticeHours: current.minNoticeHours,
        bookingHorizonDays: current.bookingHorizonDays,
        changeCutoffHours: current.changeCutoffHours,
        datesOff: current.datesOff,
        instantBooking: current.instantBooking,
        meetingLocation: current.meetingLocation,
      },
      next,
    );
    if (!after) return;
    await tx
      .insert(settings)
      .values({ id: 1, ...next })
      .onConflictDoUpdate({ target: settings.id, set: { ...next, updatedAt: sql`now()` } });
    await recordAudit(tx, actor, { entity: "settings", entityId: 1, action: "updated", before, after });
  });
}

/** Meetings that hold time in the agency's calendar. */
export const HOLDS_TIME = inArray(meeting.status, ["pending", "accepted"]);

/**
 * The time held by pending and accepted meetings between two instants, as the union of their
 * [start, end] ranges: overlapping or touching meetings come back as one range (issue #42: a busy
 * calendar holds thousands of meetings in the booking horizon, a few dozen ranges once merged, and
 * the booking page only asks whether a slot meets any of them — the same answer for the union as
 * for every meeting). Merged by PostgreSQL (`range_agg`), read as epoch milliseconds.
 *
 * @param exceptMeetingId - a meeting being rescheduled (its own time is free for it).
 * @returns disjoint ranges, earliest first; meetings at ±infinity are left out.
 */
export async function busyRanges(q: Queryable, from: Date, to: Date, exceptMeetingId?: number): Promise<BusyRange[]> {
  const held = q
    .select({ range: sql`range_agg(tstzrange(${meeting.startsAt}, ${meeting.endsAt}, '[]'))`.as("range") })
    .from(meeting)
    .where(
      and(
        HOLDS_TIME,
        lt(meeting.startsAt, to),
        gt(meeting.endsAt, from),
        sql`isfinite(${meeting.startsAt}) and isfinite(${meeting.endsAt})`,
        exceptMeetingId === undefined ? undefined : ne(meeting.id, exceptMeetingId),
      ),
    );
  const rows = rowsOf<{ start: number; end: number }>(
    await q.execute(sql`
      select floor(extract(epoch from lower(r)) * 1000)::float8 as "start", floor(extract(epoch from upper(r)) * 1000)::float8 as "end"
      from unnest((${held})) as r order by 1`),
  );
  return rows.map((r) => ({ start: new Date(Number(r.start)), end: new Date(Number(r.end)) }));
}

/**
 * Every free slot now (docs/product.md#availability), earliest first.
 *
 * @param options.exceptMeetingId - a meeting being rescheduled: its own time counts as free.
 * @param options.ignoreNotice - the admin moves a meeting: the minimum notice does not apply.
 * @param now - the current instant.
 * @returns the availability used and the slot starts (UTC).
 */
export async function freeSlots(
  q: Queryable,
  options: { exceptMeetingId?: number; ignoreNotice?: boolean } = {},
  now: Date = new Date(),
): Promise<{ availability: AgencyAvailability; slots: Date[] }> {
  const stored = await getAvailability(q);
  const availability = options.ignoreNotice ? { ...stored, minNoticeHours: 0 } : stored;
  const margin = (availability.meetingBufferMinutes + availability.meetingMinutes) * 60_000;
  const from = new Date(now.getTime() + availability.minNoticeHours * 3_600_000 - margin);
  const to = new Date(now.getTime() + availability.bookingHorizonDays * 86_400_000 + margin);
  const busy = await busyRanges(q, from, to, options.exceptMeetingId);
  return { availability, slots: openSlots(availability, busy, now) };
}

/** What the day and slot pickers show (docs/product.md#meetings-scheduling), in the viewer's zone. */
export interface SlotPickerView {
  /** The viewer's IANA zone and its label, e.g. "America/New_York (EDT)". */
  timeZone: string;
  zoneLabel: string;
  /** Days with at least one free slot, in order: `YYYY-MM-DD` and "Mon, Jun 8". */
  days: { date: string; label: string; count: number }[];
  /** The day shown (the one asked for, else the first with free slots), its long label. */
  day: string | null;
  dayLabel: string;
  /** The free slots of that day: ISO instant and "9:00 AM". */
  slots: { value: string; label: string }[];
  meetingMinutes: number;
}

/**
 * The free days and the slots of one day, as labels in the viewer's zone.
 *
 * @param timeZone - the viewer's IANA zone (validated by the caller).
 * @param day - `YYYY-MM-DD` asked for, or null for the first free day.
 * @param options - as {@link freeSlots}.
 */
export async function slotPickerView(
  q: Queryable,
  timeZone: string,
  day: string | null,
  options: { exceptMeetingId?: number; ignoreNotice?: boolean } = {},
  now: Date = new Date(),
): Promise<SlotPickerView> {
  const { availability, slots } = await freeSlots(q, options, now);
  const byDay = slotsByDay(slots, timeZone);
  const days = [...byDay.entries()].map(([date, list]) => ({ date, label: formatDay(date, "short"), count: list.length }));
  const shown = day && isCalendarDate(day) ? day : (days[0]?.date ?? null);
  return {
    timeZone,
    zoneLabel: formatZone(timeZone, slots[0] ?? now),
    days,
    day: shown,
    dayLabel: shown ? formatDay(shown) : "",
    slots: (shown ? (byDay.get(shown) ?? []) : []).map((s) => ({ value: s.toISOString(), label: formatClock(s, timeZone) })),
    meetingMinutes: availability.meetingMinutes,
  };
}

/**
 * The mails' line saying where a meeting happens (issue #41): "Join: https://…" for a video link,
 * "Where: …" for an address; nothing when Settings name no place.
 */
export async function meetingPlaceLines(q: Queryable): Promise<string[]> {
  const { meetingLocation } = await getAvailability(q);
  const location = meetingLocation.trim();
  if (!location) return [];
  return [`${meetingLink(location) ? "Join" : "Where"}: ${location}`];
}
