/**
 * The admin's status change and its Undo as form intents (docs/product.md#proposals-admin-status),
 * shared by the proposal list and the proposal page so that both answer the same way.
 */
import type { Database } from "#app/db/client.server";
import type { Actor } from "#app/features/users/actor";
import { formId, parseInput, type IntentHandler } from "#app/lib/form-action.server";
import { PROPOSAL_STATUS_LABELS, setStatusSchema } from "./proposals.admin.schema";
import { setProposalStatus, undoProposalStatus } from "./proposals.admin.server";

/**
 * @returns the `set-status` (fields `proposalId`, `status`; answered with an Undo offer) and
 *   `undo-status` (field `eventId`) intent handlers for `runIntent`, acting as `actor`.
 */
export function proposalStatusIntents(db: Database, actor: Actor): Record<"set-status" | "undo-status", IntentHandler> {
  return {
    "set-status": async (form) => {
      const { proposalId, status } = parseInput(setStatusSchema, Object.fromEntries(form));
      const result = await setProposalStatus(db, actor, proposalId, status);
      const name = projectLabel(result);
      if (!result.changed) return `${name} is already “${PROPOSAL_STATUS_LABELS[status]}”. Nothing changed.`;
      return {
        message: `${name} is now “${PROPOSAL_STATUS_LABELS[status]}” (was “${PROPOSAL_STATUS_LABELS[result.previous]}”).`,
        undo: { intent: "undo-status", fields: { eventId: String(result.eventId) } },
      };
    },
    "undo-status": async (form) => {
      const result = await undoProposalStatus(db, actor, formId(form, "eventId"));
      return `Undone: ${projectLabel(result)} is back to “${PROPOSAL_STATUS_LABELS[result.status]}”.`;
    },
  };
}

/** The project as confirmations name it: “Bakery site”, or "Proposal #12" when it has no name. */
function projectLabel(p: { id: number; projectName: string | null }): string {
  return p.projectName ? `“${p.projectName}”` : `Proposal #${p.id}`;
}
