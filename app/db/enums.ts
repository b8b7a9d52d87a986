/**
 * The fixed value lists of the schema, in a module of their own so that browser code can import
 * them without pulling drizzle-orm into the client bundle (./schema re-exports them).
 */

/** Roles (docs/product.md#roles). */
export const ROLES = ["client", "ambassador", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Proposal statuses (docs/product.md#proposal-statuses). The admin dropdown offers the first five. */
export const PROPOSAL_STATUSES = ["pending", "planning", "in_progress", "review", "completed", "submitted", "closed"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const WEBSITE_GOALS = ["Minimal", "Corporate", "Creative"] as const;
export type WebsiteGoal = (typeof WEBSITE_GOALS)[number];

export const MEETING_STATUSES = ["pending", "accepted", "declined"] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];
