/**
 * Who takes part in a proposal's conversation (docs/product.md#conversations): the proposal's
 * client — their own requests, and ambassador proposals addressed to them once their address is
 * verified, as on the proposal page — and every admin. Anyone else, for any proposal id, gets the
 * same 404 "Proposal not found". Ambassadors never take part: they read the status events of the
 * proposals they submitted through `getStatusEventsForAmbassador`.
 */
import { and, eq, or } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, user, type MessageAuthorRole } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { CONVERSATION_MESSAGES } from "./conversations.schema";

/** A participant's view of one conversation. */
export interface ThreadAccess {
  proposalId: number;
  /** The proposal's name in titles and mails ("Proposal #12" when it has none). */
  label: string;
  clientId: string | null;
  /** The side the actor writes for: `client`, or `agency` for an admin. */
  side: MessageAuthorRole;
  /** The actor's display name, kept on their messages and files. */
  actorName: string;
}

/**
 * @param proposalId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @param options.lock - lock the proposal row (`FOR SHARE`) so it cannot be deleted meanwhile.
 * @returns the actor's view of the conversation.
 * @throws {AppError} 404 "Proposal not found" unless the actor is an admin or the proposal's client.
 */
export async function threadAccess(
  q: Queryable,
  actor: Actor,
  proposalId: number,
  options: { lock?: boolean } = {},
): Promise<ThreadAccess> {
  if (actor.role !== "admin" && actor.role !== "client") throw notFound(CONVERSATION_MESSAGES.notFound);
  // One query: the proposal, the actor's name and, for a client, the proposal page's rule
  // (their own requests; ambassador proposals once their address is verified).
  const where =
    actor.role === "admin"
      ? eq(proposal.id, proposalId)
      : and(eq(proposal.id, proposalId), eq(proposal.clientId, actor.id), or(eq(proposal.source, "client"), eq(user.emailVerified, true)));
  const query = q
    .select({
      id: proposal.id,
      projectName: proposal.projectName,
      clientId: proposal.clientId,
      name: user.name,
      businessName: user.businessName,
    })
    .from(proposal)
    .innerJoin(user, eq(user.id, actor.id))
    .where(where);
  const [row] = options.lock ? await query.for("share", { of: proposal }) : await query;
  if (!row) throw notFound(CONVERSATION_MESSAGES.notFound);
  return {
    proposalId: row.id,
    label: row.projectName || `Proposal #${row.id}`,
    clientId: row.clientId,
    side: actor.role === "admin" ? "agency" : "client",
    actorName: (actor.role === "client" ? row.businessName || row.name : row.name) || actor.email,
  };
}
