/**
 * Message mails (docs/product.md#conversations-mail): a new message (never an internal note)
 * mails the other side — the people of the proposal's organisation who take part and did not mute
 * it (docs/product.md#organisation-notifications), or every admin — with the text, the proposal's
 * name and a link to the conversation, through the outbox. At most one mail per conversation and
 * recipient per {@link MAIL_WINDOW_MS}: the first message of a quiet conversation is mailed at
 * once; messages posted in the following 10 minutes wait in `message_mail` and go out together
 * when the window ends ({@link flushDueMessageMails}, run every minute by the `conversations` job).
 * Users who switched message mails off (account page) or are deactivated get none.
 */
import { formatMailTime, readerTimeZone } from "#app/features/mail/mail-dates.server";
import { and, asc, eq, gte, inArray, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import {
  conversationMember,
  membership,
  messageMail,
  proposal,
  proposalMessage,
  storedFile,
  user,
  type MessageAuthorRole,
} from "#app/db/schema";
import { queueNotification } from "#app/features/mail/notifications.server";
import { MAIL_WINDOW_MS } from "./conversations.schema";
import { threadPath } from "./thread-paths";

/**
 * The people a new shared message of `side` is mailed to: for a client's message every active
 * admin, for the agency's the proposal's client (when they can see the conversation) — each only
 * with message mails on. A query for {@link messageMailUpsert} to insert from.
 */
function recipients(q: Queryable, proposalId: number, side: MessageAuthorRole) {
  const active = and(eq(user.notifyMessages, true), or(isNull(user.banned), eq(user.banned, false)));
  if (side === "client") {
    return q
      .select({ userId: sql<string>`${user.id}`.as("user_id") })
      .from(user)
      .where(and(eq(user.role, "admin"), active));
  }
  // The organisation's owners and members, and billing people added to the conversation, who did
  // not mute it (docs/product.md#organisation-notifications).
  return q
    .select({ userId: sql<string>`${user.id}`.as("user_id") })
    .from(proposal)
    .innerJoin(membership, eq(membership.organisationId, proposal.organisationId))
    .innerJoin(user, eq(user.id, membership.userId))
    .leftJoin(conversationMember, and(eq(conversationMember.proposalId, proposal.id), eq(conversationMember.userId, membership.userId)))
    .where(
      and(
        eq(proposal.id, proposalId),
        active,
        isNull(user.closedAt),
        isNull(conversationMember.mutedAt),
        or(
          inArray(membership.role, ["owner", "member"]),
          and(eq(membership.role, "billing"), sql`${conversationMember.addedAt} is not null`),
        ),
        or(eq(proposal.source, "client"), eq(user.emailVerified, true)),
      ),
    );
}

/**
 * The statement part that notes a new shared message for every recipient, for `postMessage` to
 * write in the same statement as the message: one `message_mail` row per recipient, its window
 * kept — a recipient with nothing waiting and no mail in the last {@link MAIL_WINDOW_MS} is due
 * `now` (mailed at once, {@link mailDueNow}); otherwise the message waits for the window's end.
 *
 * @param source - the new message as a relation with an `id` column (a CTE name); no row, no write.
 * @param message - the proposal and the side that wrote it.
 * @param now - the message's time (UTC).
 * @returns SQL for `insert … returning user_id, due_at` (due_at: timestamptz).
 */
export function messageMailUpsert(q: Queryable, source: SQL, message: { proposalId: number; side: MessageAuthorRole }, now: Date): SQL {
  const at = now.toISOString();
  return sql`
    insert into message_mail (proposal_id, user_id, last_sent_at, pending_from_message_id, due_at)
    select ${message.proposalId}::int, recipient.user_id, null, m.id, ${at}::timestamptz
    from (${recipients(q, message.proposalId, message.side)}) recipient, ${source} m
    where true
    on conflict (proposal_id, user_id) do update set
      pending_from_message_id = coalesce(message_mail.pending_from_message_id, excluded.pending_from_message_id),
      due_at = coalesce(message_mail.due_at, greatest(${at}::timestamptz, message_mail.last_sent_at + ${`${MAIL_WINDOW_MS} milliseconds`}::interval))
    returning user_id, due_at`;
}

/**
 * Mails the waiting messages of one conversation now to those of `userIds` who are due by `now`
 * (the first message of a quiet conversation, after `postMessage` wrote it). Rows another pass
 * is mailing are skipped; whatever is not mailed here is mailed by {@link flushDueMessageMails}
 * at its next pass, so a failure delays a mail, never loses it.
 *
 * @returns how many mails were queued in the outbox.
 */
export async function mailDueNow(db: Database, proposalId: number, userIds: string[], now: Date): Promise<number> {
  if (userIds.length === 0) return 0;
  return mailDue(db, now, and(eq(messageMail.proposalId, proposalId), inArray(messageMail.userId, userIds)));
}

/**
 * Mails every conversation whose window has ended (several instances may run it at once: rows
 * are claimed with `FOR UPDATE SKIP LOCKED`).
 *
 * @returns how many mails were queued.
 */
export function flushDueMessageMails(db: Database, now: Date = new Date()): Promise<number> {
  return mailDue(db, now);
}

/** Claims up to 100 due mail states (`FOR UPDATE SKIP LOCKED`), among `only` when given, and mails them. @returns how many mails were queued. */
async function mailDue(db: Database, now: Date, only?: SQL): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ proposalId: messageMail.proposalId, userId: messageMail.userId })
      .from(messageMail)
      .where(and(lte(messageMail.dueAt, now), only))
      .limit(100)
      .for("update", { skipLocked: true });
    let sent = 0;
    for (const row of due) if (await sendWaiting(tx, row.proposalId, row.userId, now)) sent++;
    return sent;
  });
}

/** Mails the waiting messages of one conversation to one recipient and restarts their window. @returns whether a mail was queued. */
async function sendWaiting(tx: Queryable, proposalId: number, userId: string, now: Date): Promise<boolean> {
  const [state] = await tx
    .select({ from: messageMail.pendingFromMessageId })
    .from(messageMail)
    .where(and(eq(messageMail.proposalId, proposalId), eq(messageMail.userId, userId)));
  const [recipient] = await tx
    .select({ email: user.email, role: user.role, notify: user.notifyMessages, banned: user.banned })
    .from(user)
    .where(eq(user.id, userId));
  const [thread] = await tx.select({ projectName: proposal.projectName }).from(proposal).where(eq(proposal.id, proposalId));
  let mailed = false;
  if (state?.from && recipient && thread && recipient.notify && !recipient.banned) {
    const forAgency = recipient.role === "admin";
    // Only shared messages of the other side: never an internal note, never one's own.
    const messages = await tx
      .select({
        id: proposalMessage.id,
        authorName: proposalMessage.authorName,
        body: proposalMessage.body,
        createdAt: proposalMessage.createdAt,
      })
      .from(proposalMessage)
      .where(
        and(
          eq(proposalMessage.proposalId, proposalId),
          gte(proposalMessage.id, state.from),
          eq(proposalMessage.visibility, "shared"),
          eq(proposalMessage.authorRole, forAgency ? "client" : "agency"),
          isNull(proposalMessage.deletedAt),
          or(isNull(proposalMessage.authorId), ne(proposalMessage.authorId, userId)),
        ),
      )
      .orderBy(asc(proposalMessage.id));
    if (messages.length > 0) {
      const files = await tx
        .select({ messageId: storedFile.messageId, name: storedFile.name })
        .from(storedFile)
        .where(
          inArray(
            storedFile.messageId,
            messages.map((m) => m.id),
          ),
        )
        .orderBy(asc(storedFile.id));
      const label = thread.projectName || `Proposal #${proposalId}`;
      // In the reader's zone and words (issue #41): the agency's people read the agency's zone.
      const zone = await readerTimeZone(tx, forAgency ? null : userId);
      const lines = messages.flatMap((m) => {
        const attached = files.filter((f) => f.messageId === m.id).map((f) => f.name);
        return [
          `${m.authorName} (${forAgency ? "Client" : "Agency"}) wrote on ${formatMailTime(m.createdAt, zone)}:`,
          m.body,
          ...(attached.length ? [`Attached: ${attached.join(", ")}`] : []),
        ];
      });
      await queueNotification(tx, {
        to: recipient.email,
        subject: messages.length === 1 ? `New message about ${label}` : `${messages.length} new messages about ${label}`,
        lines,
        link: { label: "Open the conversation", path: `${threadPath(forAgency ? "agency" : "client", proposalId)}#conversation` },
        // docs/product.md#email-replies: answering this mail posts to the thread as its recipient.
        replyThread: { proposalId, userId },
      });
      mailed = true;
    }
  }
  await tx
    .update(messageMail)
    .set({ pendingFromMessageId: null, dueAt: null, ...(mailed ? { lastSentAt: now } : {}) })
    .where(and(eq(messageMail.proposalId, proposalId), eq(messageMail.userId, userId)));
  return mailed;
}
