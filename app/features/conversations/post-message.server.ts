/**
 * Posting a message (docs/product.md#conversations): the ONE path that writes a conversation
 * message — the web composer (with or without JavaScript) and replies by e-mail (docs/product.md#email-replies)
 * both call {@link postMessage}. In one transaction it writes the message, attaches its files,
 * moves the thread summary and the author's read position, records the audit event and queues the
 * message mails; a refusal at any point stores nothing (pending uploads are discarded).
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server";
import { proposalMessage, storedFile, type MessageAuthorRole, type MessageVisibility } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { FILE_MESSAGES, MAX_FILES_PER_MESSAGE } from "#app/features/files/file-kinds";
import type { FileStore } from "#app/features/files/file-store";
import { discardFiles, storePendingFile, type PendingFile } from "#app/features/files/uploads.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, fieldError } from "#app/lib/errors";
import { CONVERSATION_MESSAGES, messageText } from "./conversations.schema";
import { queueMessageMails } from "./message-mail.server";
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

/** The row {@link insertMessage} writes. */
interface NewMessage {
  proposalId: number;
  authorId: string;
  authorName: string;
  side: MessageAuthorRole;
  body: string;
  visibility: MessageVisibility;
  via: "web" | "email";
  mailMessageId: string | null;
  createdAt: Date;
}

/**
 * Writes a message and what moves with it, in one statement (docs/product.md#conversations,
 * #conversations-read): the message row; the thread summary (last activity, last message, last
 * client message, last shared agency message — each only ever moved forward; its triggers keep the
 * admins' inbox order, docs/product.md#conversations-inbox); and the author's read position, moved
 * to the new message.
 *
 * @param tx - the posting transaction (the proposal row is locked already).
 * @returns the new message's id and creation time.
 */
async function insertMessage(tx: Transaction, m: NewMessage): Promise<{ id: number; createdAt: Date }> {
  const createdAt = m.createdAt.toISOString();
  const result = await tx.execute(sql`
    with new_message as (
      insert into proposal_message (proposal_id, author_id, author_name, author_role, body, visibility, via, mail_message_id, created_at)
      values (${m.proposalId}, ${m.authorId}, ${m.authorName}, ${m.side}, ${m.body}, ${m.visibility}, ${m.via}, ${m.mailMessageId}, ${createdAt}::timestamptz)
      returning id, created_at
    ), thread_summary as (
      insert into proposal_thread (proposal_id, last_activity_at, last_message_id, last_client_message_id, last_agency_message_id)
      select ${m.proposalId}, ${createdAt}::timestamptz, id,
        ${m.side === "client" ? sql`id` : sql`0`},
        ${m.side === "agency" && m.visibility === "shared" ? sql`id` : sql`0`}
      from new_message
      on conflict (proposal_id) do update set
        last_activity_at = greatest(proposal_thread.last_activity_at, excluded.last_activity_at),
        last_message_id = greatest(proposal_thread.last_message_id, excluded.last_message_id),
        last_client_message_id = greatest(proposal_thread.last_client_message_id, excluded.last_client_message_id),
        last_agency_message_id = greatest(proposal_thread.last_agency_message_id, excluded.last_agency_message_id)
    ), read_position as (
      insert into proposal_read (user_id, proposal_id, last_read_message_id)
      select ${m.authorId}, ${m.proposalId}, id from new_message
      on conflict (user_id, proposal_id) do update set
        last_read_message_id = greatest(proposal_read.last_read_message_id, excluded.last_read_message_id),
        updated_at = now()
    )
    select id, created_at from new_message
  `);
  const [row] = (result as unknown as { rows: Array<{ id: number | string; created_at: Date | string }> }).rows;
  return { id: Number(row!.id), createdAt: new Date(row!.created_at) };
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
    // Bytes to store before the transaction (a mail's attachments) need the uploader's name, so
    // access is checked first for them; a post without such files is checked inside it.
    const early = attachments.some((a) => !isPending(a)) ? await threadAccess(s.db, input.author, input.proposalId) : null;
    for (const raw of attachments) {
      if (isPending(raw)) continue;
      pending.push(
        await storePendingFile(s, {
          proposalId: early!.proposalId,
          uploader: { id: input.author.id, name: early!.actorName },
          name: raw.name,
          content: raw.content instanceof Uint8Array ? once(raw.content) : raw.content,
        }),
      );
    }
    const now = input.now ?? new Date();
    const posted = await s.db.transaction(async (tx) => {
      // Access checked (404 otherwise) and the proposal row locked, so that it cannot be deleted
      // meanwhile, in one statement.
      const access = await threadAccess(tx, input.author, input.proposalId, { lock: true });
      if (input.inboundMessageId) {
        const [seen] = await tx
          .select({ id: proposalMessage.id })
          .from(proposalMessage)
          .where(eq(proposalMessage.mailMessageId, input.inboundMessageId));
        if (seen) throw new AppError("CONFLICT", CONVERSATION_MESSAGES.duplicateMail);
      }
      const message = await insertMessage(tx, {
        proposalId: access.proposalId,
        authorId: input.author.id,
        authorName: access.actorName,
        side: access.side,
        body: parsed.data,
        visibility,
        via: input.via ?? "web",
        mailMessageId: input.inboundMessageId ?? null,
        createdAt: now,
      });
      const id = message.id;
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
      await recordAudit(tx, input.author, {
        entity: "message",
        entityId: id,
        action: visibility === "internal" ? "note-posted" : "posted",
        proposalId: access.proposalId,
        after: { body: parsed.data, visibility, via: input.via ?? "web", files: pending.map((f) => f.name) },
      });
      if (visibility === "shared") await queueMessageMails(tx, { id, proposalId: access.proposalId, side: access.side }, now);
      return { id, proposalId: access.proposalId, visibility, createdAt: message.createdAt, files: pending };
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
