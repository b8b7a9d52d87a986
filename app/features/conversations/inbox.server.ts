/**
 * The admin's conversation inbox `/admin/conversations` (docs/product.md#conversations-inbox): every
 * conversation with messages, those with unread client messages first, then by newest activity;
 * searchable by client (name, business, e-mail) or project; keyset-paginated like the other admin
 * lists (ADR 005). The unread-first order is one sort key: the last activity, moved 1,000 years
 * ahead while the conversation has a client message after the admin's read position.
 */
import { and, count, eq, ilike, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "#app/db/client.server";
import { proposal, proposalMessage, proposalRead, proposalThread, user } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { containsPattern, cursorKeySql, keysetPage, SEARCH_COUNT_CAP, type Page, type PageRequest } from "#app/lib/pagination";
import { unreadByProposal } from "./unread.server";

/** Characters of the latest message shown in a row. */
export const INBOX_PREVIEW_LENGTH = 140;

/** One conversation in the inbox. Instants are ISO strings (UTC). */
export interface InboxRow {
  id: number;
  projectName: string;
  clientName: string | null;
  clientEmail: string | null;
  lastActivityAt: string;
  /** The latest message: who, and its start (empty when deleted). */
  lastAuthor: string;
  preview: string;
  lastInternal: boolean;
  unread: number;
}

const client = alias(user, "inbox_client");
const lastMessage = alias(proposalMessage, "inbox_last");

/**
 * One page of the inbox.
 *
 * @param filters.q - a case-insensitive substring of the client's name, business, e-mail or the project name.
 * @throws {AppError} 403 unless an admin.
 */
export async function listConversations(q: Queryable, actor: Actor, filters: { q?: string }, page: PageRequest): Promise<Page<InboxRow>> {
  assertRole(actor, "admin");
  const read = alias(proposalRead, "inbox_read");
  const priority = sql`(case when ${proposalThread.lastClientMessageId} > coalesce(${read.lastReadMessageId}, 0) then ${proposalThread.lastActivityAt} + interval '1000 years' else ${proposalThread.lastActivityAt} end)`;
  const order = { sort: priority as unknown as AnyColumn, id: proposalThread.proposalId as AnyColumn };
  let where: SQL | undefined;
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    where = or(
      ilike(proposal.projectName, pattern),
      ilike(proposal.clientName, pattern),
      ilike(proposal.clientEmail, pattern),
      ilike(client.businessName, pattern),
      ilike(client.name, pattern),
      ilike(client.email, pattern),
    );
  }
  const joins = {
    proposal: eq(proposal.id, proposalThread.proposalId),
    client: eq(client.id, proposal.clientId),
    read: and(eq(read.proposalId, proposalThread.proposalId), eq(read.userId, actor.id)),
  };
  const [{ n }] = (await q
    .select({ n: count() })
    .from(proposalThread)
    .innerJoin(proposal, joins.proposal)
    .leftJoin(client, joins.client)
    .where(where)) as [{ n: number }];
  const result = await keysetPage(
    q,
    { order, request: page, table: proposalThread, where, total: filters.q ? Math.min(n, SEARCH_COUNT_CAP) : n },
    (keyset) =>
      q
        .select({
          id: proposalThread.proposalId,
          cursorKey: cursorKeySql(order),
          projectName: sql<string>`coalesce(nullif(${proposal.projectName}, ''), 'Proposal #' || ${proposal.id})`,
          clientName: sql<string | null>`coalesce(${client.businessName}, ${client.name}, ${proposal.clientName})`,
          clientEmail: sql<string | null>`coalesce(${client.email}, ${proposal.clientEmail})`,
          lastActivityAt: proposalThread.lastActivityAt,
          lastAuthor: lastMessage.authorName,
          preview: sql<string>`left(${lastMessage.body}, ${INBOX_PREVIEW_LENGTH + 1})`,
          lastVisibility: lastMessage.visibility,
        })
        .from(proposalThread)
        .innerJoin(proposal, joins.proposal)
        .leftJoin(client, joins.client)
        .leftJoin(read, joins.read)
        .leftJoin(lastMessage, eq(lastMessage.id, proposalThread.lastMessageId))
        .where(keyset.where)
        .orderBy(...keyset.orderBy)
        .limit(keyset.limit),
  );
  const unread = await unreadByProposal(
    q,
    actor,
    result.items.map((row) => row.id),
  );
  return {
    ...result,
    totalIsLowerBound: Boolean(filters.q) && n > SEARCH_COUNT_CAP,
    items: result.items.map(({ lastVisibility, preview, lastAuthor, lastActivityAt, ...row }) => ({
      ...row,
      lastActivityAt: lastActivityAt.toISOString(),
      lastAuthor: lastAuthor ?? "",
      preview: previewOf(preview ?? ""),
      lastInternal: lastVisibility === "internal",
      unread: unread[row.id] ?? 0,
    })),
  };
}

function previewOf(text: string): string {
  const folded = text.replace(/\s+/g, " ").trim();
  return folded.length > INBOX_PREVIEW_LENGTH ? `${folded.slice(0, INBOX_PREVIEW_LENGTH - 1)}…` : folded;
}
