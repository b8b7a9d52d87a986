/**
 * Proposal forms (docs/product.md#proposals-request, Ambassador proposal, Revision comment, Edit
 * proposal) and the messages of docs/product.md#proposals) and the actions;
 * never imports server modules.
 */
import { z } from "zod";
import { WEBSITE_GOALS } from "#app/db/enums";
import { optionalText, optionalUrl, optionalWholeNumber, requiredEmail, requiredText } from "#app/lib/text-fields";
import { parseMoneyToCents } from "#app/lib/money";
import { PROPOSAL_LIMITS } from "./proposals.messages";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { PROPOSAL_MESSAGES, PROPOSAL_LIMITS, AMBASSADOR_DAILY_LIMITS } from "./proposals.messages";

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
