/**
 * A process that runs the app's real job runner with the mail queue only (ADR 019), for the tests
 * and benchmarks that run several processes against one database and kill some of them:
 *
 *   tsx tests/helpers/mail-worker.ts
 *     DATABASE_URL=postgres://…  or  PGLITE_DIR=/path   (migrated here when needed)
 *     SMTP_URL=smtp://127.0.0.1:<port>
 *     FAST=1   short SMTP timeouts (socket 3 s), attempt deadline 4 s, 8 s leases, maintenance every
 *              second — so a killed process's mails are retried within seconds (the queue's
 *              `expire_seconds`/`retry_delay` must be set by the caller before enqueuing).
 *
 * Prints `ready` once it polls; SIGTERM stops it gracefully (running mails finish).
 */
import { openDatabase } from "#app/db/client.server";
import { startJobRunner } from "#app/features/jobs/runner.server";
import {
  createMailSender,
  deliverMail,
  markMailFailed,
  releaseMailLeases,
  SMTP_MAX_CONNECTIONS,
  type MailJobData,
} from "#app/features/mail/outbox.server";

const fast = process.env.FAST === "1";
const handle = process.env.DATABASE_URL
  ? await openDatabase({ url: process.env.DATABASE_URL })
  : await openDatabase({ pgliteDir: process.env.PGLITE_DIR! });
await handle.migrate();
if (handle.driver === "pglite") await releaseMailLeases(handle.db);
const send = createMailSender({
  smtpUrl: process.env.SMTP_URL,
  outboxDir: "/nonexistent",
  timeoutsMs: fast ? { connection: 2_000, greeting: 2_000, socket: 3_000 } : undefined,
});
const mail = {
  db: handle.db,
  send,
  from: "Portal <portal@example.com>",
  origin: "https://portal.example",
  adminEmail: "owner@example.com",
  ...(fast ? { leaseSeconds: 8, deadlineMs: 4_000 } : {}),
};
const runner = await startJobRunner({
  handle,
  schedules: {},
  maintenanceIntervalSeconds: fast ? 1 : undefined,
  queues: fast ? { mail: { expireInSeconds: 8, retryDelay: 1 } } : undefined,
  workers: {
    mail: {
      handler: (job) => deliverMail(mail, job as { data: MailJobData }),
      concurrency: SMTP_MAX_CONNECTIONS,
      pollingIntervalSeconds: 0.5,
    },
    "mail-failed": { handler: (job) => markMailFailed(mail, job as { data: MailJobData }), pollingIntervalSeconds: 0.5 },
  },
});
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void runner
    .stop(30_000)
    .then(() => send.close?.())
    .then(() => handle.close())
    .then(() => process.exit(0));
});
