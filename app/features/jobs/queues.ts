/**
 * The job queues (ADR 019): every background task of the app is a named job in the PostgreSQL job
 * queue (pg-boss, schema `pgboss`). A queue's row is created by the migration that introduces it
 * (`select pgboss.create_queue('<name>', '{}'::json)`, see `drizzle/0026_jobs_queue.sql`), so a job
 * can be enqueued in any migrated database; the options below are applied at each start.
 *
 * Adding a queue: a name here with its options, a `create_queue` line in your migration, a handler
 * where the runner is started (`server/app.ts`), and — for a recurring task — a cron line in
 * {@link JOB_SCHEDULES}. `jobs.server.test.ts` fails when a queue here has no row in the database.
 */

/** Options of a queue, in pg-boss's terms (seconds). */
export interface QueueOptions {
  /** Retries after the first attempt (so attempts = retryLimit + 1). */
  retryLimit: number;
  /** Delay before the first retry, in seconds; with `retryBackoff` it doubles each retry (with jitter: × 1–2). */
  retryDelay?: number;
  retryBackoff?: boolean;
  /**
   * An attempt still running after this many seconds is failed (and retried): pg-boss stops
   * waiting for its handler, and maintenance fails a job whose process died. A handler must end
   * well within it.
   */
  expireInSeconds: number;
  /** Gets the job's data when its last attempt failed (the handler marks the record failed). */
  deadLetter?: JobName;
  /** `singleton`: at most one job of the queue runs at a time across all processes (sweeps). */
  policy: "standard" | "singleton";
}

/** Every queue's name. */
export type JobName =
  | "mail"
  | "mail-failed"
  | "data-export"
  | "data-export-failed"
  | "reminders"
  | "conversations"
  | "tally-fold"
  | "purge"
  | "billing"
  | "autopay"
  | "schedule";

/** Attempts of a mail (docs/product.md#mail-delivery); `OUTBOX_MAX_ATTEMPTS` overrides it. */
export const MAIL_MAX_ATTEMPTS = 10;
/** First retry of a mail after 90–180 s, then doubling (with jitter). */
export const MAIL_RETRY_DELAY_SECONDS = 90;
/**
 * How long one delivery attempt may hold a mail (its lease and its job's expiry), in seconds. The
 * SMTP timeouts (`SMTP_TIMEOUTS_MS`) and the attempt's own deadline end every send well before it.
 */
export const MAIL_LEASE_SECONDS = 300;

/** The queues and their options. */
export const JOB_QUEUES: Record<JobName, QueueOptions> = {
  mail: {
    policy: "standard",
    retryLimit: MAIL_MAX_ATTEMPTS - 1,
    retryDelay: MAIL_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: MAIL_LEASE_SECONDS,
    deadLetter: "mail-failed",
  },
  "mail-failed": { policy: "standard", retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 },
  "data-export": {
    policy: "standard",
    retryLimit: 2,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    deadLetter: "data-export-failed",
  },
  "data-export-failed": { policy: "standard", retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 },
  reminders: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  conversations: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  "tally-fold": { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  purge: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  // #39 recurring billing (ADR 025): the sweep that issues due cycles, retries failed automatic
  // payments and warns of expiring cards; one job per charge of a saved card.
  billing: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  autopay: { policy: "standard", retryLimit: 4, retryDelay: 60, retryBackoff: true, expireInSeconds: 120 },
  // #37 payment schedules (ADR 026): the sweep that turns each due schedule line into its invoice, once.
  schedule: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
};

/**
 * Recurring jobs (cron, UTC; pg-boss's timekeeper enqueues each at most once per minute across
 * all processes). A sweep that fails is simply run again at its next minute.
 */
export const JOB_SCHEDULES: Partial<Record<JobName, string>> = {
  // docs/product.md#reminders (ADR 018): the sweep handles every moment since its watermark.
  reminders: "* * * * *",
  // Conversation mails whose 10-minute window ended, stale uploads, bytes of deleted files.
  conversations: "* * * * *",
  // app/db/tally.server.ts: keeps the dashboard's delta rows few.
  "tally-fold": "* * * * *",
  // Sent mails past OUTBOX_RETENTION_DAYS, old rate-limit windows, expired data exports.
  purge: "17 * * * *",
  // #39 recurring billing: due cycles (each once), dunning retries, card-expiry notices.
  billing: "* * * * *",
  // #37 payment schedules: lines due today in the agency's time zone (each once).
  schedule: "* * * * *",
};
