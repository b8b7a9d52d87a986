/**
 * What a client may do with a proposal in each state (docs/product.md#proposal-statuses).
 * One definition, used by the use-cases (which check it on the locked row before writing)
 * and by the pages (which offer only the allowed actions). Each rule returns null when the
 * action is allowed, else the sentence that explains the refusal.
 */
import type { ProposalStatus } from "#app/db/enums";
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";

/** The statuses an admin may set freely from the dropdown (docs/product.md#proposal-statuses). */
export const ADMIN_PROPOSAL_STATUSES = [
  "pending",
  "planning",
  "in_progress",
  "review",
  "completed",
] as const satisfies readonly ProposalStatus[];
export type AdminProposalStatus = (typeof ADMIN_PROPOSAL_STATUSES)[number];

/** The proposal facts the rules look at. */
export interface ProposalState {
  source: "client" | "ambassador";
  status: ProposalStatus;
  clientApprovedAt: Date | null;
  clientDeclinedAt: Date | null;
}

/** Labels of the statuses as people read them: the vocabulary module's (docs/product.md#status-words). */
export const STATUS_LABELS: Record<ProposalStatus, string> = PROPOSAL_STATUS_LABELS;

/**
 * "Completed projects" of the project-status toggle: `completed`, and `closed` (the
 * commission step after completion).
 */
export const COMPLETED_STATUSES = ["completed", "closed"] as const satisfies readonly ProposalStatus[];

/** @returns true for {@link COMPLETED_STATUSES}. */
export function isCompletedStatus(status: ProposalStatus): boolean {
  return (COMPLETED_STATUSES as readonly ProposalStatus[]).includes(status);
}

function changeRefusal(p: ProposalState, verb: "edited" | "deleted"): string | null {
  if (p.source === "ambassador") return `Proposals made by your ambassador cannot be ${verb}. Approve or decline them instead.`;
  if (p.clientApprovedAt) return `This proposal is approved and can no longer be ${verb}.`;
  if (p.status !== "pending") return `Only pending proposals can be ${verb}. This one is ${STATUS_LABELS[p.status].toLowerCase()}.`;
  return null;
}

/** Edit (docs/product.md#proposals-approval): only while pending and not ambassador-made (an approved one is locked). */
export function editRefusal(p: ProposalState): string | null {
  return changeRefusal(p, "edited");
}

/** Delete (docs/product.md#invoices): as edit, and never once an invoice exists for it. */
export function deleteRefusal(p: ProposalState, hasInvoice: boolean): string | null {
  return changeRefusal(p, "deleted") ?? (hasInvoice ? "This proposal has an invoice and can no longer be deleted." : null);
}

/** Revision comment (docs/product.md#proposals-revision): only while in review. */
export function revisionRefusal(p: ProposalState): string | null {
  if (p.status !== "review") return "Revisions can only be requested while the proposal is in review.";
  return null;
}

/**
 * Approval of an ambassador proposal (docs/product.md#proposals-approval). An already approved proposal is not
 * refused (approving twice changes nothing); the caller checks that first.
 */
export function approvalRefusal(p: ProposalState): string | null {
  if (p.source !== "ambassador") return "Only proposals made by your ambassador need your approval.";
  if (p.clientDeclinedAt) return "You declined this proposal.";
  if (isCompletedStatus(p.status)) return "This proposal is closed.";
  return null;
}

/**
 * Declining (beyond the spec): an ambassador proposal, or an offer the agency sent that waits for the
 * client's acceptance (docs/product.md#accept-and-sign); not once approved.
 */
export function declineRefusal(p: ProposalState): string | null {
  if (p.source !== "ambassador" && p.status !== "awaiting_acceptance") return "Only proposals made by your ambassador can be declined.";
  if (p.clientApprovedAt) return "You have already approved this proposal.";
  if (isCompletedStatus(p.status)) return "This proposal is closed.";
  return null;
}

/** @returns true when the proposal awaits the client's decision (offered on the dashboard). */
export function awaitsApproval(p: ProposalState): boolean {
  return !p.clientApprovedAt && approvalRefusal(p) === null;
}

/** What a client may do with a proposal now: each action offered only where its rule allows it. */
export interface ClientProposalActions {
  edit: boolean;
  delete: boolean;
  revise: boolean;
  approve: boolean;
  decline: boolean;
}

/**
 * @param p - the proposal's state.
 * @param hasInvoice - whether an invoice exists for it (a proposal with one cannot be deleted).
 * @returns the client's allowed actions (the pages offer only these; the use-cases re-check).
 */
export function clientActions(p: ProposalState, hasInvoice: boolean): ClientProposalActions {
  return {
    edit: editRefusal(p) === null,
    delete: deleteRefusal(p, hasInvoice) === null,
    revise: revisionRefusal(p) === null,
    approve: awaitsApproval(p),
    decline: !p.clientDeclinedAt && declineRefusal(p) === null,
  };
}
