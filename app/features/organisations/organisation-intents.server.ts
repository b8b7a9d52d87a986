/**
 * The organisation page's forms (docs/product.md#organisations), for the client's `/organisation`
 * and the admin's `/admin/organisations/:organisationId`: one handler per intent, each calling the
 * use-case that checks the actor's rights itself.
 */
import type { Database } from "#app/db/client.server";
import type { Actor } from "#app/features/users/actor";
import {
  conformIntent,
  formId,
  formUserId,
  parseInput,
  requireConfirmation,
  type ConformIntent,
  type IntentHandler,
} from "#app/lib/form-action.server";
import { ORGANISATION_MESSAGES as M } from "./organisations.messages";
import { invitationSchema, memberRoleSchema, organisationDetailsSchema } from "./organisations.schema";
import { changeMemberRole, inviteMember, removeMember, revokeInvitation, updateOrganisation } from "./organisations.server";

/**
 * @param organisationId - for an admin: the organisation of the page (a client's is their current one).
 * @returns the page's intents: `save-details`, `invite`, `revoke` (`id`), `change-role`
 *   (`userId`, `role`), `remove` (`id` = the member's user id, confirmed), `leave` (confirmed).
 */
export function organisationIntents(db: Database, actor: Actor, organisationId?: number): Record<string, IntentHandler | ConformIntent> {
  return {
    "save-details": conformIntent(organisationDetailsSchema, async (value) => {
      await updateOrganisation(db, actor, value, organisationId);
      return M.saved;
    }),
    invite: conformIntent(invitationSchema, async (value) => {
      await inviteMember(db, actor, value, organisationId);
      return `${M.invited} ${value.email} has 7 days to accept it.`;
    }),
    revoke: async (form) => {
      await revokeInvitation(db, actor, formId(form), organisationId);
      return M.revoked;
    },
    "change-role": async (form) => {
      const value = parseInput(memberRoleSchema, { userId: form.get("userId"), role: form.get("role") });
      await changeMemberRole(db, actor, value.userId, value.role, organisationId);
      return M.roleChanged;
    },
    remove: async (form) => {
      requireConfirmation(form, "Confirm the removal first.");
      await removeMember(db, actor, formUserId(form, "id"), organisationId);
      return M.removed;
    },
    leave: async (form) => {
      requireConfirmation(form, "Confirm that you leave first.");
      await removeMember(db, actor, actor.id, organisationId);
      return M.left;
    },
  };
}
