/**
 * User-visible messages and limits of meetings (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

export const MEETING_NOTES_MAX = 2_000;

export const BOOKING_MESSAGES = {
  booked: "Meeting requested. We will confirm it soon.",
  /** Settings "Confirm bookings at once" (issue #41). */
  bookedConfirmed: "Meeting booked and confirmed. The calendar invite is on its way by e-mail.",
  rescheduled: "Meeting moved. The agency has been told.",
  cancelled: "Meeting cancelled. The agency has been told.",
  pickSlot: "Choose one of the free times.",
  slotGone: "That time is no longer free: someone booked it a moment ago, or it is too close now. Please choose another time.",
  pastCutoff: "This meeting is too close to change here. Please write to the agency.",
  notChangeable: "Only upcoming pending or accepted meetings can be changed.",
  proposalUnknown: "Choose one of your projects, or none.",
  notFound: "Meeting not found",
} as const;
