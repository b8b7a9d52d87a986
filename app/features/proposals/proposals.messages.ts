/**
 * User-visible messages and limits of proposals (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

/** User-facing messages (docs/product.md#form-messages, plus our own for what the spec does not cover). */
export const PROPOSAL_MESSAGES = {
  requestSubmitted: "Proposal request submitted successfully.",
  notLoggedIn: "User not logged in",
  notFound: "Proposal not found",
  fetchFailed: "Failed to fetch proposal",
  updateFailed: "Update failed. Try again.",
  updated: "Proposal updated.",
  deleted: "Proposal deleted.",
  revisionsSubmitted: "Revisions submitted.",
  approved: "Proposal approved. Thank you!",
  alreadyApproved: "You had already approved this proposal.",
  declined: "Proposal declined.",
  ambassadorSubmitted: "Proposal submitted successfully!",
  mustLogIn: "You must be logged in.",
  referralMissing: "Your referral link ID is missing.",
  dailyLimit: "You have sent the most proposals allowed in a day (20). Try again tomorrow.",
  requestLimit: "You have sent the most proposal requests allowed in an hour (10). Please try again later.",
  newAddressLimit:
    "You have sent proposals to the most new addresses allowed in a day (5). Try again tomorrow, or send to a client you referred.",
  ownProposal: "You cannot approve or decline a proposal you made yourself.",
} as const;

export const PROPOSAL_LIMITS = { shortText: 200, longText: 5_000, reason: 1_000, pages: 1_000 } as const;

/** Ambassador proposals per ambassador per day (docs/product.md#ambassador-proposals). */
export const AMBASSADOR_DAILY_LIMITS = {
  /** Every proposal. */
  proposals: 20,
  /** Proposals to an address that has no account yet (the company mails a stranger). */
  newAddresses: 5,
  windowMs: 24 * 3600_000,
} as const;
