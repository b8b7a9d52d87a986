/**
 * Editing and deleting one's own message (docs/product.md#conversations): only the author, only
 * within {@link EDIT_WINDOW_MS} of posting it. An edited message shows "edited"; a deleted one
 * stays in the timeline as "message deleted" (its text and files are removed). Both are audited.
 */
import { and, eq } from "drizzle-orm";
import { proposalMessage, storedFile } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { sweepFiles } from "#app/features/files/uploads.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import type { Transaction } from "#app/db/client.server";
import { CONVERSATION_MESSAGES, EDIT_WINDOW_MS, messageText } from "./conversations.schema";
import type { ConversationServices } from "./post-message.server";
import { threadAccess } from "./thread-access.server";

/** Locks the actor's own message, still within its edit window. */
async function lockOwnMessage(tx: Transaction, actor: Actor, proposalId: number, messageId: number, now: Date) {
  const access = await threadAccess(tx, actor, proposalId);
  const [row] = await tx
    .select()
    .from(proposalMessage)
    .where(and(eq(proposalMessage.id, messageId), eq(proposalMessage.proposalId, access.proposalId)))
    .for("update");
  // A client never learns that an internal note exists.
  if (!row || (access.side === "client" && row.visibility !== "shared")) throw notFound(CONVERSATION_MESSAGES.messageNotFound);
  if (row.authorId !== actor.id) throw new AppError("FORBIDDEN", CONVERSATION_MESSAGES.notYours);
  if (row.deletedAt) throw new AppError("CONFLICT", CONVERSATION_MESSAGES.alreadyDeleted);
  if (now.getTime() - row.createdAt.getTime() > EDIT_WINDOW_MS) throw new AppError("CONFLICT", CONVERSATION_MESSAGES.editWindowOver);
  return row;
}

/**
 * Replaces the text of the actor's own message.
 *
 * @throws {AppError} 400 on `text`; 403 for someone else's message; 404 unknown message or
 *   conversation; 409 deleted, or posted more than 15 minutes ago.
 */
export async function editMessage(
  s: Pick<ConversationServices, "db">,
  actor: Actor,
  input: { proposalId: number; messageId: number; text: string; now?: Date },
): Promise<void> {
  const parsed = messageText.safeParse(input.text);
  if (!parsed.success) throw fieldError("text", parsed.error.issues[0]!.message);
  const now = input.now ?? new Date();
  await s.db.transaction(async (tx) => {
    const row = await lockOwnMessage(tx, actor, input.proposalId, input.messageId, now);
    if (row.body === parsed.data) return;
    await tx.update(proposalMessage).set({ body: parsed.data, editedAt: now }).where(eq(proposalMessage.id, row.id));
    await recordAudit(tx, actor, {
      entity: "message",
      entityId: row.id,
      action: "edited",
      proposalId: row.proposalId,
      before: { body: row.body },
      after: { body: parsed.data },
    });
  });
}

/**
 * Deletes the actor's own message: its text and its files go (bytes included); the entry stays
 * as "message deleted".
 *
 * @throws {AppError} 403 for someone else's message; 404 unknown message or conversation; 409
 *   deleted already, or posted more than 15 minutes ago.
 */
export async function deleteMessage(
  s: Pick<ConversationServices, "db" | "files">,
  actor: Actor,
  input: { proposalId: number; messageId: number; now?: Date },
): Promise<void> {
  const now = input.now ?? new Date();
  await s.db.transaction(async (tx) => {
    const row = await lockOwnMessage(tx, actor, input.proposalId, input.messageId, now);
    const files = await tx.delete(storedFile).where(eq(storedFile.messageId, row.id)).returning({ name: storedFile.name });
    await tx.update(proposalMessage).set({ body: "", deletedAt: now }).where(eq(proposalMessage.id, row.id));
    await recordAudit(tx, actor, {
      entity: "message",
      entityId: row.id,
      action: "deleted",
      proposalId: row.proposalId,
      before: { body: row.body, files: files.map((f) => f.name) },
      after: null,
    });
  });
  // The deleted files' keys were queued by the trigger: delete their bytes now.
  await sweepFiles(s);
}
