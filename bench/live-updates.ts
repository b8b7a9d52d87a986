/**
 * Live updates under load (docs/product.md#live-updates, issue #24), on PostgreSQL:
 *
 * 1. **One process, 2,000 streams.** The built app holds 2,000 open `GET /events` streams (400
 *    admins × 5 tabs); its RSS is read before and after they open (target: growth < 100 MB). Then
 *    an admin action on that process (marking a contact message handled: an audited write every
 *    admin is told about) is repeated; for each, the time from sending the request to each stream
 *    receiving the event (target: 95 % of recipients within 200 ms).
 * 2. **Two processes.** Two app instances on the same database, 1,000 streams on each; the events
 *    are caused on the first, and the latency is reported separately for the recipients connected
 *    to the other one (LISTEN/NOTIFY carries them across).
 *
 * The streams are held by two load-generator processes (bench/lib/sse-load.ts), each reporting its
 * CPU time and event-loop delay during the measurement, to show that the generator is not what
 * limits the figures. Writes bench/results/live-updates.md.
 *
 *   npm run build && npx tsx bench/live-updates.ts      # LIVE_STREAMS=2000 LIVE_EVENTS=30
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { signIn } from "./lib/sign-in";
import { removeTrialStorage, startApp, trialStorage, writeResults, type RunningApp } from "./lib/server";

const STREAMS = Number(process.env.LIVE_STREAMS ?? 2000);
const EVENTS = Number(process.env.LIVE_EVENTS ?? 30);
const TABS_PER_USER = 5;
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECRET = "bench-secret-bench-secret-bench-secret-0123";
const TARGET_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (USER_HZ = 100)
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}

/** The server's signed session cookie (better-auth: `<token>.<base64 HMAC-SHA-256>`), for sessions made in SQL. */
function sessionCookie(token: string): string {
  const signature = createHmac("sha256", SECRET).update(token).digest("base64");
  return `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** Creates `count` admins with one session each, straight in SQL (signing 400 users in would only time scrypt). */
async function makeAdminSessions(client: pg.Client, count: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `bench-live-${i}-${randomBytes(4).toString("hex")}`;
    const token = randomBytes(24).toString("hex");
    await client.query(`insert into "user" (id, name, email, email_verified, role) values ($1, $2, $3, true, 'admin')`, [
      id,
      `Bench admin ${i}`,
      `${id}@bench.test`,
    ]);
    await client.query(`insert into session (id, token, user_id, expires_at) values ($1, $2, $3, now() + interval '1 day')`, [
      `${id}-s`,
      token,
      id,
    ]);
    cookies.push(sessionCookie(token));
  }
  return cookies;
}

interface Generator {
  child: ChildProcess;
  request<T>(message: { type: string; streams?: { url: string; cookie: string }[] }, answer: string): Promise<T>;
}

function startGenerator(): Generator {
  const child = fork(path.resolve("bench/lib/sse-load.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    child,
    request<T>(message: { type: string }, answer: string) {
      return new Promise<T>((resolve) => {
        const onMessage = (reply: { type: string }) => {
          if (reply.type !== answer) return;
          child.off("message", onMessage);
          resolve(reply as T);
        };
        child.on("message", onMessage);
        child.send(message);
      });
    },
  };
}

interface Report {
  arrivals: [number, number[]][];
  open: number;
  /** The last frame of each stream that ended. */
  endings: string[];
  cpuMs: number;
  wallMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Causes one event every `gapMs` on `app`; @returns each event's id and the time its request was sent. */
async function causeEvents(app: RunningApp, adminCookie: string, messageId: number, client: pg.Client, count: number, gapMs = 300) {
  /** Per event id: when its request was sent, and when its writing transaction started (the row's created_at). */
  const sent = new Map<number, { sent: number; written: number }>();
  for (let i = 0; i < count; i++) {
    const { rows: state } = await client.query<{ handled: boolean }>(
      "select handled_at is not null as handled from contact_message where id = $1",
      [messageId],
    );
    const t0 = performance.timeOrigin + performance.now();
    const response = await fetch(`${app.baseUrl}/admin/messages/${messageId}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.baseUrl, cookie: adminCookie },
      body: new URLSearchParams({ intent: state[0]!.handled ? "unhandled" : "handled", messageId: String(messageId) }),
    });
    if (response.status >= 400) throw new Error(`the admin action failed: ${response.status}`);
    await response.arrayBuffer();
    const { rows } = await client.query<{ id: string; at: number }>(
      "select id, extract(epoch from created_at) * 1000 as at from live_event where kind like 'contact.%' order by id desc limit 1",
    );
    sent.set(Number(rows[0]!.id), { sent: t0, written: Number(rows[0]!.at) });
    await sleep(gapMs);
  }
  await sleep(1_000);
  return sent;
}

/**
 * Latencies (ms) of every recipient of every event, and how many receipts are missing.
 *
 * @param from - `sent`: from sending the action's request; `written`: from the start of the write's transaction.
 */
function latencies(
  sent: Map<number, { sent: number; written: number }>,
  reports: Report[],
  expectedPerEvent: number,
  from: "sent" | "written" = "sent",
) {
  const all: number[] = [];
  let missing = 0;
  for (const [id, times0] of sent) {
    const t0 = times0[from];
    const times = reports.flatMap((r) => r.arrivals.find(([eventId]) => eventId === id)?.[1] ?? []);
    missing += expectedPerEvent - times.length;
    for (const t of times) all.push(t - t0);
  }
  all.sort((a, b) => a - b);
  const within = all.filter((ms) => ms <= TARGET_MS).length;
  return {
    count: all.length,
    missing,
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
    max: all.at(-1) ?? NaN,
    withinShare: all.length ? within / (all.length + missing) : 0,
  };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` first.");
  const storage = await trialStorage("postgres", "bench_live", PG_URL);
  const url = storage.database!.url;
  const a = await startApp({ ...storage.env });
  const b = await startApp({ DATABASE_URL: url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-live-b-")) });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const generators = [startGenerator(), startGenerator()];
  const lines: string[] = [];
  try {
    const adminCookie = await signIn(a.baseUrl, "admin@bench.test", { password: "admin-bench-password", forwardedFor: "198.51.100.7" });
    const { rows } = await client.query<{ id: number }>(
      "insert into contact_message (user_name, user_email, message) values ('Bench', 'bench@example.com', 'Live bench') returning id",
    );
    const messageId = rows[0]!.id;
    const users = Math.ceil(STREAMS / TABS_PER_USER);
    const cookies = await makeAdminSessions(client, users);
    const streamsFor = (base: string, from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ({ url: `${base}/events`, cookie: cookies[Math.floor((from + k) / TABS_PER_USER)]! }));

    // Warm-up: a few pages and events on each process, then the idle RSS.
    for (const app of [a, b])
      for (let i = 0; i < 5; i++) await (await fetch(`${app.baseUrl}/admin`, { headers: { cookie: adminCookie } })).arrayBuffer();
    await causeEvents(a, adminCookie, messageId, client, 4, 50);
    await sleep(2_000);

    // 1. One process holds every stream.
    const rssBefore = rssMb(a.child.pid!);
    const half = Math.floor(STREAMS / 2);
    const opened = await Promise.all([
      generators[0]!.request<{ ok: number; failed: number }>({ type: "open", streams: streamsFor(a.baseUrl, 0, half) }, "opened"),
      generators[1]!.request<{ ok: number; failed: number }>({ type: "open", streams: streamsFor(a.baseUrl, half, STREAMS) }, "opened"),
    ]);
    const ok = opened.reduce((n, o) => n + o.ok, 0);
    await sleep(3_000);
    const rssOpen = rssMb(a.child.pid!);
    const cpuA0 = cpuMs(a.child.pid!);
    const started = performance.now();
    const sent1 = await causeEvents(a, adminCookie, messageId, client, EVENTS);
    const serverCpu1 = (cpuMs(a.child.pid!) - cpuA0) / (performance.now() - started);
    const reports1 = await Promise.all(generators.map((g) => g.request<Report>({ type: "report" }, "report")));
    const rssAfter = rssMb(a.child.pid!);

    const one = latencies(sent1, reports1, ok);
    const oneWritten = latencies(sent1, reports1, ok, "written");
    lines.push(
      "## 1. One process, " + `${ok} open streams (${opened.reduce((n, o) => n + o.failed, 0)} refused)`,
      "",
      "| measure | value | target |",
      "| --- | --- | --- |",
      `| server RSS idle (after warm-up) | ${rssBefore.toFixed(0)} MB | |`,
      `| server RSS with the streams open | ${rssOpen.toFixed(0)} MB (+${(rssOpen - rssBefore).toFixed(0)} MB) | growth < 100 MB |`,
      `| server RSS after ${EVENTS} broadcast events | ${rssAfter.toFixed(0)} MB (+${(rssAfter - rssBefore).toFixed(0)} MB) | growth < 100 MB |`,
      `| receipts (events × streams) | ${one.count} (${one.missing} missing) | |`,
      `| streams still open at the end | ${reports1.reduce((n, r) => n + r.open, 0)} of ${ok} | all |`,
      `| latency request sent → event received: p50 / p95 / p99 / max | ${fmt(one.p50)} / ${fmt(one.p95)} / ${fmt(one.p99)} / ${fmt(one.max)} | |`,
      `| recipients within ${TARGET_MS} ms of the request | ${(one.withinShare * 100).toFixed(1)} % | ≥ 95 % |`,
      `| latency write's transaction → event received: p50 / p95 / p99 / max | ${fmt(oneWritten.p50)} / ${fmt(oneWritten.p95)} / ${fmt(oneWritten.p99)} / ${fmt(oneWritten.max)} | |`,
      `| recipients within ${TARGET_MS} ms of the write | ${(oneWritten.withinShare * 100).toFixed(1)} % | ≥ 95 % |`,
      `| server CPU while broadcasting | ${(serverCpu1 * 100).toFixed(0)} % of a core | |`,
      ...reports1.map(
        (r, i) =>
          `| generator ${i + 1}: CPU / event-loop delay p99 (max) | ${((r.cpuMs / r.wallMs) * 100).toFixed(0)} % of a core / ${fmt(r.loopDelayP99Ms)} (${fmt(r.loopDelayMaxMs)}) | not the bottleneck |`,
      ),
      "",
    );
    for (const g of generators) g.child.send({ type: "close" });
    await sleep(3_000);

    // 2. Two processes: half the streams on each, events caused on the first.
    const generators2 = [startGenerator(), startGenerator()];
    const opened2 = await Promise.all([
      generators2[0]!.request<{ ok: number; failed: number }>({ type: "open", streams: streamsFor(a.baseUrl, 0, half) }, "opened"),
      generators2[1]!.request<{ ok: number; failed: number }>({ type: "open", streams: streamsFor(b.baseUrl, half, STREAMS) }, "opened"),
    ]);
    await sleep(3_000);
    const rssB = rssMb(b.child.pid!);
    const sent2 = await causeEvents(a, adminCookie, messageId, client, EVENTS);
    const reports2 = await Promise.all(generators2.map((g) => g.request<Report>({ type: "report" }, "report")));
    const onA = latencies(sent2, [reports2[0]!], opened2[0]!.ok);
    const onB = latencies(sent2, [reports2[1]!], opened2[1]!.ok);
    const onBWritten = latencies(sent2, [reports2[1]!], opened2[1]!.ok, "written");
    lines.push(
      `## 2. Two processes, ${opened2[0]!.ok} + ${opened2[1]!.ok} streams, events caused on the first`,
      "",
      "| recipients connected to | receipts (missing) | p50 / p95 / p99 / max | within 200 ms (target ≥ 95 %) |",
      "| --- | --- | --- | --- |",
      `| the process that caused the event | ${onA.count} (${onA.missing}) | ${fmt(onA.p50)} / ${fmt(onA.p95)} / ${fmt(onA.p99)} / ${fmt(onA.max)} | ${(onA.withinShare * 100).toFixed(1)} % |`,
      `| **the other process** | ${onB.count} (${onB.missing}) | ${fmt(onB.p50)} / ${fmt(onB.p95)} / ${fmt(onB.p99)} / ${fmt(onB.max)} | ${(onB.withinShare * 100).toFixed(1)} % |`,
      `| the other process, from the write's transaction | | ${fmt(onBWritten.p50)} / ${fmt(onBWritten.p95)} / ${fmt(onBWritten.p99)} / ${fmt(onBWritten.max)} | ${(onBWritten.withinShare * 100).toFixed(1)} % |`,
      "",
      `Second process RSS with its ${opened2[1]!.ok} streams: ${rssB.toFixed(0)} MB.`,
      ...reports2.map(
        (r, i) =>
          `Generator ${i + 1}: ${((r.cpuMs / r.wallMs) * 100).toFixed(0)} % of a core, event-loop delay p99 ${fmt(r.loopDelayP99Ms)} (max ${fmt(r.loopDelayMaxMs)}).`,
      ),
      "",
    );
    for (const g of generators2) g.child.send({ type: "close" });

    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ");
    const body = [
      `Load average of the machine at the end (1 / 5 / 15 min): ${load} on ${os.cpus().length} cores — other work was running;`,
      "latency on a busy machine is mostly waiting for a CPU.",
      "",
      "PostgreSQL 15 on the same machine; the built app (`node build/server/main.js`, production mode); two load-generator",
      "processes (bench/lib/sse-load.ts) hold the streams, one connection each. Each event is an audited admin action sent",
      `over HTTP to the first process (contact message marked handled / not handled, ${EVENTS} events 300 ms apart), which every`,
      "admin's streams receive; latency runs from sending that request (so it includes the action itself: the form post,",
      "its transaction, the commit's NOTIFY) to the moment a generator parsed the event. All processes share the machine's",
      "2 cores. A generator at a small share of a core with an event-loop delay of a few ms is not what limits the figures.",
      "",
      ...lines,
    ].join("\n");
    const file = writeResults(
      "live-updates",
      "Live updates: 2,000 open streams, delivery latency, two processes",
      "npx tsx bench/live-updates.ts",
      body,
    );
    console.log(body);
    console.log(`\nwritten to ${file}`);
  } finally {
    for (const g of generators) if (g.child.exitCode === null) g.child.kill();
    await client.end();
    await a.stop();
    await b.stop();
    await removeTrialStorage(storage);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
