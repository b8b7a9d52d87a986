/**
 * Automatic reminders (docs/product.md#reminders, issue #26): the sweep with the injectable clock,
 * on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { and, asc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server";
import {
  invoice,
  mailOutbox,
  meeting,
  proposal,
  proposalMessage,
  proposalThread,
  proposalVersion,
  remindersSent,
  settings,
  user,
} from "#app/db/schema";
import { manualClock } from "#app/lib/clock.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal } from "../../../tests/helpers/portal";
import { useTestServices } from "../../../tests/helpers/services";
import { runReminderSweep } from "./sweep.server";
import { saveReminderSettings } from "./reminder-settings.server";
import { listRemindersFor, sendReminderNow, setRemindersPaused } from "./admin-reminders.server";
import { parseDays, reminderSettingsSchema } from "./reminders.schema";
import { auditEvent } from "#app/db/schema";

let n = 0;
/** Inserts a user directly (no password hashing: the sweep only reads the row). */
async function insertUser(db: Database, values: Partial<typeof user.$inferInsert> = {}): Promise<{ id: string; email: string }> {
  const id = `u-rem-${++n}-${Date.now().toString(36)}`;
  const email = `${id}@example.com`;
  await db.insert(user).values({ id, email, name: `Client ${n}`, role: "client", ...values });
  return { id, email };
}

async function mailsTo(db: Database, email: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(asc(mailOutbox.id));
}

async function ledger(db: Database, recordKind: string, recordId: number) {
  return db
    .select({ step: remindersSent.step, status: remindersSent.status, kind: remindersSent.kind, outboxId: remindersSent.outboxId })
    .from(remindersSent)
    .where(and(eq(remindersSent.recordKind, recordKind as "invoice"), eq(remindersSent.recordId, recordId)))
    .orderBy(asc(remindersSent.id));
}

/** An invoice of a new client, due on `dueDate`. */
async function invoiceFor(db: Database, dueDate: string, clientValues: Partial<typeof user.$inferInsert> = {}) {
  const client = await insertUser(db, clientValues);
  const proposalId = await insertProposal(db, { clientId: client.id, status: "in_progress" });
  const id = await insertInvoice(db, { proposalId, clientId: client.id, items: [["Website", 120_000]], dueDate });
  return { client, id };
}

/** Version 1 of a proposal's terms (what makes it a proposal the client can accept, #26). */
async function firstVersion(db: Database, proposalId: number): Promise<void> {
  await db.insert(proposalVersion).values({ proposalId, number: 1, terms: {}, sha256: "0".repeat(64) });
}

describe.each(testDatabases())("reminders on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("invoice reminders fire once at 09:00 (agency time) of each step, and stop once paid", async () => {
    const { db } = ctx.t;
    await db.insert(settings).values({ id: 1, timeZone: "Europe/Berlin" });
    const clock = manualClock("2026-03-01T00:00:00Z");
    await runReminderSweep(db, clock);
    const { client, id } = await invoiceFor(db, "2026-03-10");
    // Step −3: 2026-03-07 09:00 in Berlin = 08:00 UTC.
    clock.set("2026-03-07T07:59:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    clock.set("2026-03-07T08:00:00Z");
    expect((await runReminderSweep(db, clock)).sent).toBe(1);
    clock.advance(60_000);
    await runReminderSweep(db, clock);
    const mails = await mailsTo(db, client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Reminder: invoice INV-TEST-.* is due on Mar 10, 2026/);
    expect(mails[0]!.text).toContain(`/view-invoice/${id}`);
    // Due date.
    clock.set("2026-03-10T08:00:00Z");
    await runReminderSweep(db, clock);
    expect((await mailsTo(db, client.email)).map((m) => m.subject)[1]).toMatch(/is due today/);
    // +7 days.
    clock.set("2026-03-17T08:00:00Z");
    await runReminderSweep(db, clock);
    expect((await mailsTo(db, client.email)).map((m) => m.subject)[2]).toMatch(/is overdue/);
    // Paid: the +14 step is moot.
    await db.update(invoice).set({ status: "paid", paidAt: new Date() }).where(eq(invoice.id, id));
    clock.set("2026-03-24T08:00:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(3);
    expect((await ledger(db, "invoice", id)).map((r) => `${r.step}:${r.status}`)).toEqual(["-3:sent", "0:sent", "7:sent"]);
  });

  it("proposal reminders fire 3 and 7 days after the proposal started waiting, and not once approved", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-04-01T10:00:00Z");
    await runReminderSweep(db, clock);
    const client = await insertUser(db);
    const ambassador = await insertUser(db, { role: "ambassador" });
    const id = await insertProposal(db, {
      clientId: client.id,
      ambassadorId: ambassador.id,
      source: "ambassador",
      status: "submitted",
      projectName: "Bakery site",
      createdAt: new Date("2026-04-01T10:00:00Z"),
    });
    await firstVersion(db, id); // an ambassador's proposal has version 1 from its submission (#26)
    // A client's own request, still with the agency (no version to accept): never a reminder.
    const requester = await insertUser(db);
    await insertProposal(db, {
      clientId: requester.id,
      source: "client",
      status: "submitted",
      createdAt: new Date("2026-04-01T10:00:00Z"),
    });
    clock.set("2026-04-04T09:59:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    clock.set("2026-04-04T10:00:00Z");
    await runReminderSweep(db, clock);
    clock.advance(3_600_000);
    await runReminderSweep(db, clock);
    const mails = await mailsTo(db, client.email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Bakery site is waiting for your answer/)]);
    expect(mails[0]!.text).toContain(`/proposals/${id}`);
    await db
      .update(proposal)
      .set({ clientApprovedAt: new Date("2026-04-05T00:00:00Z") })
      .where(eq(proposal.id, id));
    clock.set("2026-04-08T10:00:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(1);
    expect(await mailsTo(db, requester.email)).toHaveLength(0);
  });

  it("a proposal set back to waiting (Undo) is reminded from that moment, not from its creation", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-04-20T10:00:00Z");
    await runReminderSweep(db, clock);
    const client = await insertUser(db);
    const id = await insertProposal(db, {
      clientId: client.id,
      source: "ambassador",
      status: "submitted",
      createdAt: new Date("2026-04-01T10:00:00Z"),
    });
    await firstVersion(db, id);
    // An admin moved it on, then undid the move on 04-20 10:00: it waits again from then.
    await db.insert(auditEvent).values({
      actorEmail: ctx.admin.email,
      entity: "proposal",
      entityId: String(id),
      action: "status-undone",
      before: { status: "planning" },
      after: { status: "submitted" },
      proposalId: id,
      createdAt: new Date("2026-04-20T10:00:00Z"),
    });
    clock.set("2026-04-23T09:59:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    clock.set("2026-04-23T10:00:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(1);
    expect((await ledger(db, "proposal", id)).map((r) => `${r.step}:${r.status}`)).toEqual(["3:sent"]);
  });

  it("meeting reminder: 24 h before a confirmed meeting, with the .ics; none for a cancelled one", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-05-01T00:00:00Z");
    await runReminderSweep(db, clock);
    const client = await insertUser(db);
    const other = await insertUser(db);
    const startsAt = new Date("2026-05-05T15:00:00Z");
    const [kept] = await db
      .insert(meeting)
      .values({
        userId: client.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 1_800_000),
        timeZone: "America/New_York",
        status: "accepted",
      })
      .returning({ id: meeting.id });
    const [cancelled] = await db
      .insert(meeting)
      .values({ userId: other.id, startsAt, endsAt: new Date(startsAt.getTime() + 1_800_000), timeZone: "UTC", status: "accepted" })
      .returning({ id: meeting.id });
    clock.set("2026-05-04T14:59:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    await db.update(meeting).set({ status: "cancelled" }).where(eq(meeting.id, cancelled!.id));
    clock.set("2026-05-04T15:00:00Z");
    await runReminderSweep(db, clock);
    clock.set("2026-05-04T16:00:00Z");
    await runReminderSweep(db, clock);
    const mails = await mailsTo(db, client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Reminder: your meeting is coming up/);
    expect(mails[0]!.attachments?.[0]).toMatchObject({ filename: `meeting-${kept!.id}.ics` });
    expect(mails[0]!.attachments?.[0]!.content).toContain("BEGIN:VCALENDAR");
    expect(await mailsTo(db, other.email)).toHaveLength(0);
  });

  it("a paused client, one who turned reminders off and a deactivated one get nothing", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-03-01T00:00:00Z");
    await runReminderSweep(db, clock);
    const paused = await invoiceFor(db, "2026-03-10", { remindersPaused: true });
    const optedOut = await invoiceFor(db, "2026-03-10", { notifyReminders: false });
    const banned = await invoiceFor(db, "2026-03-10", { banned: true });
    const active = await invoiceFor(db, "2026-03-10");
    clock.set("2026-03-10T09:00:00Z");
    await runReminderSweep(db, clock);
    for (const c of [paused, optedOut, banned]) expect(await mailsTo(db, c.client.email)).toHaveLength(0);
    expect(await mailsTo(db, active.client.email)).toHaveLength(1);
  });

  it("settings: a kind turned off sends nothing; the lists are validated", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-03-01T00:00:00Z");
    await runReminderSweep(db, clock);
    await saveReminderSettings(db, ctx.admin, {
      invoiceEnabled: false,
      invoiceDays: [-3, 0],
      proposalEnabled: true,
      proposalDays: [2],
      meetingEnabled: true,
      digestEnabled: false,
    });
    const { client } = await invoiceFor(db, "2026-03-10");
    clock.set("2026-03-10T09:00:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    await expect(
      saveReminderSettings(db, ctx.admin, {
        invoiceEnabled: true,
        invoiceDays: [],
        proposalEnabled: true,
        proposalDays: [3],
        meetingEnabled: true,
        digestEnabled: true,
      }),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { invoiceDays: ["Enter at least one day, or turn these reminders off."] } });
  });

  it("after a 10-day downtime: one reminder per record (the latest due step), earlier steps skipped, no burst", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-06-01T12:00:00Z");
    await runReminderSweep(db, clock);
    // Due dates chosen so that several steps fall into the downtime.
    const a = await invoiceFor(db, "2026-06-04"); // −3 (06-01 09:00, before the downtime), 0 (06-04), 7 (06-11): latest 7
    const b = await invoiceFor(db, "2026-06-12"); // −3 (06-09): latest −3
    const c = await invoiceFor(db, "2026-05-30"); // 0 before; 7 (06-06): latest 7 (14 on 06-13 is after)
    const client = await insertUser(db);
    const p = await insertProposal(db, {
      clientId: client.id,
      source: "ambassador",
      status: "submitted",
      createdAt: new Date("2026-05-28T12:00:00Z"),
    });
    await firstVersion(db, p); // 3 days: 05-31 (before), 7 days: 06-04 → latest 7
    clock.set("2026-06-11T12:00:00Z");
    const result = await runReminderSweep(db, clock);
    expect(result.sent).toBe(5); // the four records, and one admin digest (overdue invoices) for the latest day
    expect((await ledger(db, "agency", 1)).map((r) => `${r.step}:${r.status}`)).toEqual(["2026-06-11:sent"]);
    for (const r of [a, b, c]) expect(await mailsTo(db, r.client.email)).toHaveLength(1);
    expect(await mailsTo(db, client.email)).toHaveLength(1);
    expect((await ledger(db, "invoice", a.id)).map((r) => `${r.step}:${r.status}`)).toEqual(["7:sent", "0:skipped"]);
    expect((await ledger(db, "invoice", b.id)).map((r) => `${r.step}:${r.status}`)).toEqual(["-3:sent"]);
    expect((await ledger(db, "invoice", c.id)).map((r) => `${r.step}:${r.status}`)).toEqual(["7:sent"]);
    expect((await ledger(db, "proposal", p)).map((r) => `${r.step}:${r.status}`)).toEqual(["7:sent"]);
    // The next pass sends nothing more.
    clock.advance(60_000);
    expect((await runReminderSweep(db, clock)).sent).toBe(0);
  });

  it("two sweeps at once send each reminder once", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-07-01T00:00:00Z");
    await runReminderSweep(db, clock);
    const invoices = await Promise.all(["2026-07-04", "2026-07-05", "2026-07-06", "2026-07-07"].map((d) => invoiceFor(db, d)));
    clock.set("2026-07-10T10:00:00Z");
    // On PostgreSQL the pool runs the two passes on two connections at once (as two processes would);
    // on PGlite (one connection) they queue.
    const results = await Promise.all([runReminderSweep(db, clock), runReminderSweep(db, clock)]);
    expect(results.reduce((s, r) => s + r.sent, 0)).toBe(5); // four invoices and one digest
    for (const inv of invoices) expect(await mailsTo(db, inv.client.email)).toHaveLength(1);
    expect((await db.select().from(remindersSent).where(eq(remindersSent.status, "sent"))).length).toBe(5);
    expect(await db.select().from(mailOutbox).where(like(mailOutbox.subject, "Daily digest%"))).toHaveLength(1);
  });

  it("admin digest at 08:00 agency time: not sent when empty, lists the right items once a day", async () => {
    const { db } = ctx.t;
    await db.insert(settings).values({ id: 1, timeZone: "America/New_York" });
    const clock = manualClock("2026-08-02T00:00:00Z");
    await runReminderSweep(db, clock); // the first pass only sets the watermark
    // 08:00 in New York on 2026-08-03 = 12:00 UTC: nothing waits → no digest.
    clock.set("2026-08-03T12:00:00Z");
    await runReminderSweep(db, clock);
    const digests = () => db.select().from(mailOutbox).where(like(mailOutbox.subject, "Daily digest%"));
    expect(await digests()).toHaveLength(0);
    // Something waits.
    const overdue = await invoiceFor(db, "2026-08-01");
    await invoiceFor(db, "2026-08-20"); // not overdue
    const client = await insertUser(db, { businessName: "Crumbs Ltd" });
    await insertProposal(db, { clientId: client.id, status: "pending", projectName: "New shop", clientName: "Crumbs Ltd" });
    await insertProposal(db, { clientId: client.id, status: "review", projectName: "Revise me", revisionComment: "Bigger logo" });
    await insertProposal(db, { clientId: client.id, status: "review", projectName: "No comment" });
    const startsAt = new Date("2026-08-10T15:00:00Z");
    await db
      .insert(meeting)
      .values({ userId: client.id, startsAt, endsAt: new Date(startsAt.getTime() + 1_800_000), timeZone: "UTC", status: "pending" });
    const threadProposal = await insertProposal(db, { clientId: client.id, status: "in_progress", projectName: "Chatty" });
    const [message] = await db
      .insert(proposalMessage)
      .values({ proposalId: threadProposal, authorId: client.id, authorName: "Crumbs", authorRole: "client", body: "Hello?" })
      .returning({ id: proposalMessage.id });
    await db.insert(proposalThread).values({
      proposalId: threadProposal,
      lastActivityAt: new Date(),
      lastMessageId: message!.id,
      lastClientMessageId: message!.id,
    });
    clock.set("2026-08-03T18:00:00Z");
    await runReminderSweep(db, clock);
    expect(await digests()).toHaveLength(0); // once per day: today's was evaluated at 08:00
    clock.set("2026-08-04T11:59:00Z");
    await runReminderSweep(db, clock);
    expect(await digests()).toHaveLength(0);
    clock.set("2026-08-04T12:00:00Z");
    await runReminderSweep(db, clock);
    clock.set("2026-08-04T12:30:00Z");
    await runReminderSweep(db, clock);
    const sent = await digests();
    expect(sent).toHaveLength(1);
    const text = sent[0]!.text;
    expect(sent[0]!.to).toBe("@admin");
    expect(text).toContain("Overdue invoices (1)");
    const [overdueRow] = await db.select({ number: invoice.number }).from(invoice).where(eq(invoice.id, overdue.id));
    expect(text).toContain(overdueRow!.number);
    expect(text).toContain("New proposal requests (1)");
    expect(text).toContain("New shop · Crumbs Ltd");
    expect(text).toContain("Revision requests (1)");
    expect(text).toContain("Revise me");
    expect(text).not.toContain("No comment");
    expect(text).toContain("Meeting requests (1)");
    expect(text).toContain("Unread client messages (1)");
    expect(text).toContain("Chatty");
    expect((await ledger(db, "agency", 1)).map((r) => `${r.step}:${r.status}`)).toEqual(["2026-08-03:skipped", "2026-08-04:sent"]);
  });

  it("Send reminder now: once per record per hour (429 with the wait), audited, refused when moot or paused", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-09-01T10:00:00Z");
    const { client, id } = await invoiceFor(db, "2026-09-20");
    await sendReminderNow(db, ctx.admin, "invoice", id, clock);
    const mails = await mailsTo(db, client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Reminder: invoice .* is due on Sep 20, 2026/);
    clock.advance(20 * 60_000);
    await expect(sendReminderNow(db, ctx.admin, "invoice", id, clock)).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 40 * 60,
      message: "A reminder for this record went out less than an hour ago. Try again in 40 minutes.",
    });
    clock.advance(40 * 60_000);
    await sendReminderNow(db, ctx.admin, "invoice", id, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(2);
    const history = await listRemindersFor(db, ctx.admin, "invoice", id);
    expect(history.map((h) => [h.label, h.by, h.mail?.state])).toEqual([
      ["Sent now by an admin", ctx.admin.email, "queued"],
      ["Sent now by an admin", ctx.admin.email, "queued"],
    ]);
    const audits = await db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "invoice"), eq(auditEvent.action, "reminder-sent")));
    expect(audits).toHaveLength(2);
    // Moot: paid.
    clock.advance(2 * 3_600_000);
    await db.update(invoice).set({ status: "paid" }).where(eq(invoice.id, id));
    await expect(sendReminderNow(db, ctx.admin, "invoice", id, clock)).rejects.toMatchObject({ status: 409 });
    // Paused client.
    const other = await invoiceFor(db, "2026-09-20");
    expect((await setRemindersPaused(db, ctx.admin, other.client.id, true)).changed).toBe(true);
    await expect(sendReminderNow(db, ctx.admin, "invoice", other.id, clock)).rejects.toMatchObject({
      status: 409,
      message: "The client is paused, deactivated or has turned reminders off: no reminder is sent.",
    });
    expect(await mailsTo(db, other.client.email)).toHaveLength(0);
    // Unknown record, and a client cannot send.
    await expect(sendReminderNow(db, ctx.admin, "invoice", 999_999, clock)).rejects.toMatchObject({ status: 404 });
    await expect(sendReminderNow(db, { id: client.id, role: "client", email: client.email }, "invoice", id, clock)).rejects.toMatchObject({
      status: 403,
    });
  });

  it("two 'Send reminder now' at once send one mail", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-09-01T10:00:00Z");
    const { client, id } = await invoiceFor(db, "2026-09-20");
    const results = await Promise.allSettled([
      sendReminderNow(db, ctx.admin, "invoice", id, clock),
      sendReminderNow(db, ctx.admin, "invoice", id, clock),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await mailsTo(db, client.email)).toHaveLength(1);
  });

  it("the pause switch is audited and the sweep skips a paused client until resumed", async () => {
    const { db } = ctx.t;
    const clock = manualClock("2026-10-01T00:00:00Z");
    await runReminderSweep(db, clock);
    const { client, id } = await invoiceFor(db, "2026-10-10");
    await setRemindersPaused(db, ctx.admin, client.id, true);
    expect((await setRemindersPaused(db, ctx.admin, client.id, true)).changed).toBe(false);
    clock.set("2026-10-07T09:00:00Z");
    await runReminderSweep(db, clock);
    expect(await mailsTo(db, client.email)).toHaveLength(0);
    await setRemindersPaused(db, ctx.admin, client.id, false);
    clock.set("2026-10-10T09:00:00Z");
    await runReminderSweep(db, clock);
    // No burst of the step missed while paused: only the due-date reminder.
    expect((await mailsTo(db, client.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/is due today/)]);
    expect((await ledger(db, "invoice", id)).map((r) => `${r.step}:${r.status}`)).toEqual(["0:sent"]); // −3 passed while paused: not sent later, not recorded;
    const audits = await db.select({ action: auditEvent.action }).from(auditEvent).where(eq(auditEvent.entityId, client.id));
    expect(audits.map((a) => a.action)).toEqual(["reminders-paused", "reminders-resumed"]);
  });
});

describe("reminder settings form", () => {
  it("parses day lists with clear messages", () => {
    expect(parseDays("-3, 0, 7, 14", "invoice")).toEqual({ days: [-3, 0, 7, 14] });
    expect(parseDays("14 7 0 -3", "invoice")).toEqual({ days: [-3, 0, 7, 14] });
    expect(parseDays("", "proposal")).toEqual({ days: [] });
    expect(parseDays("3, seven", "proposal")).toEqual({ error: "Write the days as whole numbers separated by commas, e.g. 3, 7." });
    expect(parseDays("2.5", "invoice")).toMatchObject({ error: expect.stringMatching(/^Write the days as whole numbers/) });
    expect(parseDays("0", "proposal")).toEqual({ error: "Each day must be between 1 and 365." });
    expect(parseDays("-61", "invoice")).toEqual({ error: "Each day must be between -60 and 365." });
    expect(parseDays("3, 3", "proposal")).toEqual({ error: "Each day may appear only once." });
    expect(parseDays("1,2,3,4,5,6,7,8,9,10,11", "proposal")).toEqual({ error: "At most 10 days." });
  });

  it("needs at least one day while a kind is on", () => {
    const off = reminderSettingsSchema.safeParse({ invoiceDays: "", proposalDays: "" });
    expect(off.success).toBe(true);
    const on = reminderSettingsSchema.safeParse({ invoiceEnabled: true, invoiceDays: "", proposalDays: "3" });
    expect(on.success).toBe(false);
    expect(on.error?.issues[0]).toMatchObject({ path: ["invoiceDays"], message: "Enter at least one day, or turn these reminders off." });
  });
});
