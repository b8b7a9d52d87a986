/**
 * The booking and rescheduling forms (docs/product.md#meetings-scheduling): one of the free slots
 * (an ISO instant from the list the page showed), the client's time zone, optional notes and
 * project. Shared by the browser and the actions; never imports server modules.
 */
import { z } from "zod";
import { isValidTimeZone } from "#app/lib/dates";
import { optionalText } from "#app/lib/text-fields";

export const MEETING_NOTES_MAX = 2_000;

export const BOOKING_MESSAGES = {
  booked: "Meeting requested. We will confirm it soon.",
  rescheduled: "Meeting moved. The agency has been told.",
  cancelled: "Meeting cancelled. The agency has been told.",
  pickSlot: "Choose one of the free times.",
  slotGone: "That time is no longer free: someone booked it a moment ago, or it is too close now. Please choose another time.",
  pastCutoff: "This meeting is too close to change here. Please write to the agency.",
  notChangeable: "Only upcoming pending or accepted meetings can be changed.",
  proposalUnknown: "Choose one of your projects, or none.",
  notFound: "Meeting not found",
} as const;

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
