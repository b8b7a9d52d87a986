/**
 * The job queue (ADR 019) on each database: every queue exists in a migrated database; a job
 * enqueued in a transaction exists exactly when the transaction committed; the runner (pg-boss on the
 * app's own connection — PGlite's single one too) runs jobs, retries a failure with back-off, runs
 * a cron job, and on stop lets a running job finish.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { jobsOf } from "../../../tests/helpers/jobs";
import { useTestServices } from "../../../tests/helpers/services";
import { enqueueJob } from "./jobs.server";
import { JOB_QUEUES, JOB_SCHEDULES, type JobName } from "./queues";
import { startJobRunner } from "./runner.server";

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe.each(testDatabases())("job queue on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("has a row for every queue and schedule in a migrated database", async () => {
    const { rows } = (await ctx.t.db.execute(sql`select name from pgboss.queue`)) as unknown as { rows: { name: string }[] };
    const names = rows.map((r) => r.name);
    for (const name of Object.keys(JOB_QUEUES)) expect(names).toContain(name);
    for (const name of Object.keys(JOB_SCHEDULES)) expect(Object.keys(JOB_QUEUES)).toContain(name);
  });

  it("runs pg-boss's BEGIN … COMMIT maintenance as one transaction, and a failing one leaves the connection usable", async () => {
    const { t } = ctx;
    await t.executeSql(`
      BEGIN;
      SET LOCAL lock_timeout = '30s';
      UPDATE pgboss.version SET maintained_on = now();
      COMMIT;
    `);
    await expect(
      t.executeSql(`
        BEGIN;
        UPDATE pgboss.version SET maintained_on = null;
        SELECT 1 / 0;
        COMMIT;
      `),
    ).rejects.toThrow(/division by zero/);
    // Rolled back, and the next statement runs (PGlite has one connection: an aborted transaction would stop everything).
    const { rows } = await t.executeSql("select maintained_on is not null as kept from pgboss.version");
    expect(rows).toEqual([{ kept: true }]);
  });

  it("enqueues a job with the write that causes it: rolled back, no job; committed, one job", async () => {
    const { t } = ctx;
    await expect(
      t.db.transaction(async (tx) => {
        await enqueueJob(tx, "purge", { n: 1 });
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    expect(await jobsOf(t.db, "purge")).toEqual([]);
    const id = await t.db.transaction((tx) => enqueueJob(tx, "purge", { n: 2 }, { startAfter: 60, retryLimit: 4 }));
    const [job] = await jobsOf(t.db, "purge");
    expect(job).toMatchObject({ id, state: "created", data: { n: 2 } });
    // One job per key and slot: the second is dropped.
    expect(await enqueueJob(t.db, "purge", {}, { singletonKey: "k", singletonSeconds: 60 })).toEqual(expect.any(String));
    expect(await enqueueJob(t.db, "purge", {}, { singletonKey: "k", singletonSeconds: 60 })).toBeNull();
    await expect(enqueueJob(t.db, "no-such-queue" as JobName, {})).rejects.toThrow(/does not exist/);
  });

  it("the runner runs jobs, retries a failure with back-off, runs cron jobs, and lets a running job finish on stop", async () => {
    const { t } = ctx;
    const seen: string[] = [];
    let failures = 0;
    let release!: () => void;
    const slowStarted = new Promise<void>((resolve) => (release = resolve));
    let slowDone = false;
    const runner = await startJobRunner({
      handle: t,
      queues: { "data-export": { retryLimit: 2, retryDelay: 1, retryBackoff: false } },
      schedules: { "tally-fold": "* * * * *" },
      workers: {
        "data-export": {
          pollingIntervalSeconds: 0.5,
          handler: async (job) => {
            seen.push(`${(job.data as { n: number }).n}:${job.retryCount}`);
            if ((job.data as { n: number }).n === 1 && failures++ < 1) throw new Error("first attempt fails");
          },
        },
        "tally-fold": { pollingIntervalSeconds: 0.5, handler: async () => void seen.push("cron") },
        purge: {
          pollingIntervalSeconds: 0.5,
          handler: async () => {
            release();
            await new Promise((r) => setTimeout(r, 1_500));
            slowDone = true;
          },
        },
      },
    });
    try {
      await enqueueJob(t.db, "data-export", { n: 1 });
      await enqueueJob(t.db, "data-export", { n: 2 });
      await until(() => seen.includes("1:1") && seen.includes("2:0") && seen.includes("cron"));
      expect(seen.filter((s) => s.startsWith("1:"))).toEqual(["1:0", "1:1"]);
      expect((await jobsOf(t.db, "data-export")).map((j) => j.state)).toEqual(["completed", "completed"]);
      await enqueueJob(t.db, "purge", {});
      await slowStarted;
    } finally {
      await runner.stop(10_000);
    }
    // Stopping waited for the running job instead of cutting it off.
    expect(slowDone).toBe(true);
    expect((await jobsOf(t.db, "purge")).map((j) => j.state)).toEqual(["completed"]);
  });
});
