/**
 * The client dashboard's "Conversations" card (docs/product.md#conversations-read): the client's
 * proposals, latest activity first, each with its unread count.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposal, proposalThread } from "#app/db/schema";
import { conversationsOfClient, emailVerified } from "#app/features/proposals/client-visibility.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { unreadOfProposalSql } from "./unread.server";

/** One conversation of the client. */
export interface ClientConversationRow {
  id: number;
  projectName: string;
  /** ISO instant (UTC) of the latest message, or null when nobody wrote yet. */
  lastActivityAt: string | null;
  unread: number;
}

/**
 * @param limit - rows shown (the most recently active first).
 * @throws {AppError} 403 unless a client.
 */
export async function listClientConversations(q: Queryable, actor: Actor, limit = 10): Promise<ClientConversationRow[]> {
  assertRole(actor, "client");
  const rows = await q
    .select({
      id: proposal.id,
      projectName: sql<string>`coalesce(nullif(${proposal.projectName}, ''), 'Proposal #' || ${proposal.id})`,
      lastActivityAt: proposalThread.lastActivityAt,
      // Each row's unread count in the same statement (issue #42: one statement for the card).
      unread: unreadOfProposalSql(actor, sql`"proposal"."id"`).mapWith(Number),
    })
    .from(proposal)
    .leftJoin(proposalThread, eq(proposalThread.proposalId, proposal.id))
    .where(conversationsOfClient(actor, await emailVerified(q, actor)))
    .orderBy(desc(sql`coalesce(${proposalThread.lastActivityAt}, ${proposal.createdAt})`), desc(proposal.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, lastActivityAt: r.lastActivityAt?.toISOString() ?? null }));
}
