/**
 * Which proposals a client may see (docs/product.md#client-portal): their organisation's requests,
 * and an ambassador's proposals addressed to it once the person's e-mail address is verified. Shared by the
 * client's lists, the proposal and agreement pages and the conversations.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, user } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { conversationParticipant, inOrganisation, PROJECT_ROLES } from "#app/features/organisations/access.server";

/**
 * @returns whether the actor's e-mail address is verified: the actor's own `emailVerified` when it
 *   carries one (the session read the user row this request, so no second statement), else read
 *   from the user row (false for an unknown id).
 */
export async function emailVerified(q: Queryable, actor: Actor): Promise<boolean> {
  if (typeof actor.emailVerified === "boolean") return actor.emailVerified;
  const [row] = await q.select({ verified: user.emailVerified }).from(user).where(eq(user.id, actor.id));
  return row?.verified === true;
}

/**
 * The proposals a client may see: those of their current organisation when their role there
 * covers projects (owner, member — docs/product.md#organisations), membership checked in the
 * statement; ambassador proposals only once the person's own address is verified.
 */
export function visibleToClient(actor: Actor, verified: boolean): SQL {
  const inOrg = inOrganisation(proposal.organisationId, actor, PROJECT_ROLES);
  return verified ? inOrg : and(inOrg, eq(proposal.source, "client"))!;
}

/**
 * The proposals whose conversation a client takes part in: {@link visibleToClient}'s, and for a
 * billing person those an owner added them to (ADR 022, `conversationParticipant`). The messages
 * list and the unread count read this.
 */
export function conversationsOfClient(actor: Actor, verified: boolean): SQL {
  const participant = conversationParticipant(proposal.id, proposal.organisationId, actor);
  return verified ? participant : and(participant, eq(proposal.source, "client"))!;
}
