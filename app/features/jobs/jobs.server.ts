/**
 * Enqueuing jobs (ADR 019): one small API for every use-case that causes background work —
 * `enqueueJob(tx, name, data, options)` writes the job into the queue's table (`pgboss.job`)
 * inside the caller's transaction, so the job exists if and only if the write that causes it
 * committed. The job runs later in whichever process's runner fetches it first
 * (`runner.server.ts`), with the queue's retries and back-off (`queues.ts`).
 *
 * Inside `db.transaction(tx => …)` pass `tx` (on PGlite, touching the outer `db` there deadlocks).
 */
import PgBoss from "pg-boss";
import type { Queryable } from "#app/db/client.server";
import type { JobName } from "./queues";

/** The schema pg-boss's tables live in (created by migration 0026). */
export const JOB_SCHEMA = "pgboss";

/** pg-boss's database interface: one statement with `$n` parameters, or several without. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The driver's client under a Drizzle database or transaction: a pg Pool/PoolClient or a PGlite (transaction). */
interface DriverClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss's `db` interface on a Drizzle database or transaction: its statements go to the driver
 * client Drizzle holds for `q` (the transaction's connection, or PGlite's transaction), so they
 * run inside `q`'s transaction when `q` is one. pg-boss's statements reuse a parameter in several
 * places with different types (`right($5, 1)`, `CAST($5 as timestamptz)`), so they must reach the
 * driver as written — not rebuilt by Drizzle, which binds one parameter per occurrence.
 * (Drizzle keeps the client in `session.client`; the tests of this module run on both drivers.)
 *
 * @param q - the database, or the transaction the job belongs to.
 */
export function executorOf(q: Queryable): SqlExecutor {
  const client = (q as unknown as { session?: { client?: DriverClient } }).session?.client;
  if (!client || typeof client.query !== "function") throw new Error("executorOf: no driver client under this database handle");
  return {
    async executeSql(text, values = []) {
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

let sender: PgBoss | undefined;
/** A pg-boss instance used only for its statements, each run on the executor passed to it (never started: it holds no connection). */
function jobSender(): PgBoss {
  sender ??= new PgBoss({
    db: {
      executeSql: () => Promise.reject(new Error("enqueueJob: pass the database or transaction to write the job with")),
    },
    schedule: false,
    supervise: false,
    migrate: false,
  });
  return sender;
}

/** When and how a job runs; unset options take the queue's (`JOB_QUEUES`). */
export interface EnqueueOptions {
  /** Not before this instant (UTC), or this many seconds from now. Default: at once. */
  startAfter?: Date | number;
  /**
   * With `singletonSeconds`: at most one job per key and time slot (the others are dropped and
   * `enqueueJob` returns null) — e.g. "issue this plan's invoice for this period once".
   */
  singletonKey?: string;
  /** The slot length for `singletonKey`, in seconds. */
  singletonSeconds?: number;
  /** Retries after the first attempt. */
  retryLimit?: number;
  /** First retry delay in seconds (doubling with `retryBackoff`). */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** An attempt running longer is failed (and retried), in seconds. */
  expireInSeconds?: number;
  /** The job's id (a UUID), e.g. to store it on the record the job works on. */
  id?: string;
}

/**
 * Enqueues one job in the caller's transaction (ADR 019).
 *
 * @param q - the transaction of the write that causes the job (or the database for a job of its own).
 * @param name - the queue (`queues.ts`).
 * @param data - the job's input, stored as JSON: ids and small values, never secrets (it is shown
 *   to admins on /admin/outbox when the job fails).
 * @returns the job id (UUID), or null when a `singletonKey` slot already holds one.
 * @throws {Error} when the queue has no row in the database (a migration is missing).
 */
export async function enqueueJob(
  q: Queryable,
  name: JobName,
  data: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const db = executorOf(q);
  const given = {
    id: options.id,
    startAfter: typeof options.startAfter === "number" ? Math.max(0, Math.ceil(options.startAfter)) : options.startAfter,
    singletonKey: options.singletonKey,
    singletonSeconds: options.singletonSeconds,
    retryLimit: options.retryLimit,
    retryDelay: options.retryDelaySeconds,
    retryBackoff: options.retryBackoff,
    expireInSeconds: options.expireInSeconds,
  };
  // pg-boss validates every key present: pass only the options given.
  const sendOptions = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as PgBoss.SendOptions;
  const id = await jobSender().send(name, data, { ...sendOptions, db });
  if (id === null) {
    // pg-boss's insert joins the queue's row: a missing queue looks like a dropped duplicate.
    const { rows } = await db.executeSql(`select 1 from ${JOB_SCHEMA}.queue where name = $1`, [name]);
    if (!rows.length)
      throw new Error(`enqueueJob: the queue "${name}" does not exist (add it in a migration, see app/features/jobs/queues.ts)`);
  }
  return id;
}

/** One attempt of a job, as its handler receives it. */
export interface JobRun<T = Record<string, unknown>> {
  id: string;
  name: JobName;
  data: T;
  /** Retries before this attempt (0 on the first attempt). */
  retryCount: number;
  retryLimit: number;
  /** When this attempt started (database time). */
  startedOn: Date;
  /** The attempt is failed by the queue after this many seconds. */
  expireInSeconds: number;
}

/** A handler: resolves when the job is done; throws to have it retried (or failed after its last attempt). */
export type JobHandler<T = Record<string, unknown>> = (job: JobRun<T>) => Promise<unknown>;

/**
 * Runs the due jobs of one queue here and now, one at a time, as the runner would (complete on
 * success; on failure the queue's retry with back-off, or failed and dead-lettered after the last
 * attempt). For tests and scripts: the server's runner (`runner.server.ts`) polls by itself.
 *
 * @param db - the database (not a transaction: each job's outcome is its own write).
 * @param options.limit - at most this many jobs (default 1,000).
 * @returns how many jobs completed and failed (an attempt that will be retried counts as failed).
 */
export async function runDueJobs<T = Record<string, unknown>>(
  db: Queryable,
  name: JobName,
  handler: JobHandler<T>,
  options: { limit?: number } = {},
): Promise<{ done: number; failed: number }> {
  const exec = executorOf(db);
  const boss = jobSender();
  let done = 0;
  let failed = 0;
  for (let i = 0; i < (options.limit ?? 1_000); i++) {
    const [job] = (await boss.fetch<T>(name, { batchSize: 1, includeMetadata: true, db: exec })) ?? [];
    if (!job) break;
    const run: JobRun<T> = {
      id: job.id,
      name,
      data: job.data,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      startedOn: new Date(job.startedOn),
      expireInSeconds: Number((job as { expireInSeconds?: number }).expireInSeconds ?? 900),
    };
    try {
      await handler(run);
      await boss.complete(name, job.id, {}, { db: exec });
      done++;
    } catch (error) {
      await boss.fail(name, job.id, error as object, { db: exec });
      failed++;
    }
  }
  return { done, failed };
}

/**
 * Puts a failed job back in its queue for one more attempt (pg-boss `retry`), in the caller's transaction.
 *
 * @returns whether a failed job with this id was found.
 */
export async function retryJob(q: Queryable, name: string, id: string): Promise<boolean> {
  const { rows } = await executorOf(q).executeSql(`select 1 from ${JOB_SCHEMA}.job where name = $1 and id = $2 and state = 'failed'`, [
    name,
    id,
  ]);
  if (!rows.length) return false;
  await jobSender().retry(name, id, { db: executorOf(q) });
  return true;
}

/** Cancels a job that has not started (pg-boss `cancel`), in the caller's transaction; a running or finished job is left alone. */
export async function cancelWaitingJob(q: Queryable, name: string, id: string): Promise<void> {
  const { rows } = await executorOf(q).executeSql(`select 1 from ${JOB_SCHEMA}.job where name = $1 and id = $2 and state < 'active'`, [
    name,
    id,
  ]);
  if (rows.length) await jobSender().cancel(name, id, { db: executorOf(q) });
}
