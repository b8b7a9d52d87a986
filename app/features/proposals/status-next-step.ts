/**
 * What happens next with a proposal, in words, next to its status (docs/product.md#project-status):
 * one sentence per state, for the client's project list, the proposal page and the dashboard.
 */
import type { ProposalStatus } from "#app/db/enums";

/** The proposal facts the sentence depends on. */
export interface NextStepFacts {
  status: ProposalStatus;
  source: "client" | "ambassador";
  clientApprovedAt: Date | string | null;
  clientDeclinedAt: Date | string | null;
  /** An offer waits for the client's acceptance (issue #26's offer; false until it exists). */
  offerAwaitingAcceptance?: boolean;
}

/**
 * @returns who acts next and the sentence, e.g. `{ waitsFor: "client", text: "Waiting for your approval." }`.
 */
export function proposalNextStep(p: NextStepFacts): { waitsFor: "client" | "agency" | "nobody"; text: string } {
  if (p.offerAwaitingAcceptance) return { waitsFor: "client", text: "Waiting for your acceptance of the offer." };
  if (p.status === "completed") return { waitsFor: "nobody", text: "Finished: your website is done." };
  if (p.status === "closed") return { waitsFor: "nobody", text: "Closed: nothing more to do." };
  if (p.source === "ambassador" && p.clientDeclinedAt) return { waitsFor: "nobody", text: "You declined this proposal." };
  if (p.source === "ambassador" && !p.clientApprovedAt) return { waitsFor: "client", text: "Waiting for your approval or decline." };
  switch (p.status) {
    case "submitted":
    case "pending":
      return { waitsFor: "agency", text: "The agency is reviewing your request and will answer soon." };
    case "planning":
      return { waitsFor: "agency", text: "The agency is preparing your offer." };
    case "in_progress":
      return { waitsFor: "agency", text: "The agency is building your website." };
    case "awaiting_acceptance":
      return { waitsFor: "client", text: "Waiting for your acceptance of the offer." };
    case "review":
      return { waitsFor: "client", text: "Waiting for your review: look at the work and ask for changes if needed." };
  }
}
