/**
 * The agency's availability form (docs/product.md#availability), parsed by the action (the page
 * gets its browser-side checks from `formConstraints`); never imports server modules.
 *
 * Weekly hours are typed per weekday as text, one or more ranges: "09:00–12:00, 13:00–17:00"
 * (24-hour clock, "-" or "–" between the times), empty for a day off. Dates off are one
 * `YYYY-MM-DD` per line. Lengths are minutes, notice and cutoff hours, the horizon days.
 */
import { z } from "zod";
import { WEEKDAYS, type TimeRange, type WeeklyHours } from "#app/db/enums";
import { DATE_PATTERN, isCalendarDate, isValidTimeZone } from "#app/lib/dates";
import { AVAILABILITY_LIMITS, AVAILABILITY_MESSAGES } from "./availability.messages";

/** Re-exported for server code; the page imports the messages module (no zod in the browser). */
export { AVAILABILITY_LIMITS, AVAILABILITY_MESSAGES, WEEKDAY_LABELS } from "./availability.messages";

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)\s*(?:-|–|—|to)\s*([01]\d|2[0-3]|24):([0-5]\d)$/;

/** @returns the ranges as the form shows them: "09:00–12:00, 13:00–17:00" ("" when none). */
export function formatRanges(ranges: readonly TimeRange[]): string {
  return ranges.map((r) => `${r.start}–${r.end}`).join(", ");
}

/**
 * Parses one weekday's hours.
 *
 * @returns the ranges, sorted, or an error message ({@link AVAILABILITY_MESSAGES}).
 */
export function parseRanges(text: string): { ranges: TimeRange[] } | { error: string } {
  const parts = text
    .split(/[,;\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > AVAILABILITY_LIMITS.rangesPerDay) return { error: AVAILABILITY_MESSAGES.tooManyRanges };
  const ranges: TimeRange[] = [];
  for (const part of parts) {
    const m = RANGE.exec(part);
    if (!m) return { error: AVAILABILITY_MESSAGES.hoursFormat };
    const start = `${m[1]}:${m[2]}`;
    const end = `${m[3]}:${m[4]}`;
    if (end > "24:00") return { error: AVAILABILITY_MESSAGES.hoursFormat };
    if (end <= start) return { error: AVAILABILITY_MESSAGES.hoursOrder };
    ranges.push({ start, end });
  }
  ranges.sort((a, b) => a.start.localeCompare(b.start));
  for (let i = 1; i < ranges.length; i++) if (ranges[i]!.start < ranges[i - 1]!.end) return { error: AVAILABILITY_MESSAGES.hoursOrder };
  return { ranges };
}

/** A whole number field with a range, e.g. "Meeting length must be between 15 and 240 minutes." */
function wholeNumber(label: string, unit: string, { min, max }: { min: number; max: number }) {
  const message = `${label} must be a whole number of ${unit} between ${min} and ${max.toLocaleString("en-US")}.`;
  return z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, { error: `${label} is required.`, abort: true })
    .regex(/^\d{1,5}$/, { error: message, abort: true })
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
}

const weekdayHours = z
  .string()
  .max(200, { error: AVAILABILITY_MESSAGES.hoursFormat, abort: true })
  .optional()
  .transform((value, ctx) => {
    const parsed = parseRanges(value ?? "");
    if ("error" in parsed) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.ranges;
  });

/** Dates off: one `YYYY-MM-DD` per line (commas also separate), deduplicated and sorted. */
const datesOff = z
  .string()
  .max(AVAILABILITY_LIMITS.datesOff * 12, { error: AVAILABILITY_MESSAGES.tooManyDatesOff, abort: true })
  .optional()
  .transform((value, ctx) => {
    const dates = [
      ...new Set(
        (value ?? "")
          .split(/[\s,;]+/)
          .map((d) => d.trim())
          .filter(Boolean),
      ),
    ].sort();
    if (dates.some((d) => !DATE_PATTERN.test(d) || !isCalendarDate(d))) {
      ctx.addIssue({ code: "custom", message: AVAILABILITY_MESSAGES.dateOffFormat });
      return z.NEVER;
    }
    if (dates.length > AVAILABILITY_LIMITS.datesOff) {
      ctx.addIssue({ code: "custom", message: AVAILABILITY_MESSAGES.tooManyDatesOff });
      return z.NEVER;
    }
    return dates;
  });

/** The availability form: the agency's zone, hours per weekday (fields `mon` … `sun`) and the rules. */
export const availabilitySchema = z.object({
  timeZone: z
    .string({ error: AVAILABILITY_MESSAGES.timeZone })
    .trim()
    .refine((v) => isValidTimeZone(v), AVAILABILITY_MESSAGES.timeZone),
  mon: weekdayHours,
  tue: weekdayHours,
  wed: weekdayHours,
  thu: weekdayHours,
  fri: weekdayHours,
  sat: weekdayHours,
  sun: weekdayHours,
  meetingMinutes: wholeNumber("Meeting length", "minutes", AVAILABILITY_LIMITS.meetingMinutes),
  meetingBufferMinutes: wholeNumber("Buffer", "minutes", AVAILABILITY_LIMITS.meetingBufferMinutes),
  minNoticeHours: wholeNumber("Minimum notice", "hours", AVAILABILITY_LIMITS.minNoticeHours),
  bookingHorizonDays: wholeNumber("Booking horizon", "days", AVAILABILITY_LIMITS.bookingHorizonDays),
  changeCutoffHours: wholeNumber("Change cutoff", "hours", AVAILABILITY_LIMITS.changeCutoffHours),
  datesOff,
  /** Issue #41: bookings confirmed at once (a checkbox). */
  instantBooking: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  /** Issue #41: an address or a video link (https), carried into the invites and mails. */
  meetingLocation: z
    .string()
    .trim()
    .max(AVAILABILITY_LIMITS.meetingLocation, { error: AVAILABILITY_MESSAGES.meetingLocation })
    .refine((v) => !/[\u0000-\u0008\u000B-\u001F\u007F]/.test(v), AVAILABILITY_MESSAGES.meetingLocation)
    .optional()
    .transform((v) => v ?? ""),
});

export type AvailabilityFormOutput = z.infer<typeof availabilitySchema>;

/** The saved availability (what `saveAvailability` takes). */
export interface AvailabilityInput {
  timeZone: string;
  weeklyHours: WeeklyHours;
  meetingMinutes: number;
  meetingBufferMinutes: number;
  minNoticeHours: number;
  bookingHorizonDays: number;
  changeCutoffHours: number;
  datesOff: string[];
  /** Bookings are accepted at once (issue #41); absent = unchanged default false. */
  instantBooking?: boolean;
  /** Where meetings happen: an address or an https video link; "" = none (issue #41). */
  meetingLocation?: string;
}

/** @returns `location` when it is an http(s) link (a video call), else null (an address). */
export function meetingLink(location: string): string | null {
  if (!/^https?:\/\//i.test(location)) return null;
  try {
    const url = new URL(location);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** @returns the form's output as an {@link AvailabilityInput}. */
export function toAvailabilityInput(value: AvailabilityFormOutput): AvailabilityInput {
  const weeklyHours = Object.fromEntries(WEEKDAYS.map((d) => [d, value[d]])) as WeeklyHours;
  const { timeZone, meetingMinutes, meetingBufferMinutes, minNoticeHours, bookingHorizonDays, changeCutoffHours, datesOff } = value;
  return {
    timeZone,
    weeklyHours,
    meetingMinutes,
    meetingBufferMinutes,
    minNoticeHours,
    bookingHorizonDays,
    changeCutoffHours,
    datesOff,
    instantBooking: value.instantBooking,
    meetingLocation: value.meetingLocation,
  };
}
