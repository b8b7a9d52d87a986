import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { mailOutbox, settings } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { useTestServices } from "../../../tests/helpers/services";
import { startSmtpCapture, type SmtpCapture } from "../../../tests/helpers/smtp";
import { enqueueMail } from "./mail.server";
import { notifyAdmin } from "./notifications.server";
import { createMailSender, processOutboxOnce } from "./outbox.server";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testDatabases())("mail outbox on %s", (_name, open) => {
  const ctx = useTestServices(open);
  let smtp: SmtpCapture | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it("keeps a mail while SMTP is down, retries with back-off, then delivers it exactly once", async () => {
    const { t } = ctx;
    const port = await freePort();
    const send = createMailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: "/nonexistent" });
    const options = {
      db: t.db,
      send,
      from: "Portal <portal@example.com>",
      origin: "https://portal.example",
      adminEmail: "owner@example.com",
      baseDelayMs: 200,
      maxDelayMs: 1_000,
    };
    await enqueueMail(t.db, { to: "owner@example.com", subject: "Hello", text: "Plain body", html: "<p>HTML body</p>" });

    // SMTP down: two failed attempts, each pushing the next attempt further away.
    expect(await processOutboxOnce(options)).toEqual({ sent: 0, failed: 1 });
    const [afterFirst] = await t.db.select().from(mailOutbox);
    expect(afterFirst).toMatchObject({ attempts: 1, sentAt: null });
    expect(afterFirst!.lastError).toMatch(/ECONNREFUSED|connect/i);
    // Not due yet: nothing is attempted.
    expect(await processOutboxOnce(options)).toEqual({ sent: 0, failed: 0 });
    await sleep(250);
    expect(await processOutboxOnce(options)).toEqual({ sent: 0, failed: 1 });
    const [afterSecond] = await t.db.select().from(mailOutbox);
    expect(afterSecond!.attempts).toBe(2);
    expect(afterSecond!.nextAttemptAt.getTime() - afterFirst!.nextAttemptAt.getTime()).toBeGreaterThan(150);

    // SMTP back: delivered once, then never again.
    smtp = await startSmtpCapture({ port });
    await sleep(450);
    expect(await processOutboxOnce(options)).toEqual({ sent: 1, failed: 0 });
    await sleep(300);
    expect(await processOutboxOnce(options)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!.parsed;
    expect(mail.subject).toBe("Hello");
    expect(mail.text?.trim()).toBe("Plain body");
    expect(mail.html).toContain("<p>HTML body</p>");
    const [row] = await t.db.select().from(mailOutbox);
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.attempts).toBe(3);
  });

  it("two workers polling together send each mail once", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    const send = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    for (let i = 0; i < 10; i++) await enqueueMail(t.db, { to: `r${i}@example.com`, subject: `m${i}`, text: "x" });
    const options = {
      db: t.db,
      send,
      from: "p@example.com",
      origin: "https://portal.example",
      adminEmail: "owner@example.com",
      batchSize: 3,
    };
    const passes = await Promise.all([
      processOutboxOnce(options),
      processOutboxOnce(options),
      processOutboxOnce(options),
      processOutboxOnce(options),
    ]);
    const again = await Promise.all([processOutboxOnce(options), processOutboxOnce(options)]);
    const total = [...passes, ...again].reduce((sum, r) => sum + r.sent, 0);
    // Drain whatever is left, then check nothing was sent twice.
    while ((await processOutboxOnce(options)).sent > 0);
    expect(total).toBeLessThanOrEqual(10);
    await smtp.waitFor(10);
    expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
  });

  it("resolves the admin recipient (support e-mail, else the owner) and the origin of links when sending", async () => {
    const { t } = ctx;
    smtp = await startSmtpCapture();
    const send = createMailSender({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    const options = { db: t.db, send, from: "p@example.com", origin: "https://portal.example", adminEmail: "owner@example.com" };
    await notifyAdmin(t.db, {
      subject: "New proposal request",
      lines: ["A client asked for a website."],
      link: { label: "Open proposals", path: "/admin/proposals" },
    });
    await processOutboxOnce(options);
    await t.db.insert(settings).values({ id: 1, supportEmail: "support@agency.example", companyName: "Agency Co" });
    await notifyAdmin(t.db, { subject: "Second", lines: ["x"], link: { label: "Open", path: "/admin" } });
    await processOutboxOnce(options);
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
