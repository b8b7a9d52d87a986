/**
 * Admin proposal forms and labels (docs/product.md#proposal-statuses). Shared by
 * the loaders and actions (not the browser: docs/architecture.md#forms); imports nothing server-only.
 */
import { z } from "zod";
import { PROPOSAL_STATUSES, type ProposalStatus } from "#app/db/enums";
import { idSchema } from "#app/lib/text-fields";
import { normalizeSearch } from "#app/lib/pagination";

/** Re-exported for server code; pages import `proposal-rules.ts` (no zod in the browser). */
export { ADMIN_PROPOSAL_STATUSES, type AdminProposalStatus } from "./proposal-rules";
import { ADMIN_PROPOSAL_STATUSES } from "./proposal-rules";

/** Human labels of every proposal status: the vocabulary module's (docs/product.md#status-words). */
export { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";

/** `?status=` of the admin list: any stored status, or all. */
export const proposalStatusFilter = z.enum(PROPOSAL_STATUSES).optional().catch(undefined);

/**
 * The admin proposal list's filters from its URL (`?status=`, `?q=`), shared by the page and
 * its CSV export.
 */
export function proposalListFiltersFrom(params: URLSearchParams): { status?: ProposalStatus; q?: string } {
  return { status: proposalStatusFilter.parse(params.get("status") || undefined), q: normalizeSearch(params.get("q")) };
}

/** The per-row status form (intent `set-status`). */
export const setStatusSchema = z.object({
  intent: z.literal("set-status"),
  proposalId: idSchema,
  status: z.enum(ADMIN_PROPOSAL_STATUSES, {
    error: "That status does not exist. Pick Pending, Planning, In progress, Review or Completed from the list, then save.",
  }),
});
