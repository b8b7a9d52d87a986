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
      if (!result.changed) return `Proposal #${proposalId} is already “${PROPOSAL_STATUS_LABELS[status]}”. Nothing changed.`;
      return {
        message: `Proposal #${proposalId} is now “${PROPOSAL_STATUS_LABELS[status]}” (was “${PROPOSAL_STATUS_LABELS[result.previous]}”).`,
        undo: { intent: "undo-status", fields: { eventId: String(result.eventId) } },
      };
    },
    "undo-status": async (form) => {
      const { id, status } = await undoProposalStatus(db, actor, formId(form, "eventId"));
      return `Undone: proposal #${id} is back to “${PROPOSAL_STATUS_LABELS[status]}”.`;
    },
  };
}
