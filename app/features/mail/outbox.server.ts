/**
 * Mail delivery (docs/product.md#mail-delivery, ADR 019): every queued mail has one job in the
 * `mail` queue; {@link deliverMail} is its handler. One attempt:
 * 1. claims the row with a lease (`locked_until`, `lease_id`) unless it is sent, failed, or held by
 *    another attempt whose lease has not passed;
 * 2. sends it through one pooled nodemailer transport whose connection, greeting and socket
 *    timeouts ({@link SMTP_TIMEOUTS_MS}) and the attempt's deadline end it well within the lease;
 * 3. marks it sent only while the lease is still this attempt's (`where lease_id = …`).
 * The lease is renewed while the send is unsettled (a message waiting for a pooled connection
 * after its attempt's deadline included), so a second process never sends it while the first may.
 * A failure is retried by the queue with exponential back-off; after the last attempt the job's
 * dead letter ({@link markMailFailed}) marks the row failed for the admin (/admin/outbox).
 *
 * Delivery is at least once: a process killed between the SMTP server's acceptance and step 3
 * leaves the mail to be sent again once its lease passes (with the same Message-ID).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Database } from "#app/db/client.server";
import { mailOutbox, user } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { replaceInIcs } from "#app/lib/ics-text";
import { runDueJobs, type JobRun } from "#app/features/jobs/jobs.server";
import { MAIL_LEASE_SECONDS } from "#app/features/jobs/queues";
import { logger, scrubSecrets } from "#app/lib/logger.server";
import { purgeRateWindows } from "#app/lib/rate-limit.server";
import { ADMIN_RECIPIENT, ORIGIN_TOKEN, parseReplyThreadMarker, REPLY_HINT_TOKEN } from "./notifications.server";

/** One message for a {@link MailSender}. */
export interface OutboxMessage {
  from: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: { filename: string; contentType: string; content: string; encoding?: "base64" }[] | null;
  /** Extra header fields (e.g. `Auto-Submitted`). */
  headers?: Record<string, string> | null;
  /** Outbox id (names the `.eml` file). */
  id: number;
  /** The row's Message-ID (see {@link outboxMessageId}): the same on every attempt. */
  messageId: string;
}

/** Sends one message; rejects when the transport refuses it. `close` ends the pooled connections. */
export type MailSender = ((message: OutboxMessage) => Promise<void>) & { close?(): void };

/**
 * The Message-ID of an outbox row: derived from its id and creation time, so every retry of the
 * row carries the same one (a receiving server can drop a duplicate) and rows of two
 * installations do not collide.
 *
 * @param row - the row's id and creation time.
 * @param origin - the site's public origin; its host names the domain part.
 * @returns e.g. `<outbox-42.1795400000000@portal.example>`.
 */
export function outboxMessageId(row: { id: number; createdAt: Date }, origin: string): string {
  let host = "portal.invalid";
  try {
    host = new URL(origin).hostname || host;
  } catch {
    /* keep the placeholder */
  }
  return `<outbox-${row.id}.${row.createdAt.getTime()}@${host}>`;
}

/**
 * SMTP timeouts (ms): to open the connection, for the server's greeting, and of silence on the
 * socket at any later step (e.g. the answer to the message's end). A stalled server therefore ends
 * an attempt within about a minute of silence — far within the attempt's lease
 * ({@link MAIL_LEASE_SECONDS}) — so a slow server never lets a second attempt start while the
 * first may still be sending.
 */
export const SMTP_TIMEOUTS_MS = { connection: 15_000, greeting: 15_000, socket: 60_000 } as const;

/** Concurrent SMTP connections (and mail jobs) per process. */
export const SMTP_MAX_CONNECTIONS = 3;

/**
 * Builds the sender: SMTP when `smtpUrl` is set — one pooled transport (up to
 * {@link SMTP_MAX_CONNECTIONS} connections reused across messages) with {@link SMTP_TIMEOUTS_MS} —
 * otherwise `.eml` files in `outboxDir`.
 *
 * @param options.smtpUrl - e.g. `smtp://user:pass@host:587`.
 * @param options.outboxDir - folder for `.eml` files when there is no SMTP server.
 * @param options.pool - reuse SMTP connections (default true; false opens one per message).
 * @param options.timeoutsMs - other SMTP timeouts (tests).
 */
export function createMailSender(options: {
  smtpUrl?: string;
  outboxDir: string;
  pool?: boolean;
  timeoutsMs?: Partial<Record<keyof typeof SMTP_TIMEOUTS_MS, number>>;
}): MailSender {
  const pooled = options.pool ?? true;
  const timeouts = { ...SMTP_TIMEOUTS_MS, ...options.timeoutsMs };
  const smtp = {
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
  };
  const transport = options.smtpUrl
    ? pooled
      ? nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: SMTP_MAX_CONNECTIONS, maxMessages: 500, ...smtp })
      : nodemailer.createTransport({ url: options.smtpUrl, ...smtp })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const send = async (message: OutboxMessage) => {
    const info = await transport.sendMail({
      from: message.from,
      to: message.to,
      replyTo: message.replyTo ?? undefined,
      subject: message.subject,
      text: message.text,
      html: message.html ?? undefined,
      attachments: message.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
        ...(a.encoding ? { encoding: a.encoding } : {}),
      })),
      headers: message.headers ?? undefined,
      messageId: message.messageId,
    });
    if (!options.smtpUrl) {
      fs.mkdirSync(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.id}.eml`);
      fs.writeFileSync(file, (info as unknown as { message: Buffer }).message);
    }
  };
  return Object.assign(send, { close: () => transport.close() });
}

/** What {@link deliverMail} needs. */
export interface MailDeliveryOptions {
  db: Database;
  send: MailSender;
  from: string;
  /** The site's public origin, replacing {@link ORIGIN_TOKEN} in text, HTML and attachment content (e.g. an `.ics` URL). */
  origin: string;
  /** Admin recipient when settings.supportEmail is empty (OWNER_EMAIL or the owner's address). */
  adminEmail: string;
  /** Called once per delivery attempt with its outcome (metrics). */
  onAttempt?(outcome: "sent" | "retry" | "failed"): void;
  /**
   * The reply address of a user in a conversation (docs/product.md#email-replies), made when the
   * mail is sent; absent (no INBOUND_DOMAIN) → such mails have no Reply-To and say "reply in the portal".
   */
  replyAddress?(target: { proposalId: number; userId: string }): string;
  /** How long an attempt holds the mail, in seconds (default {@link MAIL_LEASE_SECONDS}, the job's expiry). */
  leaseSeconds?: number;
  /** The attempt gives up waiting for the SMTP server after this many ms (default: 40 % of the lease). */
  deadlineMs?: number;
}

/** What a conversation's mail says about answering it, with and without reply addresses. */
export const REPLY_HINTS = {
  byMail: "You can answer by replying to this e-mail: your reply is added to the conversation (keep it above the quoted text).",
  inPortal: "Please reply in the portal: answers to this e-mail are not read.",
} as const;

/** The data of a `mail` job. */
export interface MailJobData {
  mailId: number;
}

/** Why a mail to a deactivated user's address was not sent (its `lastError`). */
export const DEACTIVATED_RECIPIENT = "Not sent: the recipient's account is deactivated.";

/** @returns whether `address` is the e-mail of a deactivated (or closed) account. */
async function isDeactivatedAddress(db: Database, address: string): Promise<boolean> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, address.trim().toLowerCase()), eq(user.banned, true)));
  return row !== undefined;
}

/** Thrown when an attempt's deadline passes before the SMTP server answered. */
class DeadlineError extends Error {}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** The message of an outbox row as it is sent now (admin recipient, reply address and origin filled in). */
async function composeMessage(options: MailDeliveryOptions, row: OutboxRow): Promise<OutboxMessage> {
  const to = row.to === ADMIN_RECIPIENT ? (await getSettings(options.db)).supportEmail || options.adminEmail : row.to;
  // A conversation's mail: the recipient's reply address, made now (it works 60 days from now).
  const thread = parseReplyThreadMarker(row.replyTo);
  const replyTo = thread ? (options.replyAddress?.(thread) ?? null) : row.replyTo;
  const hint = replyTo && thread ? REPLY_HINTS.byMail : REPLY_HINTS.inPortal;
  const withOrigin = (value: string) => value.replaceAll(ORIGIN_TOKEN, options.origin).replaceAll(REPLY_HINT_TOKEN, hint);
  return {
    from: options.from,
    to,
    replyTo,
    subject: row.subject,
    text: withOrigin(row.text),
    html: row.html ? withOrigin(row.html) : row.html,
    headers: row.headers,
    attachments:
      row.attachments?.map((a) => ({
        ...a,
        // An .ics file is folded at 75 octets: a fold may split the token, so unfold first.
        content: a.encoding
          ? a.content
          : a.contentType.startsWith("text/calendar")
            ? replaceInIcs(a.content, ORIGIN_TOKEN, options.origin)
            : withOrigin(a.content),
      })) ?? row.attachments,
    id: row.id,
    messageId: outboxMessageId(row, options.origin),
  };
}

/**
 * The `mail` job's handler: one delivery attempt of one mail (docs/product.md#mail-delivery).
 *
 * @param job - the job; `job.data.mailId` is the outbox row.
 * @returns "sent", or "skipped" when the mail was sent, failed or deleted already.
 * @throws when the attempt failed (the queue retries it with back-off), or when another attempt
 *   holds the mail's lease (tried again later).
 */
export async function deliverMail(options: MailDeliveryOptions, job: Pick<JobRun<MailJobData>, "data">): Promise<"sent" | "skipped"> {
  const { db } = options;
  const mailId = job.data.mailId;
  const leaseSeconds = options.leaseSeconds ?? MAIL_LEASE_SECONDS;
  const leaseId = randomUUID();
  const [row] = await db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      lockedUntil: sql`now() + (${leaseSeconds} * interval '1 second')`,
      leaseId,
    })
    .where(
      and(
        eq(mailOutbox.id, mailId),
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .returning();
  if (!row) {
    const [held] = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.id, mailId), isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)));
    if (held) throw new Error("another delivery attempt holds this mail; trying again later");
    return "skipped";
  }

  const ours = and(eq(mailOutbox.id, row.id), eq(mailOutbox.leaseId, leaseId));
  // The one place every mail passes: a deactivated user's address gets nothing (issue #36), whatever
  // queued it and whenever — a mail queued before the deactivation included.
  if (await isDeactivatedAddress(db, row.to)) {
    await db
      .update(mailOutbox)
      .set({ failedAt: sql`now()`, lastError: DEACTIVATED_RECIPIENT, lockedUntil: null, leaseId: null })
      .where(ours);
    logger.info({ mailId: row.id }, "mail: not sent, the recipient's account is deactivated");
    return "skipped";
  }
  /** Marks the row sent while the lease is still this attempt's. */
  const markSent = async () => {
    const marked = await db
      .update(mailOutbox)
      .set({ sentAt: sql`now()`, lockedUntil: null, leaseId: null, lastError: null })
      .where(and(ours, isNull(mailOutbox.sentAt)))
      .returning({ id: mailOutbox.id });
    if (!marked.length) logger.error({ mailId: row.id }, "mail: sent after its lease had passed (another attempt may send it too)");
  };
  const sending = composeMessage(options, row).then((message) => options.send(message));
  // While the send is unsettled — past the deadline too, e.g. queued behind a slow message on a
  // pooled connection — the lease is renewed, so no other attempt (another process) sends the
  // mail a second time; a killed process stops renewing and its lease passes.
  const heartbeat = setInterval(
    () => {
      db.update(mailOutbox)
        .set({ lockedUntil: sql`now() + (${leaseSeconds} * interval '1 second')` })
        .where(and(ours, isNull(mailOutbox.sentAt)))
        .catch((e: unknown) => logger.warn({ err: e, mailId: row.id }, "mail: renewing the lease failed"));
    },
    Math.max(250, (leaseSeconds * 1000) / 4),
  );
  heartbeat.unref();
  void sending.then(
    () => clearInterval(heartbeat),
    () => clearInterval(heartbeat),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError("the SMTP server did not answer in time")), options.deadlineMs ?? leaseSeconds * 400);
  });
  try {
    await Promise.race([sending, deadline]);
  } catch (error) {
    const lastError = scrubSecrets(String((error as Error).message ?? error)).slice(0, 1000);
    if (error instanceof DeadlineError) {
      // The send may still end (the SMTP timeouts end it before the lease passes): keep the lease,
      // and record its outcome, so no other attempt starts while the server may still accept it.
      sending
        .then(markSent, async () => {
          await db.update(mailOutbox).set({ lockedUntil: null, leaseId: null }).where(ours);
        })
        .catch((e: unknown) => logger.error({ err: e, mailId: row.id }, "mail: recording a late outcome failed"));
      await db.update(mailOutbox).set({ lastError }).where(ours);
    } else {
      await db.update(mailOutbox).set({ lastError, lockedUntil: null, leaseId: null }).where(ours);
    }
    options.onAttempt?.("retry");
    throw new Error(lastError, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  await markSent();
  options.onAttempt?.("sent");
  return "sent";
}

/**
 * The `mail-failed` job's handler (the `mail` queue's dead letter): the last attempt failed, so the
 * mail is marked failed and shown to admins on /admin/outbox until one retries it.
 *
 * @returns whether the mail was marked (false: it was sent, failed or deleted already).
 */
export async function markMailFailed(
  options: Pick<MailDeliveryOptions, "db" | "onAttempt">,
  job: Pick<JobRun<MailJobData>, "data">,
): Promise<boolean> {
  const [row] = await options.db
    .update(mailOutbox)
    .set({ failedAt: sql`now()`, lockedUntil: null, leaseId: null })
    .where(and(eq(mailOutbox.id, job.data.mailId), isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
    .returning({ id: mailOutbox.id, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError });
  if (!row) return false;
  logger.error({ mailId: row.id, attempts: row.attempts, error: row.lastError }, "mail: failed for good, attempts exhausted");
  options.onAttempt?.("failed");
  return true;
}

/**
 * Runs the due `mail` jobs, then the due `mail-failed` ones, here and now (tests and scripts; the
 * server's job runner does this by itself).
 *
 * @returns mails sent, attempts failed (to be retried, or dead-lettered), and mails marked failed.
 */
export async function deliverDueMails(options: MailDeliveryOptions): Promise<{ sent: number; failed: number; dead: number }> {
  let sent = 0;
  let dead = 0;
  const { failed } = await runDueJobs<MailJobData>(options.db, "mail", async (job) => {
    if ((await deliverMail(options, job)) === "sent") sent++;
  });
  await runDueJobs<MailJobData>(options.db, "mail-failed", async (job) => {
    if (await markMailFailed(options, job)) dead++;
  });
  return { sent, failed, dead };
}

/**
 * PGlite only, at start: the leases still held were held by the process that stopped (one process
 * per data directory), so they are released and the mails' retried jobs can claim them.
 */
export async function releaseMailLeases(db: Database): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ lockedUntil: null, leaseId: null })
    .where(and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.leaseId)));
}

/**
 * Deletes sent outbox rows older than the retention, and rate-limit windows older than any
 * window (docs/product.md#mail-delivery).
 *
 * @param options.retentionDays - sent rows are kept this many days after sending.
 * @returns how many outbox rows and rate-limit windows were deleted.
 */
export async function purgeOutbox(db: Database, options: { retentionDays: number }): Promise<{ mails: number; rateWindows: number }> {
  const mails = await db
    .delete(mailOutbox)
    .where(and(isNotNull(mailOutbox.sentAt), lte(mailOutbox.sentAt, sql`now() - (${options.retentionDays} * interval '1 day')`)))
    .returning({ id: mailOutbox.id });
  const rateWindows = await purgeRateWindows(db);
  if (mails.length || rateWindows) logger.info({ mails: mails.length, rateWindows }, "mail: purged sent mails and old rate-limit windows");
  return { mails: mails.length, rateWindows };
}

/** Outbox rows not sent: `pending` (will be tried) and `failed` (attempts exhausted). */
export async function countOutbox(db: Database): Promise<{ pending: number; failed: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${mailOutbox.failedAt} is null)`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${mailOutbox.failedAt} is not null)`.mapWith(Number),
    })
    .from(mailOutbox)
    .where(isNull(mailOutbox.sentAt));
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0 };
}
