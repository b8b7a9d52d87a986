/**
 * Outbox drain rate (docs/product.md#mail-delivery): how fast a backlog of queued mail (e.g.
 * after an SMTP outage or a restart) reaches an SMTP server, in one run:
 *   1. as shipped before: a new SMTP connection per message, one batch of 20 per second;
 *   2. a new connection per message, the next batch at once after a full one;
 *   3. now: one pooled transport (connections reused), the next batch at once.
 * The SMTP server is smtp-server in this process, accepting and discarding every message. The
 * database is a fresh PostgreSQL database (TEST_DATABASE_URL or the local server).
 * Writes bench/results/outbox-drain.md.
 *
 *   npx tsx bench/outbox-drain.ts [mails per run, default 300]
 */
import { SMTPServer } from "smtp-server";
import { openDatabase } from "#app/db/client.server";
import { mailOutbox } from "#app/db/schema";
import { enqueueMail } from "#app/features/mail/mail.server";
import { createMailSender, processOutboxOnce, startOutboxWorker, type OutboxOptions } from "#app/features/mail/outbox.server";
import { writeResults } from "./lib/server";
import { createPgDatabase } from "../tests/helpers/test-database";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const COUNT = Number(process.argv[2] ?? 300);

async function main() {
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as { port: number }).port;
  const smtpUrl = `smtp://127.0.0.1:${port}`;

  const database = await createPgDatabase(PG_URL, "outbox_drain");
  const handle = await openDatabase({ url: database.url });

  const fill = async () => {
    await handle.db.delete(mailOutbox);
    for (let i = 0; i < COUNT; i++) {
      await enqueueMail(handle.db, {
        to: `client${i}@example.com`,
        subject: `Invoice INV-${i} is ready`,
        text: `Hello,\n\nyour invoice INV-${i} is ready.\n\n`.repeat(5),
        html: `<p>Hello,</p><p>your invoice INV-${i} is ready.</p>`.repeat(5),
      });
    }
    received = 0;
  };
  const base = (pool: boolean): OutboxOptions => ({
    db: handle.db,
    send: createMailSender({ smtpUrl, outboxDir: "/nonexistent", pool }),
    from: "Portal <portal@example.com>",
    origin: "https://portal.example",
    adminEmail: "owner@example.com",
  });
  const waitDrained = async () => {
    while (received < COUNT) await new Promise((r) => setTimeout(r, 5));
  };
  const rows: { label: string; seconds: number }[] = [];
  /** Refills the outbox and times today's worker draining it, with or without a pooled transport. */
  const timeWorker = async (pool: boolean, label: string) => {
    await fill();
    const options = base(pool);
    const t0 = performance.now();
    const worker = startOutboxWorker(options);
    await waitDrained();
    rows.push({ label, seconds: (performance.now() - t0) / 1000 });
    await worker.stop();
  };

  // 1. As shipped: unpooled, and the worker waited its 1 s interval after every pass.
  await fill();
  {
    const options = base(false);
    const t0 = performance.now();
    while ((await processOutboxOnce(options)).claimed > 0 && received < COUNT) await new Promise((r) => setTimeout(r, 1_000));
    await waitDrained();
    rows.push({ label: "before: a connection per mail, 20 mails per 1 s poll", seconds: (performance.now() - t0) / 1000 });
    options.send.close?.();
  }
  // 2. Unpooled, with today's worker (the next batch at once after a full one).
  await timeWorker(false, "a connection per mail, next batch at once");
  // 3. Now: pooled transport and today's worker.
  await timeWorker(true, "now: one pooled transport (3 connections reused), next batch at once");

  await handle.close();
  await database.drop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));

  const table = [
    "| delivery | mails | seconds | mails/s |",
    "| --- | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.label} | ${COUNT} | ${r.seconds.toFixed(2)} | ${(COUNT / r.seconds).toFixed(1)} |`),
  ].join("\n");
  const file = writeResults(
    "outbox-drain",
    "Outbox drain rate",
    `npx tsx bench/outbox-drain.ts ${COUNT}`,
    `A backlog of ${COUNT} queued mails (plain text and HTML, ~1 KB each) delivered to smtp-server in the same process, ` +
      `database PostgreSQL (fresh database). Each row is marked sent in its own UPDATE after the SMTP server accepted it.\n\n${table}\n\n` +
      `Before, every message opened a new SMTP connection (TCP + EHLO + MAIL/RCPT/DATA + QUIT) and the worker slept its ` +
      `1 s poll interval even after a full batch of 20. Now one pooled nodemailer transport reuses up to 3 connections ` +
      `(rotated every 500 messages) for the life of the process, and a full batch is followed by the next one at once; ` +
      `the worker still sends one message at a time, so the rate is bounded by one SMTP round trip plus one UPDATE per mail.`,
  );
  console.log(table);
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
