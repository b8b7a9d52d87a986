/**
 * Read positions (docs/product.md#conversations-read): each participant has one per conversation,
 * the id of the last message they have read. Opening a conversation and posting in it move it
 * forward, never back.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { proposalRead } from "#app/db/schema";

/** @returns the id of the last message `userId` read in the conversation (0: none). */
export async function readPosition(q: Queryable, userId: string, proposalId: number): Promise<number> {
  const [row] = await q
    .select({ id: proposalRead.lastReadMessageId })
    .from(proposalRead)
    .where(and(eq(proposalRead.userId, userId), eq(proposalRead.proposalId, proposalId)));
  return row?.id ?? 0;
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
