/**
 * The outbox worker: delivers queued mail through nodemailer with exponential back-off.
 *
 * Delivery is at-least-once: a row is claimed (locked for `lockMs`) with
 * `FOR UPDATE SKIP LOCKED`, so several app instances never send the same row
 * concurrently; it is marked sent right after the SMTP server accepts it.
 */
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Database } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { replaceInIcs } from "#app/lib/ics-text";
import { ADMIN_RECIPIENT, ORIGIN_TOKEN } from "./notifications.server";

/** Sends one message; rejects when the transport refuses it. */
export type MailSender = (message: {
  from: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: { filename: string; contentType: string; content: string }[] | null;
  /** Outbox id, used for a stable Message-ID. */
  id: number;
}) => Promise<void>;

/**
 * Builds the sender: SMTP when `smtpUrl` is set, otherwise `.eml` files in `outboxDir`.
 *
 * @param options.smtpUrl - e.g. `smtp://user:pass@host:587`.
 * @param options.outboxDir - folder for `.eml` files when there is no SMTP server.
 */
export function createMailSender(options: { smtpUrl?: string; outboxDir: string }): MailSender {
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return async (message) => {
    const info = await transport.sendMail({
      from: message.from,
      to: message.to,
      replyTo: message.replyTo ?? undefined,
      subject: message.subject,
      text: message.text,
      html: message.html ?? undefined,
      attachments: message.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      messageId: `<outbox-${message.id}-${Date.now()}@portal>`,
    });
    if (!options.smtpUrl) {
      fs.mkdirSync(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.id}.eml`);
      fs.writeFileSync(file, (info as unknown as { message: Buffer }).message);
    }
  };
}

export interface OutboxOptions {
  db: Database;
  send: MailSender;
  from: string;
  /** The site's public origin, replacing {@link ORIGIN_TOKEN} in text, HTML and attachment content (e.g. an `.ics` URL). */
  origin: string;
  /** Admin recipient when settings.supportEmail is empty (OWNER_EMAIL or the owner's address). */
  adminEmail: string;
  /** Poll interval in ms (default 1000). */
  intervalMs?: number;
  /** First retry delay in ms; doubles each attempt (default 5000). */
  baseDelayMs?: number;
  /** Retry delay cap in ms (default 15 minutes). */
  maxDelayMs?: number;
  /** How long a claimed row stays locked to this worker (default 60 s). */
  lockMs?: number;
  /** Rows claimed per batch (default 20). */
  batchSize?: number;
}

/**
 * Claims due rows and tries to send each once.
 *
 * @returns how many messages were sent and how many failed in this pass.
 */
export async function processOutboxOnce(options: OutboxOptions): Promise<{ sent: number; failed: number }> {
  const { db, send, from } = options;
  const baseDelayMs = options.baseDelayMs ?? 5_000;
  const maxDelayMs = options.maxDelayMs ?? 15 * 60_000;
  const lockMs = options.lockMs ?? 60_000;
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.sentAt),
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
  const withOrigin = (value: string) => value.replaceAll(ORIGIN_TOKEN, options.origin);
  for (const row of claimed) {
    try {
      const to = row.to === ADMIN_RECIPIENT ? (await getSettings(db)).supportEmail || options.adminEmail : row.to;
      await send({
        from,
        to,
        replyTo: row.replyTo,
        subject: row.subject,
        text: withOrigin(row.text),
        html: row.html ? withOrigin(row.html) : row.html,
        attachments:
          row.attachments?.map((a) => ({
            ...a,
            // An .ics file is folded at 75 octets: a fold may split the token, so unfold first.
            content: a.contentType.startsWith("text/calendar")
              ? replaceInIcs(a.content, ORIGIN_TOKEN, options.origin)
              : withOrigin(a.content),
          })) ?? row.attachments,
        id: row.id,
      });
      await db
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    } catch (error) {
      const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (row.attempts - 1));
      await db
        .update(mailOutbox)
        .set({
          nextAttemptAt: sql`now() + (${delay} * interval '1 millisecond')`,
          lockedUntil: null,
          lastError: String((error as Error).message ?? error).slice(0, 1000),
        })
        .where(eq(mailOutbox.id, row.id));
      failed++;
    }
  }
  return { sent, failed };
}

/** A running worker. */
export interface OutboxWorker {
  /** Runs a pass now (also used by tests). */
  runOnce(): Promise<{ sent: number; failed: number }>;
  /** Stops polling and waits for the current pass. */
  stop(): Promise<void>;
}

/**
 * Starts polling the outbox every `intervalMs`. Errors (e.g. database briefly down) are
 * logged and the next pass tries again.
 */
export function startOutboxWorker(options: OutboxOptions): OutboxWorker {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const runOnce = () => {
    const pass = current.then(() => processOutboxOnce(options));
    current = pass.catch(() => undefined);
    return pass;
  };
  const tick = async () => {
    try {
      const { sent, failed } = await runOnce();
      if (failed) console.warn(`[mail] ${failed} message(s) failed, will retry; ${sent} sent`);
    } catch (error) {
      console.error("[mail] outbox pass failed:", (error as Error).message);
    }
    if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 1_000);
  };
  timer = setTimeout(tick, 0);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
