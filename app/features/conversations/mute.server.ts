/**
 * A person's mute of one conversation (docs/product.md#organisation-notifications): a muted
 * conversation sends them no message mails (message-mail.server.ts leaves them out); its page, its
 * unread counts and the live updates stay.
 */
import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { conversationMember } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { threadAccess } from "./thread-access.server";

/**
 * Mutes or unmutes the conversation for the acting person.
 *
 * @throws {AppError} 404 "Proposal not found" unless the person takes part in it.
 */
export async function setConversationMuted(db: Database, actor: Actor, proposalId: number, muted: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await threadAccess(tx, actor, proposalId);
    await tx
      .insert(conversationMember)
      .values({ proposalId, userId: actor.id, mutedAt: muted ? sql`now()` : null })
      .onConflictDoUpdate({
        target: [conversationMember.proposalId, conversationMember.userId],
        set: { mutedAt: muted ? sql`coalesce(${conversationMember.mutedAt}, now())` : null },
      });
  });
}
