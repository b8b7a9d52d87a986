/**
 * Failed jobs for the admin (docs/product.md#admin-outbox, ADR 019): the jobs of every queue but
 * `mail` (a failed mail is listed as a mail) whose last attempt failed, and the audited "Retry".
 */
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError } from "#app/lib/errors";
import { scrubSecrets } from "#app/lib/logger.server";
import { retryJob } from "./jobs.server";
import { job } from "./job-table.server";

/** One failed job as /admin/outbox shows it. */
export interface FailedJobRow {
  id: string;
  queue: string;
  /** The job's input (ids), as JSON text. */
  data: string;
  attempts: number;
  failedAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

/** How many failed jobs the page lists. */
export const FAILED_JOBS_LIMIT = 100;

const failedOther = and(eq(job.state, "failed"), ne(job.name, "mail"));

/**
 * The failed jobs, most recent failure first, at most {@link FAILED_JOBS_LIMIT}, with the full count.
 *
 * @throws {AppError} FORBIDDEN unless the actor is an admin.
 */
export async function listFailedJobsForAdmin(db: Database, actor: Actor | null): Promise<{ jobs: FailedJobRow[]; count: number }> {
  assertRole(actor, "admin");
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: job.id,
        queue: job.name,
        data: sql<string>`${job.data}::text`,
        attempts: sql<number>`${job.retryCount} + 1`.mapWith(Number),
        failedAt: job.completedOn,
        output: job.output,
        createdAt: job.createdOn,
      })
      .from(job)
      .where(failedOther)
      .orderBy(desc(job.completedOn), desc(job.id))
      .limit(FAILED_JOBS_LIMIT),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(job)
      .where(failedOther),
  ]);
  return {
    jobs: rows.map(({ output, ...row }) => {
      const message = output?.message ?? output?.value?.message ?? null;
      return { ...row, lastError: message === null ? null : scrubSecrets(String(message)).slice(0, 1000) };
    }),
    count: counted?.n ?? 0,
  };
}

/**
 * Puts a failed job back in its queue for one more attempt now; records an audit event
 * (`job` #id `retry`, with its queue).
 *
 * @param jobId - the job's UUID (from the form; anything else is NOT_FOUND).
 * @returns the job's queue, for the confirmation message.
 * @throws {AppError} FORBIDDEN unless the actor is an admin; NOT_FOUND when no failed job has this id
 *   (retried meanwhile, archived, or a mail's job).
 */
export async function retryFailedJob(db: Database, actor: Actor | null, jobId: string): Promise<{ queue: string }> {
  assertRole(actor, "admin");
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobId)) throw new AppError("NOT_FOUND", JOB_GONE);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: job.name, retryCount: job.retryCount })
      .from(job)
      .where(and(eq(job.id, jobId), failedOther))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", JOB_GONE);
    await retryJob(tx, row.name, jobId);
    // pg-boss keeps a failed job's start time (in the past): the retry runs at the next poll.
    await recordAudit(tx, actor, {
      entity: "job",
      entityId: jobId,
      action: "retry",
      before: { state: "failed", attempts: row.retryCount + 1 },
      after: { state: "retry", queue: row.name },
    });
    return { queue: row.name };
  });
}

const JOB_GONE = "This job is not failed any more (it may have been retried meanwhile).";
