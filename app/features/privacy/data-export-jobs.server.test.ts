/**
 * Large data exports as jobs (docs/product.md#download-my-data, ADR 019, issue #36 "the export
 * worker can wedge for everyone"): a build that fails is recorded and retried with back-off, ends
 * failed after its attempts, and never holds up the other exports or the purge of expired ones.
 * The failure is injected as a real export section whose query fails (division by zero) for one
 * user: an SQL error, which aborts the build's transaction — what wedged the old worker (its
 * `catch` wrote to that aborted transaction, so `attempts` never rose and no other export was built).
 */
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Queryable } from "#app/db/client.server";
import { dataExport, mailOutbox } from "#app/db/schema";
import { runDueJobs } from "#app/features/jobs/jobs.server";
import { testDatabases } from "../../../tests/helpers/db";
import { jobsOf, makeJobsDue } from "../../../tests/helpers/jobs";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { buildQueuedExport, markExportFailed, purgeExpiredExports, requestDataExport, type DataExportJobData } from "./data-export.server";
import { EXPORT_SECTIONS } from "./export-sections.server";

describe.each(testDatabases())("data export jobs on %s", (_name, open) => {
  const ctx = useTestServices(open);
  const failingFor = new Set<string>();
  const injected = {
    key: "injectedFailure",
    description: "(test) fails for some users",
    async collect(q: Queryable, userId: string) {
      if (failingFor.has(userId)) await q.execute(sql`select 1 / 0 as injected_failure`);
      return [];
    },
    count: async () => 0,
  };
  EXPORT_SECTIONS.push(injected);
  afterEach(() => failingFor.clear());

  /** One pass of the export queue and its dead letter, as the runner does. */
  const pass = async () => {
    const built = await runDueJobs<DataExportJobData>(ctx.s.db, "data-export", (job) => buildQueuedExport(ctx.s.db, job));
    const dead = await runDueJobs<DataExportJobData>(ctx.s.db, "data-export-failed", (job) => markExportFailed(ctx.s.db, job));
    return { ...built, dead: dead.done };
  };

  it("a failing build is retried, ends failed after its attempts; later exports still build, expired ones are purged", async () => {
    const { s } = ctx;
    const broken = await makeClient(s);
    const fine = await makeClient(s);
    const expired = await makeClient(s);
    failingFor.add(broken.id);
    // An export that expired yesterday, built before.
    await s.db.insert(dataExport).values({
      userId: expired.id,
      status: "ready",
      tokenHash: "a".repeat(64),
      archive: new Uint8Array([1]),
      sizeBytes: 1,
      readyAt: new Date(Date.now() - 2 * 86_400_000),
      expiresAt: new Date(Date.now() - 86_400_000),
    });
    expect(await requestDataExport(s.db, broken, { inlineMaxRows: -1 })).toEqual({ queued: true });
    expect(await requestDataExport(s.db, fine, { inlineMaxRows: -1 })).toEqual({ queued: true });

    // First pass: the broken one fails (recorded, to be retried), the other is built and mailed.
    expect(await pass()).toEqual({ done: 1, failed: 1, dead: 0 });
    const byUser = async (userId: string) => (await s.db.select().from(dataExport).where(eq(dataExport.userId, userId)))[0]!;
    expect(await byUser(broken.id)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await byUser(broken.id)).lastError).toContain("injected_failure");
    expect(await byUser(fine.id)).toMatchObject({ status: "ready", attempts: 1 });
    const mails = await s.db.select().from(mailOutbox).where(eq(mailOutbox.to, fine.email));
    expect(mails.map((m) => m.subject)).toContainEqual(expect.stringMatching(/^Your data is ready to download/));
    // Not due again before its back-off.
    expect(await pass()).toEqual({ done: 0, failed: 0, dead: 0 });

    // The retries fail too: after 3 attempts the export is failed, and its owner may ask again.
    await makeJobsDue(s.db, "data-export");
    expect(await pass()).toMatchObject({ failed: 1, dead: 0 });
    await makeJobsDue(s.db, "data-export");
    expect(await pass()).toEqual({ done: 0, failed: 1, dead: 1 });
    expect(await byUser(broken.id)).toMatchObject({ status: "failed", attempts: 3 });
    expect((await jobsOf(s.db, "data-export")).map((j) => j.state).sort()).toEqual(["completed", "failed"]);

    // A later export of someone else still builds, and the expired one is purged.
    const later = await makeClient(s);
    await requestDataExport(s.db, later, { inlineMaxRows: -1 });
    expect(await pass()).toEqual({ done: 1, failed: 0, dead: 0 });
    expect(await byUser(later.id)).toMatchObject({ status: "ready" });
    expect(await purgeExpiredExports(s.db)).toBe(1);
    expect(await s.db.select().from(dataExport).where(eq(dataExport.userId, expired.id))).toHaveLength(0);

    // The owner of the failed export can ask again (a failed export does not block a new one).
    failingFor.delete(broken.id);
    expect(await requestDataExport(s.db, broken, { inlineMaxRows: -1 })).toEqual({ queued: true });
    expect(await pass()).toEqual({ done: 1, failed: 0, dead: 0 });
  });
});
