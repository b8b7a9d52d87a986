/**
 * The booking and rescheduling forms (docs/product.md#meetings-scheduling): one of the free slots
 * (an ISO instant from the list the page showed), the client's time zone, optional notes and
 * project. Parsed by the actions; pages get their browser-side checks from `formConstraints`
 * (docs/architecture.md#forms). Never imports server modules.
 */
import { z } from "zod";
import { isValidTimeZone } from "#app/lib/dates";
import { optionalText } from "#app/lib/text-fields";
import { BOOKING_MESSAGES, MEETING_NOTES_MAX } from "./meetings.messages";

/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { BOOKING_MESSAGES, MEETING_NOTES_MAX } from "./meetings.messages";

/** Booking and rescheduling: a slot (ISO instant) from the list, the viewer's zone, notes, an optional project. */
export const bookingSchema = z.object({
  slot: z
    .string({ error: BOOKING_MESSAGES.pickSlot })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?Z$/, BOOKING_MESSAGES.pickSlot),
  timeZone: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || "UTC")
    .refine(isValidTimeZone, "Unknown time zone. Reload the page and try again."),
  notes: optionalText("Notes", MEETING_NOTES_MAX, { multiline: true }),
  proposalId: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      if (!/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647 || Number(value) < 1) {
        ctx.addIssue({ code: "custom", message: BOOKING_MESSAGES.proposalUnknown });
        return z.NEVER;
      }
      return Number(value);
    }),
});

export type BookingInput = z.infer<typeof bookingSchema>;
