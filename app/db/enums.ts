/**
 * The fixed value lists of the schema, in a module of their own so that browser code can import
 * them without pulling drizzle-orm into the client bundle (./schema re-exports them).
 */

/** Roles (docs/product.md#roles). */
export const ROLES = ["client", "ambassador", "admin"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Proposal statuses (docs/product.md#proposal-statuses). The admin dropdown offers the first five;
 * `awaiting_acceptance` (#26) is set by sending an offer version and left by its acceptance.
 */
export const PROPOSAL_STATUSES = [
  "pending",
  "planning",
  "in_progress",
  "review",
  "completed",
  "submitted",
  "closed",
  "awaiting_acceptance",
] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const WEBSITE_GOALS = ["Minimal", "Corporate", "Creative"] as const;
export type WebsiteGoal = (typeof WEBSITE_GOALS)[number];

/** `cancelled`: by the client (before the cutoff) or the admin (docs/product.md#meeting-statuses). */
export const MEETING_STATUSES = ["pending", "accepted", "declined", "cancelled"] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** Weekdays of the agency's weekly hours (docs/product.md#availability), Monday first. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** One range of available time on a weekday, wall-clock `HH:MM` in the agency's zone, start < end. */
export type TimeRange = { start: string; end: string };
/** Per weekday, zero or more ranges (sorted, not overlapping). */
export type WeeklyHours = Record<Weekday, TimeRange[]>;

const NINE_TO_FIVE: TimeRange[] = [{ start: "09:00", end: "17:00" }];
/** Monday to Friday 09:00–17:00 (the default of migration 0016). */
export const DEFAULT_WEEKLY_HOURS: WeeklyHours = {
  mon: NINE_TO_FIVE,
  tue: NINE_TO_FIVE,
  wed: NINE_TO_FIVE,
  thu: NINE_TO_FIVE,
  fri: NINE_TO_FIVE,
  sat: [],
  sun: [],
};

/** How a commission payout was sent (docs/product.md#commissions-payouts). */
export const PAYOUT_METHODS = ["bank_transfer", "paypal", "cash", "other"] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** What a commission ledger entry is for (docs/product.md#commissions-ledger). */
export type CommissionEntryKind = "payment" | "refund" | "historical";

/**
 * A person's role in a client organisation (docs/product.md#organisations): `owner` — everything,
 * signing offers and managing people; `billing` — invoices, payments, receipts; `member` —
 * projects, conversations, files, meetings.
 */
export const ORGANISATION_ROLES = ["owner", "billing", "member"] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];
