/**
 * Message mails (docs/product.md#conversations-mail): a new message (never an internal note)
 * mails the other side — the proposal's client, or every admin — with the text, the proposal's
 * name and a link to the conversation, through the outbox. At most one mail per conversation and
 * recipient per {@link MAIL_WINDOW_MS}: the first message of a quiet conversation is mailed at
 * once; messages posted in the following 10 minutes wait in `message_mail` and go out together
 * when the window ends ({@link flushDueMessageMails}, run every 30 s by the conversation jobs).
 * Users who switched message mails off (account page) or are deactivated get none.
 */
import { and, asc, eq, gte, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { messageMail, proposal, proposalMessage, storedFile, user, type MessageAuthorRole } from "#app/db/schema";
import { queueNotification } from "#app/features/mail/notifications.server";
import { MAIL_WINDOW_MS } from "./conversations.schema";
import { threadPath } from "./thread-paths";

/**
 * The people a new shared message of `side` is mailed to: for a client's message every active
 * admin, for the agency's the proposal's client (when they can see the conversation) — each only
 * with message mails on. A query for {@link queueMessageMails} to insert from.
 */
function recipients(q: Queryable, proposalId: number, side: MessageAuthorRole) {
  const active = and(eq(user.notifyMessages, true), or(isNull(user.banned), eq(user.banned, false)));
  if (side === "client") {
    return q
      .select({ userId: sql<string>`${user.id}`.as("user_id") })
      .from(user)
      .where(and(eq(user.role, "admin"), active));
  }
  return q
    .select({ userId: sql<string>`${user.id}`.as("user_id") })
    .from(proposal)
    .innerJoin(user, eq(user.id, proposal.clientId))
    .where(and(eq(proposal.id, proposalId), active, or(eq(proposal.source, "client"), eq(user.emailVerified, true))));
}

/**
 * Called by `postMessage` inside its transaction for a shared message: notes the waiting message
 * for every recipient (one statement) and mails at once those whose window is over.
 *
 * @param tx - the posting transaction.
 * @param message - the new message and the side that wrote it.
 * @param now - the message's time: a window that ended by then is mailed now, otherwise it ends
 *   {@link MAIL_WINDOW_MS} after the last mail.
 */
export async function queueMessageMails(
  tx: Queryable,
  message: { id: number; proposalId: number; side: MessageAuthorRole },
  now: Date,
): Promise<void> {
  const to = recipients(tx, message.proposalId, message.side).as("recipient");
  const states = await tx
    .insert(messageMail)
    .select(
      tx
        .select({
          proposalId: sql<number>`${message.proposalId}::int`.as("proposal_id"),
          userId: to.userId,
          lastSentAt: sql<Date | null>`null::timestamptz`.as("last_sent_at"),
          pendingFromMessageId: sql<number>`${message.id}::int`.as("pending_from_message_id"),
          dueAt: sql<Date>`${now.toISOString()}::timestamptz`.as("due_at"),
        })
        .from(to),
    )
    .onConflictDoUpdate({
      target: [messageMail.proposalId, messageMail.userId],
      set: {
        pendingFromMessageId: sql`coalesce(${messageMail.pendingFromMessageId}, excluded.pending_from_message_id)`,
        dueAt: sql`coalesce(${messageMail.dueAt}, greatest(${now.toISOString()}::timestamptz, ${messageMail.lastSentAt} + ${`${MAIL_WINDOW_MS} milliseconds`}::interval, ${now.toISOString()}::timestamptz))`,
      },
    })
    .returning({ userId: messageMail.userId, dueAt: messageMail.dueAt });
  for (const state of states) {
    if (state.dueAt && state.dueAt.getTime() <= now.getTime()) await sendWaiting(tx, message.proposalId, state.userId, now);
  }
}

/**
 * Mails every conversation whose window has ended (several instances may run it at once: rows
 * are claimed with `FOR UPDATE SKIP LOCKED`).
 *
 * @returns how many mails were queued.
 */
export async function flushDueMessageMails(db: Database, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ proposalId: messageMail.proposalId, userId: messageMail.userId })
      .from(messageMail)
      .where(lte(messageMail.dueAt, now))
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
      const lines = messages.flatMap((m) => {
        const attached = files.filter((f) => f.messageId === m.id).map((f) => f.name);
        return [
          `${m.authorName} (${forAgency ? "Client" : "Agency"}) wrote on ${m.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC:`,
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
