/**
 * The admin's view of the mail outbox (docs/product.md#admin-outbox): mails not sent yet —
 * failed ones (attempts exhausted) first, then pending ones — and the audited "Retry" action.
 */
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { cancelWaitingJob, enqueueJob } from "#app/features/jobs/jobs.server";
import { job } from "#app/features/jobs/job-table.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError } from "#app/lib/errors";
import { ADMIN_RECIPIENT } from "./notifications.server";

/** One unsent mail as the admin page shows it (no body: subject and recipient only). */
export interface OutboxListRow {
  id: number;
  to: string;
  subject: string;
  attempts: number;
  state: "failed" | "pending";
  /** When it will be tried next (pending; its job's start time) or null (failed, or being sent now). */
  nextAttemptAt: Date | null;
  /** An attempt is running now (its job is active). */
  sending: boolean;
  failedAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

/** How many rows of each list the page shows. */
export const OUTBOX_LIST_LIMIT = 100;

/**
 * Failed and pending mails for `/admin/outbox`, each list oldest first, at most
 * {@link OUTBOX_LIST_LIMIT} rows each, with the full counts.
 *
 * @throws {AppError} FORBIDDEN unless the actor is an admin.
 */
export async function listOutboxForAdmin(
  db: Database,
  actor: Actor | null,
): Promise<{ failed: OutboxListRow[]; pending: OutboxListRow[]; failedCount: number; pendingCount: number }> {
  assertRole(actor, "admin");
  // The next attempt is the mail's job's start time (pg-boss sets it at each retry).
  const nextAttemptAt = sql<Date>`coalesce(${job.startAfter}, ${mailOutbox.nextAttemptAt})`.mapWith(mailOutbox.nextAttemptAt);
  const columns = {
    id: mailOutbox.id,
    to: mailOutbox.to,
    subject: mailOutbox.subject,
    attempts: mailOutbox.attempts,
    nextAttemptAt,
    sending: sql<boolean>`coalesce(${job.state} = 'active', false)`,
    failedAt: mailOutbox.failedAt,
    lastError: mailOutbox.lastError,
    createdAt: mailOutbox.createdAt,
  };
  const mailJob = and(eq(job.name, "mail"), eq(job.id, mailOutbox.jobId));
  const [failedRows, pendingRows, [counts]] = await Promise.all([
    db
      .select(columns)
      .from(mailOutbox)
      .leftJoin(job, mailJob)
      .where(and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.failedAt)))
      .orderBy(desc(mailOutbox.failedAt), desc(mailOutbox.id))
      .limit(OUTBOX_LIST_LIMIT),
    db
      .select(columns)
      .from(mailOutbox)
      .leftJoin(job, mailJob)
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
      .orderBy(asc(nextAttemptAt), asc(mailOutbox.id))
      .limit(OUTBOX_LIST_LIMIT),
    db
      .select({
        failed: sql<number>`count(*) filter (where ${mailOutbox.failedAt} is not null)`.mapWith(Number),
        pending: sql<number>`count(*) filter (where ${mailOutbox.failedAt} is null)`.mapWith(Number),
      })
      .from(mailOutbox)
      .where(isNull(mailOutbox.sentAt)),
  ]);
  const shape = (state: OutboxListRow["state"]) => (row: (typeof failedRows)[number]) => ({
    ...row,
    to: row.to === ADMIN_RECIPIENT ? "the admin (support e-mail)" : row.to,
    state,
    nextAttemptAt: state === "pending" && !row.sending ? row.nextAttemptAt : null,
  });
  return {
    failed: failedRows.map(shape("failed")),
    pending: pendingRows.map(shape("pending")),
    failedCount: counts?.failed ?? 0,
    pendingCount: counts?.pending ?? 0,
  };
}

/**
 * Puts an unsent mail back in the queue for an attempt now, with a fresh attempt budget: a new
 * delivery job (its waiting job, if any, is cancelled); records an audit event (`mail` #id `retry`,
 * attempts and failed time before → after).
 *
 * @returns the mail's recipient and subject, for the confirmation message.
 * @throws {AppError} FORBIDDEN unless the actor is an admin; NOT_FOUND when the mail does not
 *   exist or was sent already.
 */
export async function retryOutboxMail(db: Database, actor: Actor | null, id: number): Promise<{ to: string; subject: string }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        attempts: mailOutbox.attempts,
        failedAt: mailOutbox.failedAt,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        jobId: mailOutbox.jobId,
      })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", "This mail is not in the outbox any more (it may have been sent meanwhile).");
    if (row.jobId) await cancelWaitingJob(tx, "mail", row.jobId);
    const jobId = randomUUID();
    // A running attempt keeps its lease: the new job waits for it (and skips the mail once it is sent).
    await tx
      .update(mailOutbox)
      .set({ attempts: 0, failedAt: null, nextAttemptAt: sql`now()`, jobId })
      .where(eq(mailOutbox.id, id));
    await enqueueJob(tx, "mail", { mailId: id }, { id: jobId });
    await recordAudit(tx, actor, {
      entity: "mail",
      entityId: id,
      action: "retry",
      before: { attempts: row.attempts, failedAt: row.failedAt },
      after: { attempts: 0, failedAt: null },
    });
    return { to: row.to === ADMIN_RECIPIENT ? "the admin" : row.to, subject: row.subject };
  });
}
