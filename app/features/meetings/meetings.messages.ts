/**
 * User-visible messages and limits of meetings (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

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
