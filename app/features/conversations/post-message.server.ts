/**
 * Posting a message (docs/product.md#conversations): the ONE path that writes a conversation
 * message — the web composer (with or without JavaScript) and replies by e-mail (docs/product.md#email-replies)
 * both call {@link postMessage}. In one transaction it writes the message, attaches its files,
 * moves the thread summary and the author's read position, records the audit event and queues the
 * message mails; a refusal at any point stores nothing (pending uploads are discarded).
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { proposal, proposalMessage, proposalThread, storedFile, type MessageVisibility } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { FILE_MESSAGES, MAX_FILES_PER_MESSAGE } from "#app/features/files/file-kinds";
import type { FileStore } from "#app/features/files/file-store";
import { discardFiles, storePendingFile, type PendingFile } from "#app/features/files/uploads.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { CONVERSATION_MESSAGES, messageText } from "./conversations.schema";
import { queueMessageMails } from "./message-mail.server";
import { markRead } from "./read-state.server";
import { threadAccess } from "./thread-access.server";

/** What posting needs: the database, the file store and the upload limit (from `AppServices`). */
export interface ConversationServices {
  db: Database;
  files: FileStore;
  /** `MAX_UPLOAD_MB`. */
  maxUploadMb: number;
}

/** An attachment: an upload already streamed to the store, or bytes to store now (a mail's attachment). */
export type Attachment = PendingFile | { name: string; content: AsyncIterable<Uint8Array> | Uint8Array };

/** One message to post. */
export interface PostMessageInput {
  author: Actor;
  proposalId: number;
  /** As typed: trimmed here, 1–10,000 characters. */
  text: string;
  attachments?: Attachment[];
  /** `internal`: an admin's note (default `shared`). */
  visibility?: MessageVisibility;
  via?: "web" | "email";
  /** The Message-ID of the e-mail this message comes from: the same mail is never posted twice. */
  inboundMessageId?: string;
  now?: Date;
}

/** The message written. */
export interface PostedMessage {
  id: number;
  proposalId: number;
  visibility: MessageVisibility;
  createdAt: Date;
  files: PendingFile[];
}

const isPending = (a: Attachment): a is PendingFile => "id" in a;

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * Posts a message to a proposal's conversation.
 *
 * @returns the message's id, visibility, time and files.
 * @throws {AppError} 400 on `text` (empty, over 10,000 characters) or `files` (more than 10, or a
 *   refused file); 403 when a client asks for an internal note; 404 "Proposal not found" unless the
 *   author takes part in the conversation; 409 when `inboundMessageId` was posted already. Nothing
 *   is stored on refusal: the pending uploads given are deleted with their bytes.
 */
export async function postMessage(s: ConversationServices, input: PostMessageInput): Promise<PostedMessage> {
  const attachments = input.attachments ?? [];
  const pending: PendingFile[] = attachments.filter(isPending);
  try {
    const parsed = messageText.safeParse(input.text);
    if (!parsed.success) throw fieldError("text", parsed.error.issues[0]!.message);
    const visibility = input.visibility ?? "shared";
    if (visibility === "internal" && input.author.role !== "admin") throw new AppError("FORBIDDEN", CONVERSATION_MESSAGES.notesAdminsOnly);
    if (attachments.length > MAX_FILES_PER_MESSAGE) throw fieldError("files", FILE_MESSAGES.tooMany);
    const access = await threadAccess(s.db, input.author, input.proposalId);
    for (const raw of attachments) {
      if (isPending(raw)) continue;
      pending.push(
        await storePendingFile(s, {
          proposalId: access.proposalId,
          uploader: { id: input.author.id, name: access.actorName },
          name: raw.name,
          content: raw.content instanceof Uint8Array ? once(raw.content) : raw.content,
        }),
      );
    }
    const now = input.now ?? new Date();
    const posted = await s.db.transaction(async (tx) => {
      // Checked above; the row is locked so that the proposal cannot be deleted meanwhile.
      const [locked] = await tx.select({ id: proposal.id }).from(proposal).where(eq(proposal.id, access.proposalId)).for("share");
      if (!locked) throw notFound(CONVERSATION_MESSAGES.notFound);
      if (input.inboundMessageId) {
        const [seen] = await tx
          .select({ id: proposalMessage.id })
          .from(proposalMessage)
          .where(eq(proposalMessage.mailMessageId, input.inboundMessageId));
        if (seen) throw new AppError("CONFLICT", CONVERSATION_MESSAGES.duplicateMail);
      }
      const [message] = await tx
        .insert(proposalMessage)
        .values({
          proposalId: access.proposalId,
          authorId: input.author.id,
          authorName: access.actorName,
          authorRole: access.side,
          body: parsed.data,
          visibility,
          via: input.via ?? "web",
          mailMessageId: input.inboundMessageId ?? null,
          createdAt: now,
        })
        .returning({ id: proposalMessage.id, createdAt: proposalMessage.createdAt });
      const id = message!.id;
      if (pending.length) {
        const attached = await tx
          .update(storedFile)
          .set({ messageId: id })
          .where(
            and(
              inArray(
                storedFile.id,
                pending.map((f) => f.id),
              ),
              isNull(storedFile.messageId),
              eq(storedFile.proposalId, access.proposalId),
              eq(storedFile.uploadedById, input.author.id),
            ),
          )
          .returning({ id: storedFile.id });
        if (attached.length !== pending.length) throw fieldError("files", FILE_MESSAGES.cut);
      }
      await tx
        .insert(proposalThread)
        .values({
          proposalId: access.proposalId,
          lastActivityAt: now,
          lastMessageId: id,
          lastClientMessageId: access.side === "client" ? id : 0,
          lastAgencyMessageId: access.side === "agency" && visibility === "shared" ? id : 0,
        })
        .onConflictDoUpdate({
          target: proposalThread.proposalId,
          set: {
            lastActivityAt: sql`greatest(${proposalThread.lastActivityAt}, excluded.last_activity_at)`,
            lastMessageId: sql`greatest(${proposalThread.lastMessageId}, excluded.last_message_id)`,
            lastClientMessageId: sql`greatest(${proposalThread.lastClientMessageId}, excluded.last_client_message_id)`,
            lastAgencyMessageId: sql`greatest(${proposalThread.lastAgencyMessageId}, excluded.last_agency_message_id)`,
          },
        });
      await markRead(tx, input.author.id, access.proposalId, id);
      await recordAudit(tx, input.author, {
        entity: "message",
        entityId: id,
        action: visibility === "internal" ? "note-posted" : "posted",
        proposalId: access.proposalId,
        after: { body: parsed.data, visibility, via: input.via ?? "web", files: pending.map((f) => f.name) },
      });
      if (visibility === "shared") await queueMessageMails(tx, { id, proposalId: access.proposalId, side: access.side }, now);
      return { id, proposalId: access.proposalId, visibility, createdAt: message!.createdAt, files: pending };
    });
    return posted;
  } catch (error) {
    await discardFiles(
      s,
      pending.map((f) => f.id),
    );
    throw error;
  }
}
