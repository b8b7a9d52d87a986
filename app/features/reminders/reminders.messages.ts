/**
 * User-visible messages and limits of automatic reminders (docs/product.md#reminders), in a module of
 * their own so that pages import them without the schemas (no zod in the browser, ADR 010).
 */

/** Limits of the step lists. */
export const REMINDER_DAY_LIMITS = {
  invoice: { min: -60, max: 365 },
  proposal: { min: 1, max: 365 },
  /** Entries per list. */
  count: 10,
} as const;

/** The default step lists, as the settings form shows them. */
export const DEFAULT_REMINDER_DAYS = { invoice: "-3, 0, 7, 14", proposal: "3, 7" } as const;

export const REMINDER_MESSAGES = {
  saved: "✅ Reminder settings saved.",
  failed: "❌ Failed to save the reminder settings.",
  invoiceDaysFormat: "Write the days as whole numbers separated by commas, e.g. -3, 0, 7, 14 (negative: before the due date).",
  invoiceDaysRange: `Each day must be between ${REMINDER_DAY_LIMITS.invoice.min} and ${REMINDER_DAY_LIMITS.invoice.max}.`,
  proposalDaysFormat: "Write the days as whole numbers separated by commas, e.g. 3, 7.",
  proposalDaysRange: `Each day must be between ${REMINDER_DAY_LIMITS.proposal.min} and ${REMINDER_DAY_LIMITS.proposal.max}.`,
  daysCount: `At most ${REMINDER_DAY_LIMITS.count} days.`,
  daysDuplicate: "Each day may appear only once.",
  daysRequired: "Enter at least one day, or turn these reminders off.",
  // "Send reminder now" (docs/product.md#reminders-admin).
  sentNow: "Reminder sent.",
  /** Followed by "Try again in N minutes." (`rateLimitedFor`). */
  tooSoon: "A reminder for this record went out less than an hour ago.",
  moot: {
    invoice: "This invoice has no balance due: no reminder is sent.",
    proposal: "This proposal no longer waits for the client: no reminder is sent.",
    meeting: "This meeting is not an upcoming confirmed meeting: no reminder is sent.",
  },
  noRecipient: "The client is paused, deactivated or has turned reminders off: no reminder is sent.",
  notFound: "Not found",
  paused: (email: string) => `Reminders are paused for ${email}.`,
  resumed: (email: string) => `Reminders are on again for ${email}.`,
} as const;

/** The reminder kinds' labels, as the admin's history shows them. */
export const REMINDER_KIND_LABELS: Record<string, string> = {
  "invoice-due": "Payment reminder",
  "proposal-waiting": "Proposal reminder",
  "meeting-24h": "Meeting reminder (24 h before)",
  "admin-digest": "Daily digest",
  manual: "Sent now by an admin",
};
