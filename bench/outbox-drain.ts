/**
 * Mail delivery through the job queue (docs/product.md#mail-delivery, ADR 019), with several
 * processes on one PostgreSQL database — each a real job runner (tests/helpers/mail-worker.ts:
 * the app's runner, mail handler and pooled SMTP transport, 3 connections) — and a real SMTP
 * server (smtp-server in this process) that counts what it accepts by Message-ID:
 *   1. drain: a backlog of 10,000 queued mails drained by 2 processes: time, mails/s, duplicates, lost;
 *   2. stall: 300 mails, the SMTP server holds the first 6 messages 30 s before answering (every
 *      connection of both processes waits at once): duplicates, lost, time.
 * The database is a fresh PostgreSQL database (TEST_DATABASE_URL or the local server).
 * Writes bench/results/outbox-drain.md.
 *
 *   npx tsx bench/outbox-drain.ts [mails to drain, default 10000]
 */
import os from "node:os";
import { sql } from "drizzle-orm";
import { openDatabase } from "#app/db/client.server";
import { enqueueMail } from "#app/features/mail/mail.server";
import { writeResults } from "./lib/server";
import { bundleMailWorkers, exited, type MailWorkers } from "../tests/helpers/mail-workers";
import { startSmtpRecorder, type SmtpRecorder } from "../tests/helpers/smtp-recorder";
import { createPgDatabase } from "../tests/helpers/test-database";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const COUNT = Number(process.argv[2] ?? 10_000);
const STALL = process.argv[3] !== "--no-stall";
const PROCESSES = 2;

interface Trial {
  label: string;
  mails: number;
  seconds: number;
  distinct: number;
  duplicates: number;
  lost: number;
  sentRows: number;
  attempts: number;
}

/** Queues `mails` mails, starts the processes, waits until the SMTP server has every one, then checks. */
async function trial(label: string, mails: number, smtp: SmtpRecorder, settleMs: number, mailWorkers: MailWorkers): Promise<Trial> {
  const database = await createPgDatabase(PG_URL, "mail_drain");
  const handle = await openDatabase({ url: database.url, poolMax: 4 });
  try {
    for (let i = 0; i < mails; i += 500) {
      await handle.db.transaction(async (tx) => {
        for (let j = i; j < Math.min(mails, i + 500); j++) {
          await enqueueMail(tx, {
            to: `client${j}@example.com`,
            subject: `Invoice INV-${j} is ready`,
            text: `Hello,\n\nyour invoice INV-${j} is ready.\n\n`.repeat(5),
            html: `<p>Hello,</p><p>your invoice INV-${j} is ready.</p>`.repeat(5),
          });
        }
      });
    }
    const t0 = performance.now();
    const workers = await Promise.all(
      Array.from({ length: PROCESSES }, () => mailWorkers.start({ DATABASE_URL: database.url, SMTP_URL: smtp.url })),
    );
    while (smtp.accepted.size < mails) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - t0) / 1000;
    // Time for a would-be duplicate (an attempt run twice) to arrive.
    await new Promise((r) => setTimeout(r, settleMs));
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(workers.map(exited));
    const { rows } = (await handle.db.execute(
      sql`select count(*) filter (where sent_at is not null)::int as sent, coalesce(sum(attempts), 0)::int as attempts from mail_outbox`,
    )) as unknown as { rows: { sent: number; attempts: number }[] };
    const retried = (await handle.db.execute(
      sql`select output->>'message' as error, count(*)::int as n from pgboss.job where name = 'mail' and retry_count > 0 group by 1`,
    )) as unknown as {
      rows: { error: string; n: number }[];
    };
    if (retried.rows.length) console.log("attempts that failed:", retried.rows);
    const counts = [...smtp.accepted.values()];
    return {
      label,
      mails,
      seconds,
      distinct: smtp.accepted.size,
      duplicates: counts.reduce((sum, n) => sum + (n - 1), 0),
      lost: mails - smtp.accepted.size,
      sentRows: rows[0]!.sent,
      attempts: rows[0]!.attempts,
    };
  } finally {
    await handle.close();
    await database.drop();
  }
}

async function main() {
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  const results: Trial[] = [];
  const mailWorkers = await bundleMailWorkers();
  try {
    {
      const smtp = await startSmtpRecorder();
      results.push(
        await trial(`drain: ${COUNT.toLocaleString("en-US")} queued mails, ${PROCESSES} processes`, COUNT, smtp, 3_000, mailWorkers),
      );
      await smtp.close();
    }
    if (STALL) {
      const smtp = await startSmtpRecorder({ delayMs: (index) => (index < 6 ? 30_000 : 0) });
      results.push(
        await trial(`stall: the SMTP server holds the first 6 messages 30 s, ${PROCESSES} processes`, 300, smtp, 10_000, mailWorkers),
      );
      await smtp.close();
    }
  } finally {
    mailWorkers.remove();
  }
  const table = [
    "| trial | mails | seconds | mails/s | accepted (distinct Message-IDs) | duplicates | lost | rows marked sent | attempts recorded |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.mails} | ${r.seconds.toFixed(1)} | ${(r.mails / r.seconds).toFixed(0)} | ${r.distinct} | ${r.duplicates} | ${r.lost} | ${r.sentRows} | ${r.attempts} |`,
    ),
  ].join("\n");
  const file = writeResults(
    "outbox-drain",
    "Mail delivery through the job queue: drain and stalled SMTP",
    `npx tsx bench/outbox-drain.ts ${COUNT}`,
    `Each mail is one job of the \`mail\` queue (pg-boss 10.4.2, ADR 019). ${PROCESSES} processes run the app's job runner ` +
      `(tests/helpers/mail-worker.ts) on a fresh PostgreSQL 15 database: each fetches mail jobs with \`FOR UPDATE SKIP LOCKED\`, ` +
      `3 at a time over one pooled nodemailer transport (3 connections), claims the mail with a lease, sends it and marks it sent ` +
      `only while the lease is its own. The SMTP server is smtp-server in the benchmark's process; it counts accepted messages by ` +
      `Message-ID (the same on every attempt of a mail), so a mail sent twice shows as a duplicate. Mails are ~1 KB (text and HTML).\n\n` +
      `${table}\n\n` +
      `Load average (1 min) at the start ${loadBefore}, at the end ${os.loadavg()[0]!.toFixed(1)} (2 cores, shared with other work).\n\n` +
      `The stalled server answers the first 6 messages — one on every connection of both processes — only after 30 s. The SMTP ` +
      `socket timeout is 60 s and an attempt holds its mail for 300 s (its job expires then), so the attempts wait for the answer: ` +
      `nothing is sent twice. Before (issue #36) the outbox leased 20 rows for 60 s, sent them one by one without SMTP timeouts ` +
      `and marked them sent without checking it still held them, so a stall longer than the lease let another process send the ` +
      `same rows again. "attempts recorded" sums every row's attempts: equal to the mails when no attempt was repeated.`,
  );
  console.log(table);
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
