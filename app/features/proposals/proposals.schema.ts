/**
 * Proposal forms (spec §5 Proposal request, Ambassador proposal, Revision comment, Edit
 * proposal) and the messages of spec §8. Shared by the browser (conform) and the actions;
 * never imports server modules.
 */
import { z } from "zod";
import { WEBSITE_GOALS } from "#app/db/schema";
import { optionalUrl } from "#app/features/users/accounts.schema";
import { parseMoneyToCents } from "#app/lib/money";

/** User-facing messages (spec §8, plus our own for what the spec does not cover). */
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
  notClientEmail: "This email belongs to an ambassador or admin account, not a client.",
} as const;

export const PROPOSAL_LIMITS = { shortText: 200, longText: 5_000, reason: 1_000, pages: 1_000 } as const;

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`)
    .optional()
    .transform((value) => value || null);

const requiredText = (label: string, max: number, message = `${label} is required.`) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`);

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

/** Fields a client fills in to request or edit a proposal (spec §3 proposals, §5). */
export const proposalRequestSchema = z.object({
  projectName: optionalText("Project name", PROPOSAL_LIMITS.shortText),
  projectDetails: requiredText("Project details", PROPOSAL_LIMITS.longText),
  timeline: optionalText("Timeline", PROPOSAL_LIMITS.shortText),
  budget: moneyField,
  targetAudience: optionalText("Target audience", PROPOSAL_LIMITS.longText),
  designInspiration: optionalUrl("Design inspiration").transform((value) => value ?? null),
  numberOfPages: z
    .number({ error: "Enter a whole number of pages." })
    .int("Enter a whole number of pages.")
    .min(1, "Enter at least 1 page.")
    .max(PROPOSAL_LIMITS.pages, `Enter at most ${PROPOSAL_LIMITS.pages} pages.`)
    .optional()
    .transform((value) => value ?? null),
  websiteGoal: z
    .enum(WEBSITE_GOALS, { error: `Choose ${WEBSITE_GOALS.join(", ")}.` })
    .optional()
    .transform((value) => value ?? null),
});
export type ProposalRequestInput = z.infer<typeof proposalRequestSchema>;

/** Edit proposal (spec §5): the same fields as the request. */
export const editProposalSchema = proposalRequestSchema;

/** Ambassador proposal (spec §5): client name, e-mail and project details required. */
export const ambassadorProposalSchema = z.object({
  clientName: requiredText("Client name", PROPOSAL_LIMITS.shortText),
  clientEmail: z
    .string({ error: "Client email is required." })
    .trim()
    .min(1, { error: "Client email is required.", abort: true })
    .max(254, "Email must be at most 254 characters.")
    .pipe(z.email("Enter a valid email address."))
    .transform((value) => value.toLowerCase()),
  projectName: optionalText("Project name", PROPOSAL_LIMITS.shortText),
  projectDetails: requiredText("Project details", PROPOSAL_LIMITS.longText),
  budget: moneyField,
  /** Set to "1" by the browser once JavaScript runs: the action then answers instead of redirecting. */
  enhanced: z.string().optional(),
});
export type AmbassadorProposalInput = z.infer<typeof ambassadorProposalSchema>;

/** Revision comment (spec §5): non-empty after trimming. */
export const revisionSchema = z.object({
  comment: requiredText("Revision comment", PROPOSAL_LIMITS.longText, "Describe the revisions you would like."),
});

/** Declining an ambassador proposal (beyond the spec): a reason is required. */
export const declineSchema = z.object({
  reason: requiredText("Reason", PROPOSAL_LIMITS.reason, "Tell us why you are declining."),
});
