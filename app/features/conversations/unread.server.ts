/**
 * Unread counts (docs/product.md#conversations-read): what a participant has not read yet —
 * for a client the agency's shared messages, for an admin the client's messages — after their read
 * position, deleted messages excepted. Each count is an index range per conversation
 * (`proposal_message_unread_by_*_idx`); the admin's total starts from the admin's `inbox_entry`
 * rows (migration 0024) whose sort key is in the unread range, so it reads only conversations
 * with a client message after the admin's position.
 */
import { rowsOf } from "#app/db/rows";
import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { memoRead } from "#app/db/request-memo.server";
import { proposal } from "#app/db/schema";
import { conversationsOfClient, emailVerified } from "#app/features/proposals/client-visibility.server";
import type { Actor } from "#app/features/users/actor";
import { SHOWN_COUNT_MAX } from "#app/lib/vocabulary";

/** The unread condition for `m` (proposal_message) read by `actor`, with `r` their read row. */
function unreadBy(actor: Actor): SQL {
  return actor.role === "admin"
    ? sql`m.author_role = 'client' and m.deleted_at is null`
    : sql`m.author_role = 'agency' and m.visibility = 'shared' and m.deleted_at is null`;
}

/** The most a badge counts: one past what it shows ("99+" from here on), so counting further is wasted work. */
export const UNREAD_CAP = SHOWN_COUNT_MAX + 1;

/**
 * The header badge: unread messages over all the actor's conversations, counted up to
 * {@link UNREAD_CAP} (issue #30: an admin who has not read the agency's thousands of conversations
 * must not make every admin page sum them all).
 *
 * Counted once per request on a request view of the database (the layout's badge and the
 * dashboard's next steps share it, app/db/request-memo.server.ts).
 *
 * @returns 0 for an ambassador (no conversations); at most {@link UNREAD_CAP}.
 */
export function countUnread(q: Queryable, actor: Actor): Promise<number> {
  return memoRead(q, `unread:${actor.id}`, () => countUnreadNow(q, actor));
}

async function countUnreadNow(q: Queryable, actor: Actor): Promise<number> {
  if (actor.role === "admin") {
    // An unread conversation's inbox_sort is its last activity + 1,000 years (inbox_sort_of), a
    // read one's is its last activity: 500 years from now separates them for any real activity.
    const rows = await q.execute<{ n: string }>(sql`
      select count(*)::int as n from (
        select 1
        from inbox_entry i
        left join proposal_read r on r.proposal_id = i.proposal_id and r.user_id = ${actor.id}
        cross join lateral (
          select 1 from proposal_message m
          where m.proposal_id = i.proposal_id and m.id > coalesce(r.last_read_message_id, 0) and ${unreadBy(actor)}
          limit ${UNREAD_CAP}
        ) u
        where i.user_id = ${actor.id} and i.inbox_sort > now() + interval '500 years'
        limit ${UNREAD_CAP}
      ) capped`);
    return Number(rowsOf<{ n: number }>(rows)[0]?.n ?? 0);
  }
  if (actor.role !== "client") return 0;
  const visible = conversationsOfClient(actor, await emailVerified(q, actor));
  const ids = q.select({ id: proposal.id }).from(proposal).where(visible);
  const rows = await q.execute<{ n: string }>(sql`
    select count(*)::int as n from (
      select 1
      from proposal_message m
      left join proposal_read r on r.proposal_id = m.proposal_id and r.user_id = ${actor.id}
      where m.proposal_id in (${ids}) and m.id > coalesce(r.last_read_message_id, 0) and ${unreadBy(actor)}
      limit ${UNREAD_CAP}
    ) capped`);
  return Number(rowsOf<{ n: number }>(rows)[0]?.n ?? 0);
}

/**
 * SQL: the unread messages of one conversation for `actor` (0 for a role without conversations),
 * as a column of a list's own statement — the caller selects only proposals the actor may see.
 *
 * @param proposalId - qualified SQL naming the row's proposal id (e.g. `sql\`"proposal"."id"\``).
 */
export function unreadOfProposalSql(actor: Actor, proposalId: SQL): SQL<number> {
  if (actor.role !== "admin" && actor.role !== "client") return sql<number>`0`;
  return sql<number>`(select count(*)::int from proposal_message m
    left join proposal_read r on r.proposal_id = m.proposal_id and r.user_id = ${actor.id}
    where m.proposal_id = ${proposalId} and m.id > coalesce(r.last_read_message_id, 0) and ${unreadBy(actor)})`;
}

/**
 * Unread messages per conversation, for the rows of a list (client dashboard, project status,
 * the admin proposal list). The caller lists only proposals the actor may see.
 *
 * @returns proposal id → unread count (absent: 0).
 */
export async function unreadByProposal(q: Queryable, actor: Actor, proposalIds: number[]): Promise<Record<number, number>> {
  if (proposalIds.length === 0 || (actor.role !== "admin" && actor.role !== "client")) return {};
  const rows = await q.execute<{ proposal_id: number; n: number }>(sql`
    select m.proposal_id, count(*)::int as n
    from proposal_message m
    left join proposal_read r on r.proposal_id = m.proposal_id and r.user_id = ${actor.id}
    where m.proposal_id = any(${sql.param(proposalIds)}::integer[]) and m.id > coalesce(r.last_read_message_id, 0) and ${unreadBy(actor)}
    group by m.proposal_id`);
  return Object.fromEntries(rowsOf<{ proposal_id: number; n: number }>(rows).map((r) => [Number(r.proposal_id), Number(r.n)]));
}

export { rowsOf };
