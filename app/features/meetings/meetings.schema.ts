/**
 * Schedule-meeting form (docs/product.md#meetings-scheduling, notes optional). The
 * browser sends its IANA time zone in a hidden field (default "UTC" without JavaScript).
 * Shared by the browser (conform) and the action; never imports server modules.
 */
import { z } from "zod";
import { optionalText } from "#app/lib/text-fields";
import { DATE_PATTERN, isCalendarDate, isValidTimeZone, TIME_PATTERN } from "#app/lib/dates";

export const MEETING_MESSAGES = {
  scheduled: "Meeting requested. We will confirm it soon.",
  deleted: "Meeting deleted.",
  notFound: "Meeting not found",
  inPast: "Pick a date and time in the future.",
  tooFar: "Pick a date within the next two years.",
  notDeletable: "Only pending meetings can be deleted.",
} as const;

export const MEETING_NOTES_MAX = 2_000;
/** How far ahead a meeting may be requested: two years, in days. */
export const MEETING_HORIZON_DAYS = 731;

/** Date `YYYY-MM-DD` and time `HH:MM` required, zone defaults to "UTC", notes optional. */
export const meetingSchema = z.object({
  date: z
    .string({ error: "Date is required." })
    .trim()
    .min(1, { error: "Date is required.", abort: true })
    .regex(DATE_PATTERN, { error: "Enter the date as YYYY-MM-DD.", abort: true })
    .refine(isCalendarDate, "Enter a real calendar date."),
  time: z
    .string({ error: "Time is required." })
    .trim()
    .min(1, { error: "Time is required.", abort: true })
    .regex(TIME_PATTERN, "Enter the time as HH:MM."),
  timeZone: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || "UTC")
    .refine(isValidTimeZone, "Unknown time zone. Reload the page and try again."),
  notes: optionalText("Notes", MEETING_NOTES_MAX, { multiline: true }),
});

export type MeetingInput = z.infer<typeof meetingSchema>;
