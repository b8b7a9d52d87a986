/**
 * A client cannot flood the admin with mail (issue #28), on PGlite and PostgreSQL: proposal
 * requests are limited per account (429 with Retry-After), and the admin's "new proposal request"
 * notifications are gathered into one mail per 10 minutes.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, proposal } from "#app/db/schema";
import { ADMIN_RECIPIENT } from "#app/features/mail/notifications.server";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { PROPOSAL_MESSAGES } from "./proposals.schema";
import { ADMIN_REQUEST_MAIL_WINDOW_MS, PROPOSAL_REQUEST_LIMIT, requestProposal } from "./proposals.server";

const input = (projectName: string) => ({
  projectName,
  projectDetails: "A website",
  timeline: null,
  budget: null,
  targetAudience: null,
  designInspiration: null,
  numberOfPages: null,
  websiteGoal: null,
});

describe.each(testDatabases())("proposal request flood on %s", (_name, open) => {
  const ctx = useTestServices(open);
  const adminMails = () =>
    ctx.s.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, ADMIN_RECIPIENT), isNotNull(mailOutbox.coalesceKey)))
      .orderBy(mailOutbox.id);

  it("limits requests per account: the 11th in an hour is refused with Retry-After and stores nothing", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    await Promise.all(Array.from({ length: PROPOSAL_REQUEST_LIMIT.limit }, (_, i) => requestProposal(s.db, client, input(`Site ${i}`))));
    const refused = await refusalOf(requestProposal(s.db, client, input("One too many")));
    expect(refused).toMatchObject({ status: 429, message: PROPOSAL_MESSAGES.requestLimit });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.headers()["Retry-After"]).toBe(String(refused.retryAfterSeconds));
    expect(await s.db.select().from(proposal).where(eq(proposal.clientId, client.id))).toHaveLength(PROPOSAL_REQUEST_LIMIT.limit);
    // Another client is not affected.
    await requestProposal(s.db, await makeClient(s), input("Someone else"));
  });

  it("gathers the admin's notifications into one mail per 10 minutes", async () => {
    const { s } = ctx;
    const clients = await Promise.all([1, 2, 3].map(() => makeClient(s)));
    await Promise.all(clients.flatMap((client) => Array.from({ length: 10 }, (_, i) => requestProposal(s.db, client, input(`Site ${i}`)))));
    const [first, ...others] = await adminMails();
    expect(others).toHaveLength(0);
    expect(first!.subject).toMatch(/^30 new proposal requests — /);
    expect(first!.coalescedLines).toHaveLength(30);
    for (const client of clients) expect(first!.text).toContain(`${client.email} requested a proposal for "Site 9".`);

    // The worker sends it; the next requests wait for the next window, in one mail.
    await s.db.update(mailOutbox).set({ sentAt: new Date(), attempts: 1 }).where(eq(mailOutbox.id, first!.id));
    const late = await makeClient(s);
    for (let i = 0; i < 5; i++) await requestProposal(s.db, late, input(`Late ${i}`));
    const [, second, ...more] = await adminMails();
    expect(more).toHaveLength(0);
    expect(second!.coalescedLines).toHaveLength(5);
    expect(second!.subject).toMatch(/^5 new proposal requests — /);
    expect(second!.nextAttemptAt.getTime() - first!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(ADMIN_REQUEST_MAIL_WINDOW_MS - 1000);

    // A mail the worker holds is not changed under it: the next request starts the following one.
    await s.db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(Date.now() + 60_000), attempts: 1 })
      .where(eq(mailOutbox.id, second!.id));
    await requestProposal(s.db, late, input("After the claim"));
    const rows = await adminMails();
    expect(rows).toHaveLength(3);
    expect(rows[1]!.coalescedLines).toHaveLength(5);
    expect(rows[2]!.coalescedLines).toEqual([`${late.email} requested a proposal for "After the claim".`]);
  });
});
