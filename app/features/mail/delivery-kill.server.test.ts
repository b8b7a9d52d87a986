/**
 * A process killed mid-batch (issue #36, ADR 019): the real job runner in child processes
 * (tests/helpers/mail-worker.ts) sends 60 mails to an SMTP server that answers each after 300 ms;
 * once some are accepted, the server holds the next ones unanswered, and the process is killed
 * (SIGKILL) while all three of its SMTP connections wait for the answer (so no mail is between the
 * server's acceptance and its recording: that window is the documented at-least-once case); then
 * processes are started again — two on PostgreSQL, one on PGlite (same data
 * directory) — and every mail must arrive exactly once (counted by Message-ID) and be marked sent.
 * Short leases and timeouts (FAST=1) make the killed attempts retried within seconds.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { bundleMailWorkers, exited, type MailWorkers } from "../../../tests/helpers/mail-workers";
import { startSmtpRecorder, type SmtpRecorder } from "../../../tests/helpers/smtp-recorder";
import { createPgDatabase, migratedPgliteDir } from "../../../tests/helpers/test-database";
import { enqueueMail } from "./mail.server";

const MAILS = 60;

// The worker bundled once for the file (tests/helpers/mail-workers.ts), removed after it.
let workers: MailWorkers | undefined;
beforeAll(async () => {
  workers = await bundleMailWorkers();
});
afterAll(() => workers?.remove());
const startWorker = (env: Record<string, string>) => workers!.start({ FAST: "1", ...env });

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 240_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Short expiry and retry delay for the mails enqueued next (a job takes them from its queue when enqueued). */
async function fastQueue(handle: DbHandle) {
  await handle.db.execute(sql`update pgboss.queue set expire_seconds = 8, retry_delay = 1 where name = 'mail'`);
  for (let i = 0; i < MAILS; i++) await enqueueMail(handle.db, { to: `client${i}@example.com`, subject: `Mail ${i}`, text: `Body ${i}` });
}

// Budgets for a hang on a busy 2-core machine (the processes start, migrate and restart): not speed checks.
describe("a mail process killed mid-batch", { timeout: 600_000 }, () => {
  const children: ChildProcess[] = [];
  let smtp: SmtpRecorder | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && !child.signalCode) child.kill("SIGKILL");
    await smtp?.close();
    for (const c of cleanups.splice(0)) await c();
  });

  /**
   * @param recordedRows - where the database can be read while the first process runs (PostgreSQL):
   *   the kill waits until every mail the server accepted is recorded sent, so no mail is in the
   *   documented at-least-once window (accepted, not yet recorded) when the process dies — on a busy
   *   machine that recording can lag the acceptance by seconds.
   */
  const run = async (
    env: Record<string, string>,
    restartCount: number,
    sentRows: () => Promise<number>,
    recordedRows?: () => Promise<number>,
  ) => {
    smtp = await startSmtpRecorder({ delayMs: () => 300 });
    const first = await startWorker({ ...env, SMTP_URL: smtp.url });
    children.push(first);
    // Mid-batch: some mails accepted, then all three connections of the process wait for the server.
    await until(() => smtp!.total() >= 10, "ten accepted mails");
    smtp.hold();
    await until(() => smtp!.holding() >= 3, "three messages in flight");
    if (recordedRows) {
      // A message already in its 300 ms answer delay when the hold began is still accepted: wait
      // until the accepted count stays put, and every accepted mail is recorded.
      for (let accepted = -1; accepted !== smtp.total();) {
        await new Promise((r) => setTimeout(r, 400));
        accepted = smtp.total();
        await until(async () => (await recordedRows()) >= accepted, `the ${accepted} accepted mails recorded sent`);
      }
    }
    first.kill("SIGKILL");
    await exited(first);
    // The server answers the held messages only now: their client is gone, they are not accepted.
    await new Promise((r) => setTimeout(r, 500));
    smtp.release();
    const acceptedAtKill = smtp.total();
    expect(acceptedAtKill).toBeLessThan(MAILS);
    for (let i = 0; i < restartCount; i++) children.push(await startWorker({ ...env, SMTP_URL: smtp.url }));
    await until(() => smtp!.accepted.size === MAILS, `all ${MAILS} mails (have ${smtp?.accepted.size})`);
    // Give a would-be duplicate (an expired attempt sent again) the time to arrive.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map(exited));
    const counts = [...smtp.accepted.values()];
    expect(counts.filter((n) => n !== 1)).toEqual([]);
    expect(smtp.accepted.size).toBe(MAILS);
    expect(await sentRows()).toBe(MAILS);
  };

  it("on pglite (one process, restarted on the same data directory): every mail sent exactly once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-kill-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const pgliteDir = path.join(dir, "pglite");
    await migratedPgliteDir(pgliteDir);
    const setup = await openDatabase({ pgliteDir });
    await fastQueue(setup);
    await setup.close();
    await run({ PGLITE_DIR: pgliteDir }, 1, async () => {
      const check = await openDatabase({ pgliteDir });
      try {
        const rows = await check.db.select({ sentAt: mailOutbox.sentAt }).from(mailOutbox);
        return rows.filter((r) => r.sentAt).length;
      } finally {
        await check.close();
      }
    });
  });

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)("on postgres (two processes after the kill): every mail sent exactly once", async () => {
    const created = await createPgDatabase(url!, "mailkill");
    const handle = await openDatabase({ url: created.url, poolMax: 2 });
    cleanups.push(async () => {
      await handle.close();
      await created.drop();
    });
    await fastQueue(handle);
    const sentRows = async () => {
      const rows = await handle.db.select({ sentAt: mailOutbox.sentAt }).from(mailOutbox);
      return rows.filter((r) => r.sentAt).length;
    };
    await run({ DATABASE_URL: created.url }, 2, sentRows, sentRows);
  });
});
