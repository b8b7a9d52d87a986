/**
 * The outbox worker: delivers queued mail through one pooled nodemailer transport with capped
 * exponential back-off and an attempt limit, and purges sent rows (docs/product.md#mail-delivery).
 *
 * Delivery is at-least-once: a row is claimed (locked for `lockMs`) with
 * `FOR UPDATE SKIP LOCKED`, so several app instances never send the same row
 * concurrently; it is marked sent right after the SMTP server accepts it.
 */
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Database } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { replaceInIcs } from "#app/lib/ics-text";
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
 * Builds the sender: SMTP when `smtpUrl` is set — one pooled transport (up to 3 connections
 * reused across messages) — otherwise `.eml` files in `outboxDir`.
 *
 * @param options.smtpUrl - e.g. `smtp://user:pass@host:587`.
 * @param options.outboxDir - folder for `.eml` files when there is no SMTP server.
 * @param options.pool - reuse SMTP connections (default true; false opens one per message, for the benchmark).
 */
export function createMailSender(options: { smtpUrl?: string; outboxDir: string; pool?: boolean }): MailSender {
  const pooled = options.pool ?? true;
  const transport = options.smtpUrl
    ? pooled
      ? nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: 3, maxMessages: 500 })
      : nodemailer.createTransport(options.smtpUrl)
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
        encoding: a.encoding,
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

export interface OutboxOptions {
  db: Database;
  send: MailSender;
  from: string;
  /** The site's public origin, replacing {@link ORIGIN_TOKEN} in text, HTML and attachment content (e.g. an `.ics` URL). */
  origin: string;
  /** Admin recipient when settings.supportEmail is empty (OWNER_EMAIL or the owner's address). */
  adminEmail: string;
  /** Poll interval in ms (default 1000); a full batch is followed by the next one at once. */
  intervalMs?: number;
  /** Delay before the second attempt in ms; doubles each attempt (default {@link OUTBOX_BASE_DELAY_MS}). */
  baseDelayMs?: number;
  /** Retry delay cap in ms (default {@link OUTBOX_MAX_DELAY_MS}). */
  maxDelayMs?: number;
  /** Attempts before the row is marked failed (default {@link OUTBOX_MAX_ATTEMPTS}). */
  maxAttempts?: number;
  /** How long a claimed row stays locked to this worker (default 60 s). */
  lockMs?: number;
  /** Rows claimed per batch (default 20). */
  batchSize?: number;
  /** Sent rows older than this many days are purged (default 30). */
  retentionDays?: number;
  /** How often the purge runs, in ms (default 1 hour; the first run is a minute after start). */
  purgeIntervalMs?: number;
  /** Called once per delivery attempt with its outcome (metrics). */
  onAttempt?(outcome: "sent" | "retry" | "failed"): void;
  /**
   * The reply address of a user in a conversation (docs/product.md#email-replies), made when the
   * mail is sent; absent (no INBOUND_DOMAIN) → such mails have no Reply-To and say "reply in the portal".
   */
  replyAddress?(target: { proposalId: number; userId: string }): string;
}

/** What a conversation's mail says about answering it, with and without reply addresses. */
export const REPLY_HINTS = {
  byMail: "You can answer by replying to this e-mail: your reply is added to the conversation (keep it above the quoted text).",
  inPortal: "Please reply in the portal: answers to this e-mail are not read.",
} as const;

/** Default delay before the second attempt: 3 minutes. */
export const OUTBOX_BASE_DELAY_MS = 3 * 60_000;
/** Default cap of the delay between attempts: 8 hours. */
export const OUTBOX_MAX_DELAY_MS = 8 * 60 * 60_000;
/**
 * Default attempts per mail: with the defaults the 10th attempt comes about 21 hours after the
 * first (3, 6, 12 … 384 minutes, then 8 hours), then the row is failed.
 */
export const OUTBOX_MAX_ATTEMPTS = 10;

/**
 * The delay before attempt `attempts + 1`, after `attempts` failed attempts.
 *
 * @returns `min(maxDelayMs, baseDelayMs × 2^(attempts − 1))` in ms.
 */
export function retryDelayMs(attempts: number, baseDelayMs = OUTBOX_BASE_DELAY_MS, maxDelayMs = OUTBOX_MAX_DELAY_MS): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims due rows and tries to send each once (docs/product.md#mail-delivery). A failure is
 * retried after {@link retryDelayMs}; the `maxAttempts`-th failure marks the row failed.
 *
 * @returns how many messages were sent, failed for now (will be retried) and failed for good in this pass, and how many rows were claimed.
 */
export async function processOutboxOnce(options: OutboxOptions): Promise<{ sent: number; failed: number; dead: number; claimed: number }> {
  const { db, send, from } = options;
  const maxAttempts = options.maxAttempts ?? OUTBOX_MAX_ATTEMPTS;
  const lockMs = options.lockMs ?? 60_000;
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        lte(mailOutbox.nextAttemptAt, sql`now()`),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(options.batchSize ?? 20)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(mailOutbox)
    .set({
      lockedUntil: sql`now() + (${lockMs} * interval '1 millisecond')`,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();

  let sent = 0;
  let failed = 0;
  let dead = 0;
  for (const row of claimed) {
    try {
      const to = row.to === ADMIN_RECIPIENT ? (await getSettings(db)).supportEmail || options.adminEmail : row.to;
      // A conversation's mail: the recipient's reply address, made now (it works 60 days from now).
      const thread = parseReplyThreadMarker(row.replyTo);
      const replyTo = thread ? (options.replyAddress?.(thread) ?? null) : row.replyTo;
      const hint = replyTo && thread ? REPLY_HINTS.byMail : REPLY_HINTS.inPortal;
      const withOrigin = (value: string) => value.replaceAll(ORIGIN_TOKEN, options.origin).replaceAll(REPLY_HINT_TOKEN, hint);
      await send({
        from,
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
            content: a.contentType.startsWith("text/calendar")
              ? replaceInIcs(a.content, ORIGIN_TOKEN, options.origin)
              : withOrigin(a.content),
          })) ?? row.attachments,
        id: row.id,
        messageId: outboxMessageId(row, options.origin),
      });
      await db
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
      options.onAttempt?.("sent");
    } catch (error) {
      const lastError = scrubSecrets(String((error as Error).message ?? error)).slice(0, 1000);
      if (row.attempts >= maxAttempts) {
        await db
          .update(mailOutbox)
          .set({ failedAt: sql`now()`, lockedUntil: null, lastError })
          .where(eq(mailOutbox.id, row.id));
        logger.error({ mailId: row.id, attempts: row.attempts, error: lastError }, "mail: failed for good, attempts exhausted");
        dead++;
        options.onAttempt?.("failed");
      } else {
        const delay = retryDelayMs(row.attempts, options.baseDelayMs, options.maxDelayMs);
        await db
          .update(mailOutbox)
          .set({ nextAttemptAt: sql`now() + (${delay} * interval '1 millisecond')`, lockedUntil: null, lastError })
          .where(eq(mailOutbox.id, row.id));
        logger.warn({ mailId: row.id, attempts: row.attempts, retryInMs: delay, error: lastError }, "mail: attempt failed, will retry");
        failed++;
        options.onAttempt?.("retry");
      }
    }
  }
  if (sent) logger.info({ sent }, "mail: sent");
  return { sent, failed, dead, claimed: claimed.length };
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

/** A running worker. */
export interface OutboxWorker {
  /** Runs a pass now (also used by tests). */
  runOnce(): Promise<{ sent: number; failed: number; dead: number; claimed: number }>;
  /** Stops polling and waits for the current pass (its batch is finished, not cut). */
  stop(): Promise<void>;
}

/**
 * Starts polling the outbox every `intervalMs` (at once again after a full batch) and purging
 * every `purgeIntervalMs`. Errors (e.g. database briefly down) are logged and the next pass
 * tries again.
 */
export function startOutboxWorker(options: OutboxOptions): OutboxWorker {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const purgeIntervalMs = options.purgeIntervalMs ?? 60 * 60_000;
  let nextPurge = Date.now() + Math.min(60_000, purgeIntervalMs);
  const runOnce = () => {
    const pass = current.then(() => processOutboxOnce(options));
    current = pass.catch(() => undefined);
    return pass;
  };
  const tick = async () => {
    let full = false;
    try {
      const { claimed } = await runOnce();
      full = claimed >= (options.batchSize ?? 20);
      if (Date.now() >= nextPurge && !stopped) {
        nextPurge = Date.now() + purgeIntervalMs;
        const purge = current.then(() => purgeOutbox(options.db, { retentionDays: options.retentionDays ?? 30 }));
        current = purge.catch(() => undefined);
        await purge;
      }
    } catch (error) {
      logger.error({ err: error }, "mail: outbox pass failed");
    }
    if (!stopped) timer = setTimeout(tick, full ? 0 : (options.intervalMs ?? 1_000));
  };
  timer = setTimeout(tick, 0);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      options.send.close?.();
    },
  };
}
