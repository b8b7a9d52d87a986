/**
 * User-visible messages, labels and limits of the availability settings (docs/product.md#availability),
 * in a module of their own so that the page imports them without the schema: zod stays out of the
 * browser (ADR 010).
 */
import type { Weekday } from "#app/db/enums";

/** Limits of the availability settings (the database checks the same, migration 0016). */
export const AVAILABILITY_LIMITS = {
  meetingMinutes: { min: 15, max: 240 },
  meetingBufferMinutes: { min: 0, max: 240 },
  minNoticeHours: { min: 0, max: 8760 },
  bookingHorizonDays: { min: 1, max: 730 },
  changeCutoffHours: { min: 0, max: 720 },
  datesOff: 366,
  meetingLocation: 500,
  rangesPerDay: 6,
} as const;

/** Weekday names as the form shows them. */
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

export const AVAILABILITY_MESSAGES = {
  saved: "Availability saved.",
  hoursFormat: "Write the hours like 09:00–12:00, 13:00–17:00 (24-hour clock), or leave the day empty when you are not available.",
  hoursOrder: "Each range must end after it starts, and ranges must not overlap.",
  tooManyRanges: `At most ${AVAILABILITY_LIMITS.rangesPerDay} ranges per day.`,
  dateOffFormat: "Write one date per line as YYYY-MM-DD, e.g. 2026-12-24.",
  tooManyDatesOff: `At most ${AVAILABILITY_LIMITS.datesOff} dates off.`,
  timeZone: "Choose a time zone from the list.",
  meetingLocation: "Write an address, or a video link starting with https://, in at most 500 characters.",
} as const;
