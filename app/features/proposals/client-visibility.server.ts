/**
 * Which proposals a client may see (docs/product.md#client-portal): all their own requests, and an
 * ambassador's proposals addressed to them once their e-mail address is verified. Shared by the
 * client's lists, the proposal and agreement pages and the conversations.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, user } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";

/** @returns whether the user's e-mail address is verified (false for an unknown id). */
export async function emailVerified(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await q.select({ verified: user.emailVerified }).from(user).where(eq(user.id, userId));
  return row?.verified === true;
}

/** The client's proposals they may see: all their own requests, ambassador ones once verified. */
export function visibleToClient(actor: Actor, verified: boolean): SQL {
  return verified ? eq(proposal.clientId, actor.id) : and(eq(proposal.clientId, actor.id), eq(proposal.source, "client"))!;
}
