/**
 * Failed jobs on /admin/outbox (docs/product.md#admin-outbox, ADR 019): listed for admins only,
 * with the error; Retry runs the job once more and is audited; a mail's job is listed as the mail.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { jobsOf } from "../../../tests/helpers/jobs";
import { useTestServices } from "../../../tests/helpers/services";
import { listFailedJobsForAdmin, retryFailedJob } from "./admin-jobs.server";
import { enqueueJob, runDueJobs } from "./jobs.server";

describe.each(testDatabases())("failed jobs for the admin on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("lists a failed job with its error for admins only, and an audited retry runs it again", async () => {
    const { t, admin } = ctx;
    const id = (await enqueueJob(t.db, "data-export", { exportId: 41 }, { retryLimit: 0 }))!;
    await enqueueJob(t.db, "mail", { mailId: 1 }, { retryLimit: 0 });
    const boom = async () => {
      throw new Error("injected: disk full");
    };
    expect(await runDueJobs(t.db, "data-export", boom)).toEqual({ done: 0, failed: 1 });
    expect(await runDueJobs(t.db, "mail", boom)).toEqual({ done: 0, failed: 1 });

    const client = { id: "not-an-admin", role: "client" as const, email: "c@example.com" };
    await expect(listFailedJobsForAdmin(t.db, client)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const listed = await listFailedJobsForAdmin(t.db, admin);
    // The mail's job is not listed here: a failed mail is shown (and retried) as the mail.
    expect(listed.count).toBe(1);
    expect(listed.jobs).toEqual([
      expect.objectContaining({ id, queue: "data-export", attempts: 1, lastError: "injected: disk full", data: '{"exportId": 41}' }),
    ]);

    await expect(retryFailedJob(t.db, client, id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(retryFailedJob(t.db, admin, "not-a-uuid")).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await retryFailedJob(t.db, admin, id)).toEqual({ queue: "data-export" });
    await expect(retryFailedJob(t.db, admin, id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listFailedJobsForAdmin(t.db, admin)).count).toBe(0);
    const ran: unknown[] = [];
    expect(await runDueJobs(t.db, "data-export", async (job) => void ran.push(job.data))).toEqual({ done: 1, failed: 0 });
    expect(ran).toEqual([{ exportId: 41 }]);
    expect((await jobsOf(t.db, "data-export")).map((j) => j.state)).toEqual(["completed"]);
    const events = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "job"), eq(auditEvent.entityId, id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.id, action: "retry", after: { state: "retry", queue: "data-export" } });
  });
});
