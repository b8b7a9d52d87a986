/**
 * Queuing e-mail: every message goes into the `mail_outbox` table with its delivery job (queue
 * `mail`, ADR 019), inside the caller's transaction when it has one, and is delivered by the job's
 * handler (`outbox.server.ts`). A mail accepted here survives an SMTP outage and a restart.
 */
import { randomUUID } from "node:crypto";
import type { SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { enqueueJob } from "#app/features/jobs/jobs.server";

/** A message to queue. `html` is optional; `text` is always sent as the plain part. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Small attachments: text (e.g. an `.ics` invite), or binary as base64 with `encoding: "base64"` (a certificate PDF). */
  attachments?: { filename: string; contentType: string; content: string; encoding?: "base64" }[];
  /** Extra header fields, e.g. `Auto-Submitted: auto-replied` on an automatic answer. */
  headers?: Record<string, string>;
}

/**
 * Inserts one message into the outbox.
 *
 * @param q - the database, or the transaction the mail belongs to.
 * @returns the outbox row id.
 */
export function enqueueMail(q: Queryable, mail: OutgoingMail): Promise<number> {
  return insertOutboxRow(q, {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo,
    attachments: mail.attachments ?? null,
    headers: mail.headers ?? null,
  });
}

/**
 * Inserts an outbox row and its delivery job, both or neither (a savepoint inside the caller's
 * transaction). The job starts at the row's `nextAttemptAt` (now unless given).
 *
 * @param q - the database, or the transaction the mail belongs to.
 * @returns the outbox row id.
 */
export async function insertOutboxRow(
  q: Queryable,
  values: Omit<typeof mailOutbox.$inferInsert, "nextAttemptAt"> & { nextAttemptAt?: Date | SQL },
): Promise<number> {
  return q.transaction(async (tx) => {
    const jobId = randomUUID();
    const [row] = await tx
      .insert(mailOutbox)
      .values({ ...values, jobId })
      .returning({ id: mailOutbox.id, nextAttemptAt: mailOutbox.nextAttemptAt });
    await enqueueJob(tx, "mail", { mailId: row!.id }, { id: jobId, startAfter: row!.nextAttemptAt });
    return row!.id;
  });
}

/** Escapes text for inclusion in an HTML mail body. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
