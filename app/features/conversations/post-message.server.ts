/**
 * Posting a message (docs/product.md#conversations): the ONE path that writes a conversation
 * message — the web composer (with or without JavaScript) and replies by e-mail (docs/product.md#email-replies)
 * both call {@link postMessage}. In one statement it writes the message, attaches its files,
 * moves the thread summary and the author's read position, records the audit and live events and
 * queues the message mails; a refusal at any point stores nothing (pending uploads are discarded).
 */
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { proposalMessage, type MessageVisibility } from "#app/db/schema";
import { auditInsert } from "#app/features/audit/audit.server";
import { messageEventInsert } from "#app/features/live/live-events.server";
import { FILE_MESSAGES, MAX_FILES_PER_MESSAGE } from "#app/features/files/file-kinds";
import type { FileStore } from "#app/features/files/file-store";
import { discardFiles, storePendingFile, type PendingFile } from "#app/features/files/uploads.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound, rateLimitedFor } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { CONVERSATION_MESSAGES, messageText } from "./conversations.schema";
import { mailDueNow, messageMailUpsert } from "./message-mail.server";
import { claimSubmission } from "#app/features/submissions/submission-key.server";
import { sideOf, threadAccess, threadAccessQuery } from "./thread-access.server";

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
  /**
   * The composer's idempotency key (issue #36): a repeat of a post already saved answers that
   * message and writes nothing (its files are discarded).
   */
  submissionKey?: string;
  now?: Date;
}

/** The message written. */
export interface PostedMessage {
  id: number;
  proposalId: number;
  visibility: MessageVisibility;
  createdAt: Date;
  files: PendingFile[];
  /** True when the post repeated one already saved (same `submissionKey`): nothing was written. */
  repeat?: boolean;
}

const isPending = (a: Attachment): a is PendingFile => "id" in a;

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * The posting statement (docs/product.md#conversations, #conversations-read, #conversations-mail):
 * in ONE statement — the participation check with the proposal row locked (`FOR SHARE`, so it
 * cannot be deleted meanwhile; no row for a non-participant, and then nothing below is written);
 * the message; the thread summary (last activity, last message, last client message, last shared
 * agency message — each only ever moved forward; its triggers keep the admins' inbox order,
 * docs/product.md#conversations-inbox); the author's read position, moved to the new message; the
 * pending files attached; the audit event; the live event; and, for a shared message, every
 * recipient's mail state.
 *
 * @returns SQL whose one row (none without access) is `id`, `created_at`, `attached` (files
 *   attached) and `due` (JSON array of the recipients to mail now).
 */
function postStatement(
  q: Queryable,
  input: {
    author: Actor;
    proposalId: number;
    body: string;
    visibility: MessageVisibility;
    via: "web" | "email";
    mailMessageId: string | null;
    fileIds: number[];
    fileNames: string[];
    now: Date;
  },
): SQL | null {
  const { author, proposalId, visibility, now } = input;
  const access = threadAccessQuery(q, author, proposalId, { lock: true });
  if (!access) return null;
  const side = sideOf(author);
  const at = now.toISOString();
  const message = sql`new_message`;
  const parts: SQL[] = [
    sql`access as (${access})`,
    sql`new_message as (
      insert into proposal_message (proposal_id, author_id, author_name, author_role, body, visibility, via, mail_message_id, created_at)
      select access.id, ${author.id}, access.actor_name, ${side}, ${input.body}, ${visibility}, ${input.via}, ${input.mailMessageId}, ${at}::timestamptz
      from access
      returning id, created_at
    )`,
    sql`thread_summary as (
      insert into proposal_thread (proposal_id, last_activity_at, last_message_id, last_client_message_id, last_agency_message_id)
      select ${proposalId}::int, ${at}::timestamptz, id,
        ${side === "client" ? sql`id` : sql`0`},
        ${side === "agency" && visibility === "shared" ? sql`id` : sql`0`}
      from new_message
      on conflict (proposal_id) do update set
        last_activity_at = greatest(proposal_thread.last_activity_at, excluded.last_activity_at),
        last_message_id = greatest(proposal_thread.last_message_id, excluded.last_message_id),
        last_client_message_id = greatest(proposal_thread.last_client_message_id, excluded.last_client_message_id),
        last_agency_message_id = greatest(proposal_thread.last_agency_message_id, excluded.last_agency_message_id)
    )`,
    sql`read_position as (
      insert into proposal_read (user_id, proposal_id, last_read_message_id)
      select ${author.id}, ${proposalId}::int, id from new_message
      on conflict (user_id, proposal_id) do update set
        last_read_message_id = greatest(proposal_read.last_read_message_id, excluded.last_read_message_id),
        updated_at = now()
    )`,
    sql`audit as (${auditInsert(
      author,
      {
        entity: "message",
        action: visibility === "internal" ? "note-posted" : "posted",
        proposalId,
        after: { body: input.body, visibility, via: input.via, files: input.fileNames },
      },
      message,
    )})`,
    sql`live as (${messageEventInsert({ action: "posted", internal: visibility !== "shared", proposalId, actorId: author.id }, message)})`,
  ];
  if (input.fileIds.length)
    parts.push(
      sql`attached as (
      update file set message_id = new_message.id
      from new_message
      where file.id in (${sql.join(
        input.fileIds.map((id) => sql`${id}::int`),
        sql`, `,
      )})
        and file.message_id is null
        and file.proposal_id = ${proposalId}::int
        and file.uploaded_by_id = ${author.id}
      returning file.id
    )`,
    );
  if (visibility === "shared") parts.push(sql`mail as (${messageMailUpsert(q, message, { proposalId, side }, now)})`);
  const due =
    visibility === "shared"
      ? sql`(select coalesce(json_agg(user_id), '[]'::json) from mail where due_at <= ${at}::timestamptz)`
      : sql`'[]'::json`;
  return sql`with ${sql.join(parts, sql`, `)}
    select new_message.id, new_message.created_at, ${input.fileIds.length ? sql`(select count(*) from attached)::int` : sql`0`} as attached, ${due} as due
    from new_message`;
}

/** Messages per client or ambassador account per hour (#36); admins are not limited. */
export const MESSAGE_RATE = { limit: 120, windowMs: 60 * 60 * 1000 } as const;

/**
 * Posts a message to a proposal's conversation: one statement ({@link postStatement}), inside a
 * transaction only when files are attached or an e-mail is posted (their checks can refuse after
 * it). Then the recipients due now are mailed (the first message of a quiet conversation); a
 * mail that fails there is mailed by the conversation jobs' next pass — the post stands.
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
    // An hourly message budget per client or ambassador account, whatever the way in (#36).
    if (input.author.role !== "admin") {
      const rate = await hitRateLimit(s.db, `message:${input.author.id}`, MESSAGE_RATE);
      if (!rate.allowed) throw rateLimitedFor(CONVERSATION_MESSAGES.tooManyMessages, rate.retryAfterSeconds);
    }
    // Bytes to store first (a mail's attachments) need the uploader's name, so access is checked
    // first for them; otherwise the posting statement checks it.
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
    const via = input.via ?? "web";
    const write = async (q: Queryable) => {
      if (input.inboundMessageId) {
        const [seen] = await q
          .select({ id: proposalMessage.id })
          .from(proposalMessage)
          .where(eq(proposalMessage.mailMessageId, input.inboundMessageId));
        if (seen) throw new AppError("CONFLICT", CONVERSATION_MESSAGES.duplicateMail);
      }
      const statement = postStatement(q, {
        author: input.author,
        proposalId: input.proposalId,
        body: parsed.data,
        visibility,
        via,
        mailMessageId: input.inboundMessageId ?? null,
        fileIds: pending.map((f) => f.id),
        fileNames: pending.map((f) => f.name),
        now,
      });
      const result = statement ? await q.execute(statement) : { rows: [] };
      const [row] = (result as unknown as { rows: PostedRow[] }).rows;
      if (!row) throw notFound(CONVERSATION_MESSAGES.notFound);
      if (Number(row.attached) !== pending.length) throw fieldError("files", FILE_MESSAGES.cut);
      return row;
    };
    const scope = `user:${input.author.id}`;
    const claimed = async (q: Queryable) => {
      const { result, repeat } = await claimSubmission(q, scope, input.submissionKey, async () => {
        const row = await write(q);
        return { id: Number(row.id), created_at: new Date(row.created_at).toISOString(), attached: Number(row.attached), due: row.due };
      });
      return repeat ? { ...result, due: [], repeat } : { ...result, repeat };
    };
    const row =
      pending.length || input.inboundMessageId || input.submissionKey
        ? await s.db.transaction(claimed)
        : { ...(await write(s.db)), repeat: false };
    if (row.repeat) {
      // The first post stands: the repeat's own uploads are dropped.
      await discardFiles(
        s,
        pending.map((f) => f.id),
      );
      return { id: Number(row.id), proposalId: input.proposalId, visibility, createdAt: new Date(row.created_at), files: [], repeat: true };
    }
    const due = (typeof row.due === "string" ? JSON.parse(row.due) : row.due) as string[];
    if (due.length) {
      await mailDueNow(s.db, input.proposalId, due, now).catch((error: unknown) =>
        logger.error({ err: error, proposalId: input.proposalId }, "mailing a new message failed; the conversation jobs retry"),
      );
    }
    return { id: Number(row.id), proposalId: input.proposalId, visibility, createdAt: new Date(row.created_at), files: pending };
  } catch (error) {
    await discardFiles(
      s,
      pending.map((f) => f.id),
    );
    throw error;
  }
}

/** The posting statement's row, as the drivers return it. */
interface PostedRow {
  id: number | string;
  created_at: Date | string;
  attached: number | string;
  due: string[] | string;
}
