import net from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvent, mailOutbox, rateWindow, settings } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../tests/helpers/db";
import { makeAdmin, makeClient, useTestServices } from "../../../tests/helpers/services";
import { startSmtpCapture, type SmtpCapture } from "../../../tests/helpers/smtp";
import { enqueueMail } from "./mail.server";
import { notifyAdmin, queueNotification, queueUserNotice, queueUserUpdate } from "./notifications.server";
import { setUserActive } from "#app/features/users/users.server";
import { listOutboxForAdmin, retryOutboxMail } from "./outbox-admin.server";
import { makeJobsDue, jobsOf } from "../../../tests/helpers/jobs";
import {
  countOutbox,
  createMailSender,
  deliverDueMails,
  deliverMail,
  DEACTIVATED_RECIPIENT,
  outboxMessageId,
  purgeOutbox,
  type MailSender,
} from "./outbox.server";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(testDatabases())("mail outbox on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let smtp: SmtpCapture | undefined;
  let send: MailSender | undefined;
  afterEach(async () => {
    send?.close?.();
    send = undefined;
    await smtp?.close();
    smtp = undefined;
  });

  it("keeps a mail while SMTP is down, retries with back-off, then delivers it exactly once", async () => {
    const { t } = ctx;
    const port = await freePort();
    send = createMailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: "/nonexistent" });
    const options = {
      db: t.db,
      send,
      from: "Portal <portal@example.com>",
      origin: "https://portal.example",
      adminEmail: "owner@example.com",
    };
    await enqueueMail(t.db, { to: "owner@example.com", subject: "Hello", text: "Plain body", html: "<p>HTML body</p>" });

    // SMTP down: two failed attempts, each pushing the next attempt further away (the queue's back-off).
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 1 });
    const [afterFirst] = await t.db.select().from(mailOutbox);
    expect(afterFirst).toMatchObject({ attempts: 1, sentAt: null, lockedUntil: null, leaseId: null });
    expect(afterFirst!.lastError).toMatch(/ECONNREFUSED|connect/i);
    const [retry] = await t.db
      .execute(sql`select start_after - now() > interval '80 seconds' as later from pgboss.job where name = 'mail'`)
      .then((r) => (r as unknown as { rows: { later: boolean }[] }).rows);
    expect(retry!.later).toBe(true);
    // Not due yet: nothing is attempted.
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 0 });
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 1 });
    const [afterSecond] = await t.db.select().from(mailOutbox);
    expect(afterSecond!.attempts).toBe(2);
    expect((await jobsOf(t.db, "mail"))[0]).toMatchObject({ state: "retry", retryCount: 1 });

    // SMTP back: delivered once, then never again.
    smtp = await startSmtpCapture({ port });
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ sent: 1, failed: 0 });
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!.parsed;
    expect(mail.subject).toBe("Hello");
    expect(mail.text?.trim()).toBe("Plain body");
    expect(mail.html).toContain("<p>HTML body</p>");
    const [row] = await t.db.select().from(mailOutbox);
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.attempts).toBe(3);
    expect((await jobsOf(t.db, "mail"))[0]).toMatchObject({ state: "completed" });
  });

  it("two runners draining together send each mail once", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    send = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    for (let i = 0; i < 10; i++) await enqueueMail(t.db, { to: `r${i}@example.com`, subject: `m${i}`, text: "x" });
    const options = { db: t.db, send, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    const passes = await Promise.all([deliverDueMails(options), deliverDueMails(options), deliverDueMails(options)]);
    expect(passes.reduce((sum, r) => sum + r.sent, 0)).toBe(10);
    await smtp.waitFor(10);
    expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
  });

  it("an attempt never sends a mail another attempt holds, and marks it sent only while the lease is its own", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    send = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    const options = { db: t.db, send, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    const id = await enqueueMail(t.db, { to: "r@example.com", subject: "Held", text: "x" });
    // Another attempt (a process that may still be sending) holds the lease: this one refuses, sends nothing.
    await t.db
      .update(mailOutbox)
      .set({ lockedUntil: sql`now() + interval '1 minute'`, leaseId: "00000000-0000-4000-8000-000000000001" })
      .where(eq(mailOutbox.id, id));
    await expect(deliverMail(options, { data: { mailId: id } })).rejects.toThrow(/another delivery attempt holds this mail/);
    expect(smtp.messages).toHaveLength(0);

    // A lease taken over while this attempt sends (it outlived its lease): the row is not marked sent by it.
    await t.db.update(mailOutbox).set({ lockedUntil: null, leaseId: null }).where(eq(mailOutbox.id, id));
    const stolen: MailSender = async (message) => {
      await t.db.update(mailOutbox).set({ leaseId: "00000000-0000-4000-8000-000000000002" }).where(eq(mailOutbox.id, id));
      await send!(message);
    };
    expect(await deliverMail({ ...options, send: stolen }, { data: { mailId: id } })).toBe("sent");
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row!.sentAt).toBeNull();
    expect(row!.leaseId).toBe("00000000-0000-4000-8000-000000000002");

    // A sent mail is skipped: its job completes without sending.
    await t.db
      .update(mailOutbox)
      .set({ sentAt: sql`now()`, leaseId: null, lockedUntil: null })
      .where(eq(mailOutbox.id, id));
    expect(await deliverMail(options, { data: { mailId: id } })).toBe("skipped");
    expect(smtp.messages).toHaveLength(1);
  });

  it("a send still unsettled after its deadline keeps renewing its lease: no second attempt sends it (issue #36)", async () => {
    const { t } = ctx;
    const id = await enqueueMail(t.db, { to: "r@example.com", subject: "Slow", text: "x" });
    let finish!: () => void;
    const sent: string[] = [];
    // Waits (like a message queued behind a slow one on a pooled connection) until released.
    const slow: MailSender = (message) =>
      new Promise<void>((resolve) => {
        finish = () => {
          sent.push(message.messageId);
          resolve();
        };
      });
    const options = { db: t.db, send: slow, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    await expect(deliverMail({ ...options, leaseSeconds: 1, deadlineMs: 100 }, { data: { mailId: id } })).rejects.toThrow(/did not answer/);
    // Well past the first lease (1 s): a second attempt still finds the mail held.
    await new Promise((r) => setTimeout(r, 2_500));
    await expect(deliverMail({ ...options, leaseSeconds: 1 }, { data: { mailId: id } })).rejects.toThrow(
      /another delivery attempt holds this mail/,
    );
    finish();
    await expect
      .poll(async () => (await t.db.select({ sentAt: mailOutbox.sentAt }).from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!.sentAt)
      .not.toBeNull();
    expect(sent).toHaveLength(1);
    expect(await deliverMail(options, { data: { mailId: id } })).toBe("skipped");
  });

  it("a stalled SMTP server ends an attempt by its socket timeout, within the lease, and the mail is retried", async () => {
    const { t } = ctx;
    // Accepts connections and never says a word.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    send = createMailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: "/nonexistent", timeoutsMs: { greeting: 300 } });
    const options = { db: t.db, send, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    await enqueueMail(t.db, { to: "r@example.com", subject: "Stalled", text: "x" });
    const started = Date.now();
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 1 });
    expect(Date.now() - started).toBeLessThan(10_000);
    const [row] = await t.db.select().from(mailOutbox);
    expect(row!.lastError).toMatch(/greeting/i);
    expect(row).toMatchObject({ leaseId: null, lockedUntil: null, attempts: 1 });
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it("a deactivated user gets no mail from any path, queued before or after the deactivation; reactivated, they do (issue #36)", async () => {
    const { t, s } = ctx;
    const sent: string[] = [];
    const options = {
      db: t.db,
      send: (async (m) => void sent.push(`${m.to}: ${m.subject}`)) as MailSender,
      from: "p@example.com",
      origin: "https://portal.example",
      adminEmail: "owner@example.com",
    };
    const gone = await makeClient(s, { verified: true });
    const other = await makeClient(s, { verified: true });
    await deliverDueMails(options);
    sent.length = 0;
    const notice = { subject: "Before", lines: ["x"], link: { label: "Open", path: "/" } };
    await queueUserNotice(t.db, gone.id, notice);
    await setUserActive(t.db, await makeAdmin(s), gone.id, false);
    await queueUserNotice(t.db, gone.id, { ...notice, subject: "Essential" });
    await queueUserUpdate(t.db, gone.id, { ...notice, subject: "Update" });
    await queueNotification(t.db, { ...notice, to: gone.email.toUpperCase(), subject: "By address" });
    await queueUserNotice(t.db, other.id, { ...notice, subject: "To someone active" });
    await deliverDueMails(options);
    expect(sent.map((m) => m.replace(/ — .*$/, ""))).toEqual([`${other.email}: To someone active`]);
    const held = await t.db.select().from(mailOutbox).where(eq(mailOutbox.lastError, DEACTIVATED_RECIPIENT));
    expect(held).toHaveLength(4);
    expect(held.every((m) => m.sentAt === null && m.failedAt !== null)).toBe(true);
    await setUserActive(t.db, await makeAdmin(s), gone.id, true);
    await queueUserNotice(t.db, gone.id, { ...notice, subject: "Back" });
    await deliverDueMails(options);
    expect(sent.map((m) => m.replace(/ — .*$/, ""))).toContain(`${gone.email}: Back`);
  });

  it("resolves the admin recipient (support e-mail, else the owner) and the origin of links when sending", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    send = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    const options = { db: t.db, send, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    await notifyAdmin(t.db, {
      subject: "New proposal request",
      lines: ["A client asked for a website."],
      link: { label: "Open proposals", path: "/admin/proposals" },
    });
    await deliverDueMails(options);
    await t.db.insert(settings).values({ id: 1, supportEmail: "support@agency.example", companyName: "Agency Co" });
    await notifyAdmin(t.db, { subject: "Second", lines: ["x"], link: { label: "Open", path: "/admin" } });
    await deliverDueMails(options);
    await smtp.waitFor(2);
    const [first, second] = smtp.messages.map((m) => m.parsed);
    expect(first!.to).toMatchObject({ text: "owner@example.com" });
    expect(first!.subject).toBe("New proposal request — Client Portal");
    expect(first!.text).toContain("Open proposals: https://portal.example/admin/proposals");
    expect(first!.html).toContain('href="https://portal.example/admin/proposals"');
    expect(second!.to).toMatchObject({ text: "support@agency.example" });
    expect(second!.subject).toBe("Second — Agency Co");
    expect(second!.text).toContain("Questions? Write to support@agency.example.");
  });
});

describe.each(testDatabases())("mail outbox limits, retry and purge on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let smtp: SmtpCapture | undefined;
  let sender: MailSender | undefined;
  afterEach(async () => {
    sender?.close?.();
    sender = undefined;
    await smtp?.close();
    smtp = undefined;
  });

  it("marks a mail failed after the attempt limit, stops trying it, and an audited admin retry sends it", async () => {
    const { t, admin } = ctx;
    const port = await freePort();
    sender = createMailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: "/nonexistent" });
    const options = { db: t.db, send: sender, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    // Three attempts (OUTBOX_MAX_ATTEMPTS=3 sets the queue so at start).
    await t.db.execute(sql`update pgboss.queue set retry_limit = 2 where name = 'mail'`);
    const id = await enqueueMail(t.db, { to: "someone@example.com", subject: "Invoice ready", text: "x" });
    expect(await deliverDueMails(options)).toMatchObject({ failed: 1, dead: 0 });
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ failed: 1, dead: 0 });
    await makeJobsDue(t.db);
    // The last attempt fails: the job fails and its dead letter marks the mail failed.
    expect(await deliverDueMails(options)).toMatchObject({ failed: 1, dead: 1 });
    const [row] = await t.db.select().from(mailOutbox);
    expect(row).toMatchObject({ attempts: 3, sentAt: null });
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(row!.lastError).toMatch(/ECONNREFUSED|connect/i);
    // Failed: never tried again.
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ sent: 0, failed: 0, dead: 0 });
    expect((await jobsOf(t.db, "mail")).map((j) => j.state)).toEqual(["failed"]);
    expect(await countOutbox(t.db)).toEqual({ pending: 0, failed: 1 });
    const listed = await listOutboxForAdmin(t.db, admin);
    expect(listed.failed.map((m) => [m.id, m.state, m.subject])).toEqual([[id, "failed", "Invoice ready"]]);
    expect(listed.pending).toEqual([]);

    // Only an admin may retry.
    // (A client made without signing up: a sign-up would queue its verification mail here.)
    const client = { id: "not-an-admin", role: "client" as const, email: "client@example.com" };
    await expect(retryOutboxMail(t.db, client, id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(retryOutboxMail(t.db, admin, 999_999)).rejects.toBeInstanceOf(AppError);

    expect(await retryOutboxMail(t.db, admin, id)).toEqual({ to: "someone@example.com", subject: "Invoice ready" });
    const [back] = await t.db.select().from(mailOutbox);
    expect(back).toMatchObject({ attempts: 0, failedAt: null, sentAt: null });
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.entity, "mail"));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.id, entityId: String(id), action: "retry", after: { attempts: 0, failedAt: null } });
    expect((events[0]!.before as { attempts: number }).attempts).toBe(3);

    smtp = await startSmtpCapture({ port });
    expect(await deliverDueMails(options)).toMatchObject({ sent: 1 });
    expect(smtp.messages.map((m) => m.parsed.subject)).toEqual(["Invoice ready"]);
    // The retry was a new job; the failed one stays failed (listed as the mail, not as a failed job).
    expect((await jobsOf(t.db, "mail")).map((j) => j.state)).toEqual(["failed", "completed"]);
    expect(await countOutbox(t.db)).toEqual({ pending: 0, failed: 0 });
  });

  it("sends the same Message-ID on every attempt of a row, derived from the row", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    sender = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    const seen: string[] = [];
    let calls = 0;
    // The first attempt fails after the message was built; the second goes through.
    const flaky: MailSender = async (message) => {
      seen.push(message.messageId);
      if (++calls === 1) throw new Error("421 try again later");
      await sender!(message);
    };
    const options = { db: t.db, send: flaky, from: "p@example.com", origin: "https://portal.example", adminEmail: "o@example.com" };
    const id = await enqueueMail(t.db, { to: "r@example.com", subject: "Stable", text: "x" });
    await enqueueMail(t.db, { to: "r2@example.com", subject: "Other", text: "x" });
    expect(await deliverDueMails(options)).toMatchObject({ sent: 1, failed: 1 });
    await makeJobsDue(t.db);
    expect(await deliverDueMails(options)).toMatchObject({ sent: 1, failed: 0 });
    await smtp.waitFor(2);
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    const expected = outboxMessageId(row!, "https://portal.example");
    expect(expected).toMatch(new RegExp(`^<outbox-${id}\\.\\d+@portal\\.example>$`));
    const attemptsOfRow = seen.filter((m) => m === expected);
    expect(attemptsOfRow).toHaveLength(2);
    const received = smtp.messages.map((m) => m.parsed.messageId);
    expect(received).toContain(expected);
    expect(new Set(received).size).toBe(2);
  });

  it("purges sent mails older than the retention and rate-limit windows older than a day, and nothing else", async () => {
    const { t } = ctx;
    const old = await enqueueMail(t.db, { to: "a@example.com", subject: "old sent", text: "x" });
    const recent = await enqueueMail(t.db, { to: "b@example.com", subject: "recent sent", text: "x" });
    const pending = await enqueueMail(t.db, { to: "c@example.com", subject: "old pending", text: "x" });
    const failed = await enqueueMail(t.db, { to: "d@example.com", subject: "old failed", text: "x" });
    await t.db
      .update(mailOutbox)
      .set({ sentAt: sql`now() - interval '31 days'` })
      .where(eq(mailOutbox.id, old));
    await t.db
      .update(mailOutbox)
      .set({ sentAt: sql`now() - interval '29 days'` })
      .where(eq(mailOutbox.id, recent));
    await t.db
      .update(mailOutbox)
      .set({ createdAt: sql`now() - interval '60 days'` })
      .where(eq(mailOutbox.id, pending));
    await t.db
      .update(mailOutbox)
      .set({ createdAt: sql`now() - interval '60 days'`, failedAt: sql`now() - interval '40 days'` })
      .where(eq(mailOutbox.id, failed));
    await t.db.insert(rateWindow).values([
      { key: "contact:old", count: 3, windowStart: sql`now() - interval '25 hours'` },
      { key: "contact:recent", count: 3, windowStart: sql`now() - interval '2 hours'` },
    ]);

    expect(await purgeOutbox(t.db, { retentionDays: 30 })).toEqual({ mails: 1, rateWindows: 1 });
    const left = await t.db.select({ id: mailOutbox.id }).from(mailOutbox);
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual([recent, pending, failed]);
    expect((await t.db.select({ key: rateWindow.key }).from(rateWindow)).map((r) => r.key)).toEqual(["contact:recent"]);
    expect(await purgeOutbox(t.db, { retentionDays: 7 })).toEqual({ mails: 1, rateWindows: 0 });
  });
});
