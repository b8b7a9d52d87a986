/**
 * The owner's contact inbox (docs/product.md#admin-messages): the messages stored by the
 * public contact form, newest first, searchable and paginated; opening one marks it read;
 * the owner marks it handled or not, and deletes it. Every change is audited in the same
 * transaction (entity `contact`).
 */
import { and, count, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { contactMessage } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { formId, type IntentHandler } from "#app/lib/form-action.server";
import {
  containsPattern,
  cursorKeySql,
  keysetPage,
  normalizeSearch,
  SEARCH_COUNT_CAP,
  type KeysetColumns,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";

/** How the inbox is ordered: newest first. */
const ordering: KeysetColumns = { sort: contactMessage.createdAt, id: contactMessage.id };

/** Characters of a message shown in the list (the whole text is on its own page). */
export const PREVIEW_LENGTH = 140;

/** One row of the inbox list. */
export interface InboxRow {
  id: number;
  userName: string;
  userEmail: string;
  /** The start of the message, at most {@link PREVIEW_LENGTH} characters, line breaks folded. */
  preview: string;
  createdAt: Date;
  read: boolean;
  handled: boolean;
}

/** A whole message, as shown on its own page. */
export interface ContactMessageView {
  id: number;
  userName: string;
  userEmail: string;
  userPhone: string | null;
  message: string;
  createdAt: Date;
  readAt: Date | null;
  handledAt: Date | null;
}

/** Filters of the inbox (`?q=`): a case-insensitive substring of the name, e-mail or text. */
export interface InboxFilters {
  q?: string;
}

/** @returns the inbox filters from its URL's search parameters. */
export function inboxFiltersFrom(params: URLSearchParams): InboxFilters {
  return { q: normalizeSearch(params.get("q")) };
}

function inboxWhere(filters: InboxFilters): SQL | undefined {
  if (!filters.q) return undefined;
  const pattern = containsPattern(filters.q);
  return or(ilike(contactMessage.userName, pattern), ilike(contactMessage.userEmail, pattern), ilike(contactMessage.message, pattern));
}

/**
 * One page of the inbox, newest first (docs/product.md#admin-messages).
 *
 * @param page - keyset page request (`pageRequestFrom`).
 * @returns the rows with cursors; the total is capped at {@link SEARCH_COUNT_CAP} while searching.
 * @throws {AppError} FORBIDDEN unless the actor is an admin.
 */
export async function listContactMessages(db: Queryable, actor: Actor, filters: InboxFilters, page: PageRequest): Promise<Page<InboxRow>> {
  assertRole(actor, "admin");
  const result = await keysetPage(
    db,
    {
      order: ordering,
      request: page,
      table: contactMessage,
      where: inboxWhere(filters),
      countCap: filters.q ? SEARCH_COUNT_CAP : undefined,
    },
    (keyset) =>
      db
        .select({
          id: contactMessage.id,
          cursorKey: cursorKeySql(ordering),
          userName: contactMessage.userName,
          userEmail: contactMessage.userEmail,
          preview: sql<string>`left(${contactMessage.message}, ${PREVIEW_LENGTH + 1})`,
          createdAt: contactMessage.createdAt,
          readAt: contactMessage.readAt,
          handledAt: contactMessage.handledAt,
        })
        .from(contactMessage)
        .where(keyset.where)
        .orderBy(...keyset.orderBy)
        .limit(keyset.limit),
  );
  return {
    ...result,
    items: result.items.map(({ readAt, handledAt, preview, ...row }) => ({
      ...row,
      preview: previewOf(preview),
      read: readAt !== null,
      handled: handledAt !== null,
    })),
  };
}

function previewOf(text: string): string {
  const folded = text.replace(/\s+/g, " ").trim();
  return folded.length > PREVIEW_LENGTH ? `${folded.slice(0, PREVIEW_LENGTH - 1)}…` : folded;
}

/**
 * @returns how many messages the owner has not opened yet (the admin dashboard's count).
 * @throws {AppError} FORBIDDEN unless the actor is an admin.
 */
export async function countUnreadMessages(db: Queryable, actor: Actor): Promise<number> {
  const [row] = await unreadMessagesCountQuery(db, actor);
  return row!.n;
}

/**
 * {@link countUnreadMessages} as one unexecuted query (one row, `n`), for a page that sends it with
 * other counts in one statement (`countsInOne`, app/db/counts.server.ts).
 *
 * @throws {AppError} FORBIDDEN unless the actor is an admin.
 */
export function unreadMessagesCountQuery(db: Queryable, actor: Actor) {
  assertRole(actor, "admin");
  return db.select({ n: count() }).from(contactMessage).where(isNull(contactMessage.readAt));
}

const NOT_FOUND_MESSAGE = "Message not found";

/**
 * Reads one message whole. Unless `markRead` is false (a browser prefetch, which the owner has
 * not seen), an unread message becomes read, audited as `read`.
 *
 * @returns the message as stored (with its new `readAt`).
 * @throws {AppError} FORBIDDEN unless the actor is an admin; NOT_FOUND when there is no such message.
 */
export async function openContactMessage(
  db: Database,
  actor: Actor,
  id: number,
  options: { markRead: boolean } = { markRead: true },
): Promise<ContactMessageView> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(contactMessage).where(eq(contactMessage.id, id));
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    let readAt = row.readAt;
    if (!readAt && options.markRead) {
      const [updated] = await tx
        .update(contactMessage)
        .set({ readAt: sql`now()` })
        .where(and(eq(contactMessage.id, id), isNull(contactMessage.readAt)))
        .returning({ readAt: contactMessage.readAt });
      if (updated) {
        readAt = updated.readAt;
        await recordAudit(tx, actor, { entity: "contact", entityId: id, action: "read", before: { read: false }, after: { read: true } });
      }
    }
    const { userName, userEmail, userPhone, message, createdAt, handledAt } = row;
    return { id, userName, userEmail, userPhone, message, createdAt, readAt, handledAt };
  });
}

/**
 * Marks a message handled or not handled (audited as `handled` / `unhandled`; setting the state
 * it already has changes and records nothing). Handling a message also marks it read.
 *
 * @throws {AppError} FORBIDDEN unless the actor is an admin; NOT_FOUND when there is no such message.
 */
export async function setMessageHandled(db: Database, actor: Actor, id: number, handled: boolean): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ handledAt: contactMessage.handledAt })
      .from(contactMessage)
      .where(eq(contactMessage.id, id))
      .for("update");
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    if ((row.handledAt !== null) === handled) return;
    await tx
      .update(contactMessage)
      .set(handled ? { handledAt: sql`now()`, readAt: sql`coalesce(${contactMessage.readAt}, now())` } : { handledAt: null })
      .where(eq(contactMessage.id, id));
    await recordAudit(tx, actor, {
      entity: "contact",
      entityId: id,
      action: handled ? "handled" : "unhandled",
      before: { handled: !handled },
      after: { handled },
    });
  });
}

/**
 * Deletes a message for good (audited as `deleted`, with who wrote it and when — not its text).
 *
 * @returns the sender's name, for the confirmation notice.
 * @throws {AppError} FORBIDDEN unless the actor is an admin; NOT_FOUND when there is no such message.
 */
export async function deleteContactMessage(db: Database, actor: Actor, id: number): Promise<{ userName: string }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(contactMessage).where(eq(contactMessage.id, id)).returning();
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    await recordAudit(tx, actor, {
      entity: "contact",
      entityId: id,
      action: "deleted",
      before: { userName: row.userName, userEmail: row.userEmail, createdAt: row.createdAt, handled: row.handledAt !== null },
      after: null,
    });
    return { userName: row.userName };
  });
}

/**
 * The reply link: a `mailto:` to the sender with the subject prefilled ("Re: your message to
 * <owner>"), e.g. `mailto:ada%40example.org?subject=Re%3A…`.
 */
export function replyHref(message: { userEmail: string }, ownerName: string): string {
  return `mailto:${encodeURIComponent(message.userEmail).replace(/%40/g, "@")}?subject=${encodeURIComponent(`Re: your message to ${ownerName}`)}`;
}

/**
 * The inbox's form intents for `runIntent` (list and message pages): `handled`, `unhandled`
 * and `delete-message`, each reading `messageId` from the form.
 *
 * @returns handlers answering the success notice; they throw the use-cases' `AppError`s.
 */
export function inboxIntents(db: Database, actor: Actor): Record<"handled" | "unhandled" | "delete-message", IntentHandler> {
  return {
    handled: async (form) => {
      await setMessageHandled(db, actor, formId(form, "messageId"), true);
      return "Message marked handled.";
    },
    unhandled: async (form) => {
      await setMessageHandled(db, actor, formId(form, "messageId"), false);
      return "Message marked not handled.";
    },
    "delete-message": async (form) => {
      const removed = await deleteContactMessage(db, actor, formId(form, "messageId"));
      return `The message from ${removed.userName} was deleted.`;
    },
  };
}
