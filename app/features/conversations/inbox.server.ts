/**
 * The admin's conversation inbox `/admin/conversations` (docs/product.md#conversations-inbox): every
 * conversation with messages, those with unread client messages first, then by newest activity;
 * searchable by client (name, business, e-mail) or project; keyset-paginated like the other admin
 * lists (ADR 005). The unread-first order is one sort key: the last activity, moved 1,000 years
 * ahead while the conversation has a client message after the admin's read position — kept per
 * (admin, conversation) in `inbox_entry` by triggers (drizzle/0024_inbox_sort.sql), so no request
 * sorts the agency's conversations (issue #30).
 */
import { and, count, eq, ilike, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "#app/db/client.server";
import { inboxEntry, proposal, proposalMessage, proposalThread, user } from "#app/db/schema";
import { readTally, tallyCount } from "#app/db/tally.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import {
  containsPattern,
  cursorKeySql,
  keysetPage,
  matchingIdsCondition,
  SEARCH_COUNT_CAP,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";
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
 * One page of the inbox, read from the admin's `inbox_entry` rows (the kept sort key, migration
 * 0024): the first page is an index range on `(user_id, inbox_sort desc, proposal_id desc)` plus
 * primary-key lookups, and the unsearched total is the "conversation" tally (issue #30).
 *
 * @param filters.q - a case-insensitive substring of the client's name, business, e-mail or the project name.
 * @throws {AppError} 403 unless an admin.
 */
export async function listConversations(q: Queryable, actor: Actor, filters: { q?: string }, page: PageRequest): Promise<Page<InboxRow>> {
  assertRole(actor, "admin");
  const order = { sort: inboxEntry.inboxSort as AnyColumn, id: inboxEntry.proposalId as AnyColumn };
  let search: SQL | undefined;
  if (filters.q) {
    // The client account's fields through the matching user ids (ADR 005), so the planner can OR
    // the proposal's trigram indexes with its client index instead of filtering every conversation.
    const pattern = containsPattern(filters.q);
    const ofMatchingClients = await matchingIdsCondition(proposal.clientId, () =>
      q
        .select({ id: user.id })
        .from(user)
        .where(or(ilike(user.email, pattern), ilike(user.businessName, pattern), ilike(user.name, pattern))),
    );
    search = or(
      ilike(proposal.projectName, pattern),
      ilike(proposal.clientName, pattern),
      ilike(proposal.clientEmail, pattern),
      ofMatchingClients,
    );
  }
  const joins = {
    thread: eq(proposalThread.proposalId, inboxEntry.proposalId),
    proposal: eq(proposal.id, inboxEntry.proposalId),
    client: eq(client.id, proposal.clientId),
  };
  const where = and(eq(inboxEntry.userId, actor.id), search);
  let total: number;
  let capped = false;
  if (search) {
    // Counted up to the cap, like the other searched lists (ADR 005).
    const matching = q
      .select({ one: sql`1`.as("one") })
      .from(proposalThread)
      .innerJoin(proposal, eq(proposal.id, proposalThread.proposalId))
      .where(search)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matching");
    const [{ n }] = (await q.select({ n: count() }).from(matching)) as [{ n: number }];
    total = Math.min(n, SEARCH_COUNT_CAP);
    capped = n > SEARCH_COUNT_CAP;
  } else {
    total = tallyCount(await readTally(q, "conversation"));
  }
  const result = await keysetPage(q, { order, request: page, table: inboxEntry, where, total }, (keyset) =>
    q
      .select({
        id: inboxEntry.proposalId,
        cursorKey: cursorKeySql(order),
        projectName: sql<string>`coalesce(nullif(${proposal.projectName}, ''), 'Proposal #' || ${proposal.id})`,
        clientName: sql<string | null>`coalesce(${client.businessName}, ${client.name}, ${proposal.clientName})`,
        clientEmail: sql<string | null>`coalesce(${client.email}, ${proposal.clientEmail})`,
        lastActivityAt: proposalThread.lastActivityAt,
        lastAuthor: lastMessage.authorName,
        preview: sql<string>`left(${lastMessage.body}, ${INBOX_PREVIEW_LENGTH + 1})`,
        lastVisibility: lastMessage.visibility,
      })
      .from(inboxEntry)
      .innerJoin(proposalThread, joins.thread)
      .innerJoin(proposal, joins.proposal)
      .leftJoin(client, joins.client)
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
    totalIsLowerBound: capped,
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
