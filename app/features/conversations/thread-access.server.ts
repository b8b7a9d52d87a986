/**
 * Who takes part in a proposal's conversation (docs/product.md#conversations): the people of the
 * proposal's organisation whose role covers conversations (owners and members, and billing people
 * an owner added to it — docs/product.md#organisations), ambassador proposals once the person's
 * address is verified, as on the proposal page — and every admin. Anyone else, for any proposal id, gets the
 * same 404 "Proposal not found". Ambassadors never take part: they read the status events of the
 * proposals they submitted through `getStatusEventsForAmbassador`.
 */
import { and, eq, or, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, user, type MessageAuthorRole } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { conversationParticipant } from "#app/features/organisations/access.server";
import { notFound } from "#app/lib/errors";
import { CONVERSATION_MESSAGES } from "./conversations.schema";
import { knownProposalFor } from "#app/features/proposals/proposal-detail.server";

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

/** The side an actor writes for: `client`, or `agency` for an admin. */
export const sideOf = (actor: Actor): MessageAuthorRole => (actor.role === "admin" ? "agency" : "client");

/**
 * The participation check as one unexecuted query, for {@link threadAccess} and for statements
 * that embed it (posting writes a message in the same statement, post-message.server.ts): the
 * proposal's id, project name and client, and the actor's display name (their name, else their e-mail). No row unless the actor takes part.
 *
 * @param proposalId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @param options.lock - lock the proposal row (`FOR SHARE`) so it cannot be deleted meanwhile.
 * @returns the query (columns `id`, `project_name`, `client_id`, `actor_name`), or null for an
 *   ambassador (never a participant).
 */
export function threadAccessQuery(q: Queryable, actor: Actor, proposalId: number, options: { lock?: boolean } = {}) {
  if (actor.role !== "admin" && actor.role !== "client") return null;
  // The proposal page's rule for a client: their own requests; ambassador proposals once their
  // address is verified.
  // A client: a person of the proposal's organisation who takes part in its conversation (owner,
  // member, or a billing person added to it — membership checked here), and ambassador proposals
  // only once their own address is verified.
  const where =
    actor.role === "admin"
      ? eq(proposal.id, proposalId)
      : and(
          eq(proposal.id, proposalId),
          conversationParticipant(proposal.id, proposal.organisationId, actor),
          or(eq(proposal.source, "client"), eq(user.emailVerified, true)),
        );
  // The person who writes is named (docs/product.md#organisations): their name, else their e-mail.
  const name = sql`nullif(${user.name}, '')`;
  const query = q
    .select({
      id: proposal.id,
      projectName: proposal.projectName,
      clientId: proposal.clientId,
      actorName: sql<string>`coalesce(${name}, ${actor.email}::text)`.as("actor_name"),
    })
    .from(proposal)
    .innerJoin(user, eq(user.id, actor.id))
    .where(where);
  return options.lock ? query.for("share", { of: proposal }) : query;
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
  // A proposal this request already read as the actor (its page reads it first) is one whose
  // conversation they take part in (an admin: any; a client: visibleToClient's ⊆ participants'): no
  // third read of the proposal (issue #42). Never for a lock, which must be taken by the statement.
  const known = options.lock ? undefined : await knownProposalFor(q, actor, proposalId)?.catch(() => undefined);
  if (known) {
    return {
      proposalId: known.p.id,
      label: known.p.projectName || `Proposal #${known.p.id}`,
      clientId: known.p.clientId,
      side: sideOf(actor),
      actorName: known.actorName,
    };
  }
  const query = threadAccessQuery(q, actor, proposalId, options);
  const [row] = query ? await query : [];
  if (!row) throw notFound(CONVERSATION_MESSAGES.notFound);
  return {
    proposalId: row.id,
    label: row.projectName || `Proposal #${row.id}`,
    clientId: row.clientId,
    side: sideOf(actor),
    actorName: row.actorName,
  };
}
