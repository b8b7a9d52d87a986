/**
 * The job runner (ADR 019): one pg-boss instance per server process, on the app's own database
 * connection (PGlite's single connection, or the pg pool — no connection of its own), that
 * fetches due jobs (`FOR UPDATE SKIP LOCKED`, so each job runs in one process at a time), runs
 * their handlers, retries failures with back-off, enqueues the cron jobs once per minute across
 * all processes, and fails jobs whose process died once they expire.
 *
 * Stopping (SIGTERM): the runner stops fetching at once, waits for the running handlers up to the
 * given timeout, then fails whatever still runs (it is retried later).
 */
import PgBoss from "pg-boss";
import type { DbHandle } from "#app/db/client.server";
import { logger } from "#app/lib/logger.server";
import { JOB_SCHEMA, type JobHandler, type JobRun, type SqlExecutor } from "./jobs.server";

export type { JobHandler, JobRun } from "./jobs.server";
import { JOB_QUEUES, JOB_SCHEDULES, type JobName, type QueueOptions } from "./queues";

/** A queue's handler and how many of its jobs one process runs at once. */
export interface WorkerSpec {
  handler: JobHandler<never>;
  /** Jobs of this queue run at once in this process (default 1). */
  concurrency?: number;
  /** Seconds between polls while the queue is empty (default 2). */
  pollingIntervalSeconds?: number;
}

/** A running job queue. */
export interface JobRunner {
  /** Stops fetching, waits up to `timeoutMs` for the running jobs, then fails those still running. */
  stop(timeoutMs?: number): Promise<void>;
  /** Jobs per queue and state (for /metrics). */
  counts(): Promise<Array<{ queue: string; state: string; count: number }>>;
}

/** Options of {@link startJobRunner}. */
export interface JobRunnerOptions {
  handle: Pick<DbHandle, "executeSql" | "driver">;
  workers: Partial<Record<JobName, WorkerSpec>>;
  /** Queue options over {@link JOB_QUEUES} (e.g. the mail's attempts from OUTBOX_MAX_ATTEMPTS). */
  queues?: Partial<Record<JobName, Partial<QueueOptions>>>;
  /** Cron lines (default {@link JOB_SCHEDULES}); a schedule in the database not listed here is removed. */
  schedules?: Partial<Record<JobName, string>>;
  /** Seconds between maintenance passes (expiry of jobs whose process died; default 30). */
  maintenanceIntervalSeconds?: number;
}

/** Failed jobs stay visible (and retryable on /admin/outbox) this long before pg-boss archives them. */
const KEEP_FAILED_SECONDS = 30 * 24 * 3600;

/**
 * Starts the job queue in this process.
 *
 * On PGlite there is exactly one process (the data directory is locked), so a job still `active`
 * at start was running when the previous process died: it is failed at once (and so retried)
 * instead of waiting for its expiry.
 *
 * @throws {Error} when the database lacks the queue's schema (migrations not applied).
 */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const db: SqlExecutor = { executeSql: (text, values) => options.handle.executeSql(text, values) };
  const boss = new PgBoss({
    db: settleJobsQuietly(db),
    schema: JOB_SCHEMA,
    migrate: false,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    archiveFailedAfterSeconds: KEEP_FAILED_SECONDS,
    // Cron: checked every 30 s by one process at a time (an advisory timestamp in pgboss.version).
    cronMonitorIntervalSeconds: 30,
    cronWorkerIntervalSeconds: 5,
  });
  boss.on("error", (error: Error & { queue?: string }) => logger.error({ err: error, queue: error.queue }, "jobs: queue error"));
  // Queues and cron lines first (through an instance that is never started: statements only), so
  // the timekeeper's first pass, right at start, already sees every schedule.
  const setup = new PgBoss({ db, schema: JOB_SCHEMA, migrate: false, schedule: false, supervise: false });
  for (const [name, defaults] of Object.entries(JOB_QUEUES) as [JobName, QueueOptions][]) {
    const queue = { name, ...defaults, ...options.queues?.[name] };
    await setup.createQueue(name, queue);
    await setup.updateQueue(name, queue);
  }
  const schedules = options.schedules ?? JOB_SCHEDULES;
  for (const existing of await setup.getSchedules()) {
    if (!(existing.name in schedules)) await setup.unschedule(existing.name);
  }
  for (const [name, cron] of Object.entries(schedules)) await setup.schedule(name, cron, {}, { tz: "UTC", singletonKey: name });

  await boss.start();
  try {
    if (options.handle.driver === "pglite") await failOrphans(boss, db);

    for (const [name, spec] of Object.entries(options.workers) as [JobName, WorkerSpec][]) {
      for (let i = 0; i < (spec.concurrency ?? 1); i++) {
        let workerId = "";
        workerId = await boss.work<Record<string, unknown>>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: spec.pollingIntervalSeconds ?? 2 },
          async ([job]) => {
            if (!job) return;
            // pg-boss 10 waits a polling interval after every fetch, even a fruitful one: after a job,
            // fetch the next one at once (a backlog drains at the handler's pace, not one per interval).
            queueMicrotask(() => boss.notifyWorker(workerId));
            const run: JobRun = {
              id: job.id,
              name,
              data: job.data,
              retryCount: job.retryCount,
              retryLimit: job.retryLimit,
              startedOn: job.startedOn,
              expireInSeconds: Number((job as { expireInSeconds?: number }).expireInSeconds ?? JOB_QUEUES[name].expireInSeconds),
            };
            // The outcome is written here, awaited (pg-boss's own complete/fail after a handler is
            // not awaited: a process stopping right then would leave the job active until it expires).
            // pg-boss's later call then finds the job no longer active and changes nothing.
            try {
              await (spec.handler as JobHandler)(run);
            } catch (error) {
              const last = run.retryCount >= run.retryLimit;
              logger[last ? "error" : "warn"](
                { err: error, queue: name, jobId: job.id, attempt: run.retryCount + 1, attempts: run.retryLimit + 1 },
                last ? "jobs: last attempt failed" : "jobs: attempt failed, will retry",
              );
              await boss.fail(name, job.id, error as object);
              return;
            }
            await boss.complete(name, job.id);
          },
        );
      }
    }
  } catch (error) {
    await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    stop(timeoutMs = 10_000) {
      stopping ??= boss.stop({ graceful: true, timeout: Math.max(1_000, timeoutMs), wait: true, close: false });
      return stopping;
    },
    async counts() {
      const { rows } = await db.executeSql(
        `select name as queue, state::text as state, count(*)::int as count from ${JOB_SCHEMA}.job group by 1, 2`,
      );
      return rows as Array<{ queue: string; state: string; count: number }>;
    },
  };
}

/** pg-boss's statements that complete or fail jobs by id (`… id IN (SELECT UNNEST($2::uuid[])) …`). */
const SETTLE_BY_ID = /WHERE name = \$1\s+AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/;

/**
 * The worker instance's executor: pg-boss completes or fails a job after its handler without
 * awaiting the statement, so a database outage at that moment would be an unhandled rejection that
 * ends the process (found by tests/e2e/errors.spec.ts). Those statements' failures are logged and
 * answered "nothing changed": the job stays active until its expiry, then is retried — as when a
 * process stops mid-job. Every other statement's failure is the caller's.
 */
function settleJobsQuietly(db: SqlExecutor): SqlExecutor {
  return {
    async executeSql(text, values) {
      try {
        return await db.executeSql(text, values);
      } catch (error) {
        if (!SETTLE_BY_ID.test(text)) throw error;
        logger.warn({ err: error }, "jobs: recording a job's outcome failed; it is retried after its expiry");
        return { rows: [{ count: 0 }] } as Awaited<ReturnType<SqlExecutor["executeSql"]>>;
      }
    },
  };
}

/** PGlite only: fails (so retries) the jobs left `active` by a process that died. */
async function failOrphans(boss: PgBoss, db: SqlExecutor): Promise<void> {
  const { rows } = await db.executeSql(`select name, id from ${JOB_SCHEMA}.job where state = 'active'`);
  for (const { name, id } of rows as Array<{ name: string; id: string }>) {
    await boss.fail(name, id, { message: "the process stopped while the job ran" });
  }
  if (rows.length) logger.warn({ jobs: rows.length }, "jobs: retrying the jobs a stopped process left running");
}
