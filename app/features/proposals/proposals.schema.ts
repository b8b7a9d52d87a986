/**
 * Proposal forms (docs/product.md#proposals-request, Ambassador proposal, Revision comment, Edit
 * proposal) and the messages of docs/product.md#proposals) and the actions;
 * never imports server modules.
 */
import { z } from "zod";
import { WEBSITE_GOALS } from "#app/db/enums";
import { optionalText, optionalUrl, optionalWholeNumber, requiredEmail, requiredText } from "#app/lib/text-fields";
import { parseMoneyToCents } from "#app/lib/money";

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
  /** The one answer for every refused address (docs/product.md#ambassador-proposals): it never says why. */
  addressRefused:
    "You can't send a proposal to this address. Use the e-mail of a client who registered through your link, or of someone new.",
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

/**
 * A money amount as people type it ("$5,000", "5000.50") → integer cents, or null when
 * empty. An unparsable amount is a field error with money.ts's message.
 */
export const moneyField = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseMoneyToCents(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

/** Fields a client fills in to request or edit a proposal (docs/product.md#proposals). */
export const proposalRequestSchema = z.object({
  projectName: optionalText("Project name", PROPOSAL_LIMITS.shortText),
  projectDetails: requiredText("Project details", PROPOSAL_LIMITS.longText, { multiline: true }),
  timeline: optionalText("Timeline", PROPOSAL_LIMITS.shortText),
  budget: moneyField,
  targetAudience: optionalText("Target audience", PROPOSAL_LIMITS.longText, { multiline: true }),
  designInspiration: optionalUrl("Design inspiration"),
  numberOfPages: optionalWholeNumber("Number of pages", { min: 1, max: PROPOSAL_LIMITS.pages }),
  websiteGoal: z
    .enum(WEBSITE_GOALS, { error: `Choose ${WEBSITE_GOALS.join(", ")}.` })
    .optional()
    .transform((value) => value ?? null),
});
export type ProposalRequestInput = z.infer<typeof proposalRequestSchema>;

/** Edit proposal (docs/product.md#proposals-editing): the same fields as the request. */
export const editProposalSchema = proposalRequestSchema;

/** Ambassador proposal (docs/product.md#ambassador-proposals): client name, e-mail and project details required. */
export const ambassadorProposalSchema = z.object({
  clientName: requiredText("Client name", PROPOSAL_LIMITS.shortText),
  clientEmail: requiredEmail("Client email is required."),
  projectName: optionalText("Project name", PROPOSAL_LIMITS.shortText),
  projectDetails: requiredText("Project details", PROPOSAL_LIMITS.longText, { multiline: true }),
  budget: moneyField,
  /** Set to "1" by the browser once JavaScript runs: the action then answers instead of redirecting. */
  enhanced: z.string().optional(),
});
export type AmbassadorProposalInput = z.infer<typeof ambassadorProposalSchema>;

/** Revision comment (docs/product.md#proposals-revision): non-empty after trimming. */
export const revisionSchema = z.object({
  comment: requiredText("Revision comment", PROPOSAL_LIMITS.longText, {
    multiline: true,
    message: "Describe the revisions you would like.",
  }),
});

/** Declining an ambassador proposal (beyond the spec): a reason is required. */
export const declineSchema = z.object({
  reason: requiredText("Reason", PROPOSAL_LIMITS.reason, { multiline: true, message: "Tell us why you are declining." }),
});
