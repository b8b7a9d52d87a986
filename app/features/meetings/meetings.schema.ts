/**
 * Schedule-meeting form (docs/product.md#meetings-scheduling, notes optional). The
 * browser sends its IANA time zone in a hidden field (default "UTC" without JavaScript).
 * Parsed by the action; the page gets its browser-side checks from `formConstraints`.
 */
import { z } from "zod";
import { optionalText } from "#app/lib/text-fields";
import { DATE_PATTERN, isCalendarDate, isValidTimeZone, TIME_PATTERN } from "#app/lib/dates";
import { MEETING_NOTES_MAX } from "./meetings.messages";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { MEETING_MESSAGES, MEETING_NOTES_MAX, MEETING_HORIZON_DAYS } from "./meetings.messages";

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
