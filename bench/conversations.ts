/**
 * Conversation benchmarks (issue #23, docs/product.md#conversations), on PostgreSQL and PGlite:
 *
 * 1. Posting a message (no file) with 50 concurrent clients: 50 client accounts, each with its own
 *    proposal. First each posts the first message of its conversation (mailed at once), 20 ms
 *    apart, reported on its own; then each posts through the composer's upload endpoint then
 *    pauses 0.5–1.5 s (≈ 50 posts/s offered), for 12 s; p50/p95/p99 of every post. Target: p95 < 50 ms.
 * 2. Upload memory: the server's RSS (from /proc) sampled every 20 ms while 4 clients upload a
 *    25 MB file each at once; the growth over the idle RSS just before. Target: < 64 MB.
 *
 * The load generator is this process: its CPU time over each run is reported next to the figures.
 *
 * Run: `npm run build && TEST_DATABASE_URL=postgres://… npx tsx bench/conversations.ts
 * [--only=latency|memory] [--drivers=postgres,pglite]` (`--only=memory`: the upload run alone;
 * `--drivers=pglite`: one database). The results file is rewritten with the tables of this run only.
 * Where PGlite's upload memory goes: bench/pglite-upload-memory.ts.
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { removeTrialStorage, startApp, trialStorage, writeResults, type RunningApp } from "./lib/server";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CLIENTS = 50;
const DURATION_MS = 12_000;
const UPLOADERS = 4;
const UPLOAD_BYTES = 25 * 1024 * 1024 - 1024;

interface Client {
  cookie: string;
  proposalId: number;
  ip: string;
}

async function registerClient(app: RunningApp, n: number): Promise<Client> {
  const ip = `10.23.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const headers = { "content-type": "application/x-www-form-urlencoded", origin: app.baseUrl, "x-forwarded-for": ip };
  const email = `bench-${Date.now().toString(36)}-${n}@example.com`;
  const registered = await fetch(`${app.baseUrl}/register`, {
    method: "POST",
    redirect: "manual",
    headers,
    body: new URLSearchParams({ businessName: `Bench ${n}`, email, phone: "301 555 0100", password: "bench-password-1" }),
  });
  const cookie = registered.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`registration ${n} failed: ${registered.status}`);
  await fetch(`${app.baseUrl}/proposal-request`, {
    method: "POST",
    headers: { ...headers, cookie },
    body: new URLSearchParams({ projectName: `Bench project ${n}`, projectDetails: "A site to talk about." }),
  });
  const html = await (await fetch(`${app.baseUrl}/project-status`, { headers: { cookie, "x-forwarded-for": ip } })).text();
  const id = /\/proposals\/(\d+)/.exec(html)?.[1];
  if (!id) throw new Error(`no proposal for client ${n}`);
  return { cookie, proposalId: Number(id), ip };
}

async function post(app: RunningApp, client: Client, text: string, file?: Blob): Promise<number> {
  const form = new FormData();
  form.append("text", text);
  if (file) form.append("files", file, "big.pdf");
  const response = await fetch(`${app.baseUrl}/proposals/${client.proposalId}/messages`, {
    method: "POST",
    headers: { cookie: client.cookie, origin: app.baseUrl, "x-forwarded-for": client.ip, accept: "application/json" },
    body: form,
  });
  await response.arrayBuffer();
  return response.status;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** One client posting 100 messages one after another: the service time of a post without queueing. */
async function sequentialLatency(app: RunningApp, client: Client) {
  const latencies: number[] = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    await post(app, client, `Sequential message ${i}`);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** Latency figures of a set of posts. */
function summary(latencies: number[], seconds: number, failed: number, cpu: NodeJS.CpuUsage) {
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    rate: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failed,
    generatorCpu: (cpu.user + cpu.system) / 1000 / (seconds * 1000),
  };
}

/**
 * Every client posts the first message of its conversation, the clients one after another 20 ms
 * apart (50 posts in one second): each of these is mailed at once (docs/product.md#conversations-mail).
 */
async function firstMessages(app: RunningApp, clients: Client[]) {
  const latencies: number[] = [];
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / clients.length));
      const start = performance.now();
      if ((await post(app, client, `Hello, this is client ${i}: here is what we need.`)) !== 200) failed++;
      latencies.push(performance.now() - start);
    }),
  );
  return summary(latencies, (performance.now() - started) / 1000, failed, process.cpuUsage(cpu));
}

/** The running conversations: every client posts, pauses 0.5–1.5 s, posts again, for {@link DURATION_MS}. */
async function postLatency(app: RunningApp, clients: Client[]) {
  const latencies: number[] = [];
  let failed = 0;
  const cpu = process.cpuUsage();
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    clients.map(async (client, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / clients.length));
      let n = 0;
      while (Date.now() < end) {
        const start = performance.now();
        const status = await post(app, client, `Benchmark message ${++n} from client ${i}: does the map work on phones?`);
        latencies.push(performance.now() - start);
        if (status !== 200) failed++;
        await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
      }
    }),
  );
  return summary(latencies, DURATION_MS / 1000, failed, process.cpuUsage(cpu));
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function uploadMemory(app: RunningApp, clients: Client[]) {
  const pid = app.child.pid!;
  const pdf = new Uint8Array(UPLOAD_BYTES);
  pdf.set(new TextEncoder().encode("%PDF-1.4\n%bench\n"));
  const file = new Blob([pdf], { type: "application/pdf" });
  // Warm up the upload path with one whole file (the database's buffer cache fills — inside the
  // process for PGlite — the first time 25 MB are written), then settle.
  await post(app, clients[0]!, "warm-up", file);
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rssMb(pid);
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const started = performance.now();
  const statuses = await Promise.all(clients.slice(0, UPLOADERS).map((c, i) => post(app, c, `Upload ${i}`, file)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  return { idle, peak, growth: peak - idle, statuses, seconds };
}

async function run(driver: "postgres" | "pglite") {
  const storage = await trialStorage(driver, "bench_conv", PG_URL);
  const app = await startApp({ ...storage.env, MAX_UPLOAD_MB: "25" });
  try {
    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i++) clients.push(await registerClient(app, i));
    const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
    // The clients open their conversations first (the server's database connections open here).
    await Promise.all(
      clients.map((c) =>
        fetch(`${app.baseUrl}/proposals/${c.proposalId}`, { headers: { cookie: c.cookie, "x-forwarded-for": c.ip } }).then((r) => r.text()),
      ),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const first = only === "memory" ? null : await firstMessages(app, clients);
    const sequential = only === "memory" ? null : await sequentialLatency(app, clients[1]!);
    const latency = only === "memory" ? null : await postLatency(app, clients);
    const memory = only === "latency" ? null : await uploadMemory(app, clients);
    return { first, sequential, latency, memory, load: (await import("node:os")).loadavg()[0]! };
  } finally {
    await app.stop();
    await removeTrialStorage(storage);
  }
}

const results: string[] = [];
const rows: string[] = [];
const firstRows: string[] = [];
const memRows: string[] = [];
const drivers = (process.argv
  .find((a) => a.startsWith("--drivers="))
  ?.slice(10)
  .split(",") ?? ["postgres", "pglite"]) as ("postgres" | "pglite")[];
for (const driver of drivers) {
  const { first: f, sequential: q, latency: l, memory: m, load } = await run(driver);
  const label = driver === "postgres" ? "PostgreSQL 15" : "PGlite (embedded)";
  if (l && q)
    rows.push(
      `| ${label} | ${q.p50.toFixed(1)} / ${q.p95.toFixed(1)} | ${l.count} | ${l.rate.toFixed(0)} | ${l.p50.toFixed(1)} | **${l.p95.toFixed(1)}** ${l.p95 < 50 ? "✓" : "✗"} | ${l.p99.toFixed(1)} | ${l.failed} | ${(l.generatorCpu * 100).toFixed(0)} % | ${load.toFixed(1)} |`,
    );
  if (f)
    firstRows.push(
      `| ${label} | ${f.count} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.failed} | ${(f.generatorCpu * 100).toFixed(0)} % |`,
    );
  if (m)
    memRows.push(
      `| ${label} | ${m.idle.toFixed(0)} | ${m.peak.toFixed(0)} | **${m.growth.toFixed(0)}** ${m.growth < 64 ? "✓" : "✗"} | ${m.statuses.join(", ")} | ${m.seconds.toFixed(1)} | ${load.toFixed(1)} |`,
    );
  console.log(driver, JSON.stringify({ f, q, l, m, load }));
}
results.push(
  `## Posting a message (no file), ${CLIENTS} concurrent clients\n\nEach client posts through \`POST /proposals/:id/messages\` (the composer's request), then pauses 0.5–1.5 s; ${DURATION_MS / 1000} s per run, in conversations already started (the first message of each was posted just before, next table). Target: p95 < 50 ms. Generator CPU: this process's CPU time ÷ wall time (well below one core: not the bottleneck).\n\n| database | one client, sequential: p50 / p95 ms | posts | posts/s | p50 ms | p95 ms | p99 ms | failed | generator CPU | load average (2 cores) |\n|---|---|---|---|---|---|---|---|---|---|\n${rows.join("\n")}`,
  `## The first message of ${CLIENTS} quiet conversations\n\nThe first message of a conversation is also mailed at once to the other side (docs/product.md#conversations-mail: the recipient's mail is written to the outbox in the same request; later messages wait for the 10-minute window). Here all ${CLIENTS} conversations start within one second, ${1000 / CLIENTS} ms apart — after each client opened its conversation page (the server's database connections open there). No target: shown so that the figure above is not read as covering them.\n\n| database | posts | p50 ms | p95 ms | p99 ms | failed | generator CPU |\n|---|---|---|---|---|---|---|\n${firstRows.join("\n")}`,
  `## Upload memory: ${UPLOADERS} clients upload 25 MB each at once\n\nServer RSS sampled every 20 ms from /proc; growth = peak − idle RSS just before. Target: < 64 MB.\n\n| database | idle RSS MB | peak RSS MB | growth MB | answers | seconds | load average (2 cores) |\n|---|---|---|---|---|---|---|\n${memRows.join("\n")}`,
);
const file = writeResults(
  "conversations",
  "Conversations: message posting latency and upload memory",
  "npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/conversations.ts",
  results.join("\n\n"),
);
console.log(`wrote ${file}`);
