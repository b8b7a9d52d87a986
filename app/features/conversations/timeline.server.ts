/**
 * A proposal's conversation as each side reads it (docs/product.md#conversations-timeline): one
 * timeline, oldest first, of its messages and its system events, with each message's files, the
 * "New" divider's position, and (opening it) the reader's read position moved to the end.
 *
 * Confinement is in the queries: a client's message query selects `visibility = 'shared'` only, its
 * files query only files of those messages, its events query only {@link CLIENT_TIMELINE_EVENTS};
 * an ambassador's reads status events only. Nothing is filtered after reading.
 */
import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { auditEvent, proposal, proposalMessage, storedFile, user, type MessageAuthorRole } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { CONVERSATION_MESSAGES, EDIT_WINDOW_MS } from "./conversations.schema";
import { markRead, readPositionSql } from "./read-state.server";
import { threadAccess, type ThreadAccess } from "./thread-access.server";
import { fileUrl } from "./thread-paths";
import { AMBASSADOR_TIMELINE_EVENTS, CLIENT_TIMELINE_EVENTS, describeEvent, HIDDEN_TIMELINE_ENTITIES } from "./timeline-events";

import type { ThreadFile, ThreadView, TimelineEntry } from "./thread-types";

export type { ThreadFile, ThreadView, TimelineEntry };

const ROLE_BADGE: Record<MessageAuthorRole, "Agency" | "Client"> = { agency: "Agency", client: "Client" };

/** The system events of the proposal a side may see, oldest first, with each actor's name. */
async function readEvents(q: Queryable, proposalId: number, visible: SQL | undefined) {
  const rows = await q
    .select({
      id: auditEvent.id,
      entity: auditEvent.entity,
      action: auditEvent.action,
      before: auditEvent.before,
      after: auditEvent.after,
      createdAt: auditEvent.createdAt,
      actorName: sql<string | null>`coalesce(${user.businessName}, ${user.name})`,
    })
    .from(auditEvent)
    .leftJoin(user, eq(user.id, auditEvent.actorId))
    .where(and(eq(auditEvent.proposalId, proposalId), visible))
    .orderBy(asc(auditEvent.id));
  return rows.map((row) => ({
    kind: "event" as const,
    key: `e${row.id}`,
    id: row.id,
    authorName: row.actorName ?? "Former user",
    ...describeEvent(row),
    createdAt: row.createdAt.toISOString(),
  }));
}

const eventKey = sql`${auditEvent.entity} || ':' || ${auditEvent.action}`;

/**
 * Reads the conversation of a proposal for one of its participants and, unless `markAsRead` is
 * false (a prefetch), marks every message in it read.
 *
 * @throws {AppError} 404 "Proposal not found" unless the actor is an admin or the proposal's client.
 */
export async function getThread(
  q: Queryable,
  actor: Actor,
  proposalId: number,
  options: { markAsRead?: boolean; now?: Date } = {},
): Promise<ThreadView> {
  const access = await threadAccess(q, actor, proposalId);
  const forClient = access.side === "client";
  // Each row carries the reader's read position (one statement, issue #42): without messages it is
  // not needed (nothing to mark read, no first unread).
  const rows = await q
    .select({ ...getTableColumns(proposalMessage), lastRead: readPositionSql(q, actor.id, access.proposalId) })
    .from(proposalMessage)
    .where(and(eq(proposalMessage.proposalId, access.proposalId), forClient ? eq(proposalMessage.visibility, "shared") : undefined))
    .orderBy(asc(proposalMessage.id));
  const lastRead = rows[0]?.lastRead ?? 0;
  const messages = rows.map(({ lastRead: _lastRead, ...m }) => m);
  const files = await listFiles(q, access, { messageIds: messages.map((m) => m.id) });
  const events = await readEvents(
    q,
    access.proposalId,
    forClient ? inArray(eventKey, [...CLIENT_TIMELINE_EVENTS]) : notInArray(auditEvent.entity, [...HIDDEN_TIMELINE_ENTITIES]),
  );
  const now = (options.now ?? new Date()).getTime();
  const entries: TimelineEntry[] = [
    ...messages.map((m) => {
      const own = m.authorId === actor.id && !m.deletedAt;
      const until = m.createdAt.getTime() + EDIT_WINDOW_MS;
      return {
        kind: "message" as const,
        key: `m${m.id}`,
        id: m.id,
        authorName: m.authorName,
        role: ROLE_BADGE[m.authorRole],
        body: m.deletedAt ? "" : m.body,
        internal: m.visibility === "internal",
        createdAt: m.createdAt.toISOString(),
        edited: m.editedAt !== null,
        deleted: m.deletedAt !== null,
        via: m.via,
        editableUntil: own && until > now ? new Date(until).toISOString() : null,
        files: files.filter((f) => f.messageId === m.id).map(({ messageId: _m, ...f }) => f),
      };
    }),
    ...events,
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.kind === b.kind ? a.id - b.id : a.kind === "event" ? -1 : 1));
  const firstUnread = messages.find((m) => m.id > lastRead && m.authorId !== actor.id && !m.deletedAt);
  const lastId = messages.at(-1)?.id ?? 0;
  if (options.markAsRead !== false && lastId > lastRead) await markRead(q, actor.id, access.proposalId, lastId);
  return {
    proposalId: access.proposalId,
    label: access.label,
    side: access.side,
    entries,
    firstUnreadId: firstUnread?.id ?? null,
    fileCount: files.length,
  };
}

/**
 * The files of a conversation its reader may see: of messages not deleted, and for a client of
 * shared messages only (in the query).
 */
async function listFiles(
  q: Queryable,
  access: ThreadAccess,
  options: { messageIds?: number[]; newestFirst?: boolean; fileId?: number } = {},
): Promise<(ThreadFile & { messageId: number; storageKey: string })[]> {
  if (options.messageIds && options.messageIds.length === 0) return [];
  const rows = await q
    .select({
      id: storedFile.id,
      messageId: storedFile.messageId,
      name: storedFile.name,
      size: storedFile.size,
      contentType: storedFile.contentType,
      uploadedByName: storedFile.uploadedByName,
      createdAt: storedFile.createdAt,
      storageKey: storedFile.storageKey,
      visibility: proposalMessage.visibility,
    })
    .from(storedFile)
    .innerJoin(proposalMessage, eq(proposalMessage.id, storedFile.messageId))
    .where(
      and(
        eq(storedFile.proposalId, access.proposalId),
        isNotNull(storedFile.messageId),
        isNull(proposalMessage.deletedAt),
        access.side === "client" ? eq(proposalMessage.visibility, "shared") : undefined,
        options.messageIds ? inArray(storedFile.messageId, options.messageIds) : undefined,
        options.fileId !== undefined ? eq(storedFile.id, options.fileId) : undefined,
      ),
    )
    .orderBy(options.newestFirst ? desc(storedFile.id) : asc(storedFile.id));
  return rows.map((r) => ({
    id: r.id,
    messageId: r.messageId!,
    name: r.name,
    size: r.size,
    contentType: r.contentType,
    url: fileUrl(access.side, access.proposalId, r.id),
    uploadedByName: r.uploadedByName,
    createdAt: r.createdAt.toISOString(),
    internal: r.visibility === "internal",
    storageKey: r.storageKey,
  }));
}

/**
 * The Files tab (docs/product.md#files): every file shared in the conversation, newest first —
 * for admins also those of internal notes (marked), for the client never.
 *
 * @throws {AppError} 404 "Proposal not found" unless the actor takes part.
 */
export async function listThreadFiles(
  q: Queryable,
  actor: Actor,
  proposalId: number,
): Promise<{ label: string; side: MessageAuthorRole; files: ThreadFile[] }> {
  const access = await threadAccess(q, actor, proposalId);
  const files = await listFiles(q, access, { newestFirst: true });
  return { label: access.label, side: access.side, files: files.map(({ messageId: _m, storageKey: _k, ...f }) => f) };
}

/**
 * One file for download, if the actor may read it (the conversation's rule, and for a client not
 * a note's file).
 *
 * @returns the file's display name, type, stored size and storage key.
 * @throws {AppError} 404 "File not found" for anyone else, an unknown id, a pending upload or a
 *   deleted message's file.
 */
export async function getFileForDownload(
  q: Queryable,
  actor: Actor,
  proposalId: number,
  fileId: number,
): Promise<{ name: string; contentType: string; size: number; storageKey: string }> {
  let access: ThreadAccess;
  try {
    access = await threadAccess(q, actor, proposalId);
  } catch {
    throw notFound("File not found");
  }
  const [file] = await listFiles(q, access, { fileId });
  if (!file) throw notFound("File not found");
  return { name: file.name, contentType: file.contentType, size: file.size, storageKey: file.storageKey };
}

/** A status event of a proposal, as its ambassador reads it. */
export interface StatusEvent {
  id: number;
  authorName: string;
  text: string;
  createdAt: string;
}

/**
 * The ambassador's read-only view of a proposal they submitted (docs/product.md#conversations):
 * its name, status and status events — never a message or a file.
 *
 * @throws {AppError} 403 unless an ambassador; 404 "Proposal not found" unless they submitted it.
 */
export async function getStatusEventsForAmbassador(
  q: Queryable,
  actor: Actor,
  proposalId: number,
): Promise<{
  proposal: { id: number; projectName: string | null; clientName: string | null; status: string; createdAt: string };
  events: StatusEvent[];
}> {
  assertRole(actor, "ambassador");
  const [row] = await q
    .select({
      id: proposal.id,
      projectName: proposal.projectName,
      clientName: proposal.clientName,
      status: proposal.status,
      createdAt: proposal.createdAt,
    })
    .from(proposal)
    .where(and(eq(proposal.id, proposalId), eq(proposal.ambassadorId, actor.id)));
  if (!row) throw notFound(CONVERSATION_MESSAGES.notFound);
  const events = await readEvents(q, row.id, inArray(eventKey, [...AMBASSADOR_TIMELINE_EVENTS]));
  return {
    proposal: { ...row, createdAt: row.createdAt.toISOString() },
    events: events.map(({ id, authorName, text, createdAt }) => ({ id, authorName, text, createdAt })),
  };
}
