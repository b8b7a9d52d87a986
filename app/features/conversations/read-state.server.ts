/**
 * Read positions (docs/product.md#conversations-read): each participant has one per conversation,
 * the id of the last message they have read. Opening a conversation and posting in it move it
 * forward, never back.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposalRead } from "#app/db/schema";

/**
 * The id of the last message `userId` read in the conversation (0: none), as a number column for
 * another statement of the same conversation (issue #42: the thread's messages carry it, one round
 * trip instead of two).
 */
export function readPositionSql(q: Queryable, userId: string, proposalId: number): SQL<number> {
  const position = q
    .select({ id: proposalRead.lastReadMessageId })
    .from(proposalRead)
    .where(and(eq(proposalRead.userId, userId), eq(proposalRead.proposalId, proposalId)));
  return sql<number>`coalesce(${position}, 0)`.mapWith(Number);
}

/** Moves `userId`'s read position in the conversation to `messageId` (if it is further). */
export async function markRead(q: Queryable, userId: string, proposalId: number, messageId: number): Promise<void> {
  if (messageId <= 0) return;
  await q
    .insert(proposalRead)
    .values({ userId, proposalId, lastReadMessageId: messageId })
    .onConflictDoUpdate({
      target: [proposalRead.userId, proposalRead.proposalId],
      set: { lastReadMessageId: sql`greatest(${proposalRead.lastReadMessageId}, excluded.last_read_message_id)`, updatedAt: sql`now()` },
    });
}
