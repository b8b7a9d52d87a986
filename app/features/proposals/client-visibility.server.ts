/**
 * Which proposals a client may see (docs/product.md#client-portal): all their own requests, and an
 * ambassador's proposals addressed to them once their e-mail address is verified. Shared by the
 * client's lists, the proposal and agreement pages and the conversations.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, user } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";

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

/** The client's proposals they may see: all their own requests, ambassador ones once verified. */
export function visibleToClient(actor: Actor, verified: boolean): SQL {
  return verified ? eq(proposal.clientId, actor.id) : and(eq(proposal.clientId, actor.id), eq(proposal.source, "client"))!;
}
