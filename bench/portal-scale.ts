/**
 * Every portal page at agency scale, against the framework's own floor and the bare server-rendered
 * page of the same server (issues "Portal pages stay fast at agency scale" and #42). Writes
 * bench/results/portal-scale.md.
 *
 * Method: PostgreSQL with `seed:demo --scale` data (then `vacuum analyze`), ONE server process,
 * `wrk -t2 -c50 -d10s` with each role's session cookie. Three references:
 * - the **floor**: bench/floor, a minimal React Router 7 framework-mode app with the same installed
 *   react, react-dom, react-router, @react-router/node, express and compression, whose one page is a
 *   25-row table with 5 links per row in a portal-like layout from in-memory data (built here with
 *   `react-router build bench/floor`, started as its own process);
 * - the signed-out `/login` page of the app (the app's bare server-rendered page);
 * - every portal page.
 * One interleaved run: each round measures the floor and /login, then a block of
 * PORTAL_SCALE_BLOCK pages (default 4), then the floor and /login again, and so on; a page's
 * ratios are to the mean of the references just before and just after its block. Three rounds,
 * medians. A page passes when its req/s is ≥ 0.5 × the floor's and its p99 ≤ 500 ms.
 * Each run also records the server's CPU per request (utime + stime of the server process from
 * /proc/<pid>/stat before and after, over wrk's request count), wrk's own CPU and the load average;
 * each page's statements per request are counted once, before the timed runs, through a counting
 * proxy (bench/lib/pg-count-proxy.ts).
 *
 *   npm run build && npx tsx bench/portal-scale.ts
 *   PORTAL_SCALE_DB=portal_scale_keep npx tsx bench/portal-scale.ts   # seed once into that database, reuse it after
 *   PORTAL_SCALE_SECONDS=5 PORTAL_SCALE_ROUNDS=1 PORTAL_SCALE_PAGES=/admin,/client-dashboard …   # a quicker look
 *   PORTAL_SCALE_SIZE=demo PORTAL_SCALE_SECONDS=2 PORTAL_SCALE_ROUNDS=1 PORTAL_SCALE_OUT=/tmp/smoke.md …   # a smoke run of the bench
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { sql } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS, DEMO_SIZE, SCALE_SIZE, seedDemo } from "../scripts/seed-demo";
import { machine, startApp } from "./lib/server";
import { startPgCountProxy } from "./lib/pg-count-proxy";
import { spawnApp, type AppProcess } from "../tests/helpers/app-server";
import { signIn } from "./lib/sign-in";
import { createPgDatabase, pgTemplate } from "../tests/helpers/test-database";
import { demoActors, PORTAL_SCALE_PAGES, pagePath, seededIds, type ScalePage } from "./lib/scale-pages";
import { explainPageQueries } from "./lib/scale-explain";

const run = promisify(execFile);
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECONDS = Number(process.env.PORTAL_SCALE_SECONDS ?? 10);
const ROUNDS = Number(process.env.PORTAL_SCALE_ROUNDS ?? 3);
const ONLY = process.env.PORTAL_SCALE_PAGES?.split(",").map((p) => p.trim());
/** PORTAL_SCALE_SIZE=demo seeds the small demo data instead (a smoke run of the benchmark itself). */
const SIZE = process.env.PORTAL_SCALE_SIZE === "demo" ? DEMO_SIZE : SCALE_SIZE;
/** Pages between two measurements of the references (floor and /login). */
const BLOCK = Number(process.env.PORTAL_SCALE_BLOCK ?? 4);
/** Where the results go (default bench/results/portal-scale.md, whose earlier sections are kept below the new run). */
const OUT = process.env.PORTAL_SCALE_OUT ?? "bench/results/portal-scale.md";
const TARGET_RATIO = 0.5;
/** Kernel clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
const TARGET_P99_MS = 500;

/** One wrk run's figures. */
interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx/3xx answers and socket errors. */
  errors: number;
  /** wrk's CPU (user + system) as a share of one core over the run, in %. */
  cpu: number;
  load: number;
  /** Requests wrk completed. */
  requests: number;
  /** The server process's CPU (user + system) per completed request, in ms. */
  serverMs: number;
}

/** A process's CPU time so far (user + system), in seconds, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** wrk's latency figure ("1.23ms", "450.00us", "1.02s") in ms. */
function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

/** Runs wrk through bash so that `times` reports the CPU wrk used. */
async function wrk(url: string, cookie: string | null, serverPid: number, seconds = SECONDS): Promise<WrkResult> {
  const header = cookie ? `-H 'Cookie: ${cookie.replace(/'/g, "")}'` : "";
  const load = os.loadavg()[0]!;
  const serverBefore = cpuSeconds(serverPid);
  const { stdout } = await run("bash", ["-c", `wrk -t2 -c50 -d${seconds}s --latency ${header} '${url}'; times`], {
    maxBuffer: 1 << 20,
  });
  const serverSeconds = cpuSeconds(serverPid) - serverBefore;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
  const p50 = toMs(/\s50%\s+(\S+)/.exec(stdout)?.[1] ?? "");
  const p99 = toMs(/\s99%\s+(\S+)/.exec(stdout)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  // `times`: the shell's user/sys line, then its children's (wrk's) user/sys line.
  const lines = stdout.trim().split("\n").slice(-2);
  const secondsOf = (t: string) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  const [user, system] = (lines[1] ?? "").split(/\s+/).map(secondsOf);
  return {
    rps,
    p50,
    p99,
    errors,
    cpu: (((user ?? 0) + (system ?? 0)) / seconds) * 100,
    load,
    requests,
    serverMs: (serverSeconds * 1000) / requests,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** The scale database: PORTAL_SCALE_DB when given (seeded on first use), else a new one dropped afterwards. */
async function scaleDatabase(): Promise<{ url: string; drop(): Promise<void>; seedSeconds: number | null }> {
  const keep = process.env.PORTAL_SCALE_DB;
  if (!keep) {
    const created = await createPgDatabase(PG_URL, `portal_scale_${Date.now()}`);
    return { url: created.url, drop: () => created.drop(), seedSeconds: await seed(created.url) };
  }
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const url = new URL(PG_URL);
  url.pathname = `/${keep}`;
  const exists = (await admin.query("select 1 from pg_database where datname = $1", [keep])).rowCount;
  if (!exists) await admin.query(`create database "${keep}" template "${await pgTemplate(PG_URL)}"`);
  await admin.end();
  return { url: url.toString(), drop: async () => {}, seedSeconds: exists ? null : await seed(url.toString()) };
}

async function seed(url: string): Promise<number> {
  const handle = await openDatabase({ url });
  await handle.migrate();
  const t0 = Date.now();
  await seedDemo(handle.db, SIZE);
  await handle.db.execute(sql`vacuum analyze`);
  await handle.close();
  return (Date.now() - t0) / 1000;
}

/** Builds bench/floor (its own React Router config, the repository's installed packages) and starts it. */
async function startFloor(): Promise<AppProcess> {
  await run(process.execPath, ["node_modules/@react-router/dev/bin.js", "build", "bench/floor"], { maxBuffer: 1 << 24 });
  return spawnApp({}, { args: ["bench/floor/server.mjs"], discardStdout: true });
}

/** One thing measured in a round: the floor, /login or a portal page. */
interface Target {
  label: string;
  url: string;
  cookie: string | null;
  pid: number;
}

/**
 * Statements (round trips to PostgreSQL) per request of each path, counted through a proxy on a
 * second app instance: the fewest over a few requests, so that a background job's poll is not counted.
 */
async function countStatements(
  databaseUrl: string,
  paths: { path: string; role: ScalePage["role"] | null }[],
): Promise<Map<string, number>> {
  const proxy = await startPgCountProxy(databaseUrl);
  const app = await startApp({ DATABASE_URL: proxy.url, WEB_CONCURRENCY: "1" });
  const counts = new Map<string, number>();
  try {
    const cookies = {
      client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "10.0.1.1" }),
      ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: "10.0.1.2" }),
      admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "10.0.1.3" }),
    };
    for (const { path, role } of paths) {
      let fewest = Infinity;
      for (let i = 0; i < 4; i++) {
        proxy.reset();
        const response = await fetch(`${app.baseUrl}${path}`, { headers: role ? { cookie: cookies[role] } : {}, redirect: "manual" });
        await response.arrayBuffer();
        if (i > 0) fewest = Math.min(fewest, proxy.count());
      }
      counts.set(path, fewest);
    }
  } finally {
    await app.stop();
    await proxy.close();
  }
  return counts;
}

async function main() {
  const database = await scaleDatabase();
  const handle = await openDatabase({ url: database.url });
  await handle.migrate();
  const actors = await demoActors(handle.db);
  const ids = await seededIds(handle.db, actors.client, actors.ambassador);
  await handle.close();
  const pages = PORTAL_SCALE_PAGES.filter((p) => !ONLY || ONLY.includes(p.path));
  const paths = new Map(pages.map((page) => [page, pagePath(page, ids)]));
  const explains = await explainPageQueries(database.url, pages);
  const statements = await countStatements(database.url, [
    { path: "/login", role: null },
    ...pages.map((page) => ({ path: paths.get(page)!, role: page.role })),
  ]);

  const floor = await startFloor();
  const app = await startApp({ DATABASE_URL: database.url, WEB_CONCURRENCY: "1" });
  const appPid = app.child.pid!;
  const floorPid = floor.child.pid!;
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "10.0.0.1" }),
    ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: "10.0.0.2" }),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "10.0.0.3" }),
  };
  const floorTarget: Target = { label: "floor", url: `${floor.baseUrl}/`, cookie: null, pid: floorPid };
  const loginTarget: Target = { label: "/login", url: `${app.baseUrl}/login`, cookie: null, pid: appPid };
  const pageTarget = (page: ScalePage): Target => ({
    label: paths.get(page)!,
    url: `${app.baseUrl}${paths.get(page)}`,
    cookie: cookies[page.role],
    pid: appPid,
  });
  const measure = async (target: Target, round: number) => {
    const result = await wrk(target.url, target.cookie, target.pid);
    console.log(
      `round ${round} ${target.label}: ${result.rps.toFixed(0)} req/s, server ${result.serverMs.toFixed(1)} ms CPU/request, p99 ${result.p99.toFixed(0)} ms, errors ${result.errors}, wrk ${result.cpu.toFixed(0)} %, load ${result.load.toFixed(1)}`,
    );
    return result;
  };
  // Warm-up (JIT, caches): every target once for a few seconds, not counted.
  await wrk(floorTarget.url, null, floorPid, 3);
  await wrk(loginTarget.url, null, appPid, 3);
  for (const page of pages) await wrk(pageTarget(page).url, cookies[page.role], appPid, 2);

  type Run = { floor: WrkResult; login: WrkResult; page: WrkResult };
  const results = new Map<ScalePage, Run[]>();
  const references: { floor: WrkResult[]; login: WrkResult[] } = { floor: [], login: [] };
  const mean = (a: WrkResult, b: WrkResult): WrkResult => ({
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
    errors: a.errors + b.errors,
    cpu: (a.cpu + b.cpu) / 2,
    load: (a.load + b.load) / 2,
    requests: a.requests + b.requests,
    serverMs: (a.serverMs + b.serverMs) / 2,
  });
  for (let round = 1; round <= ROUNDS; round++) {
    let before = { floor: await measure(floorTarget, round), login: await measure(loginTarget, round) };
    references.floor.push(before.floor);
    references.login.push(before.login);
    for (let start = 0; start < pages.length; start += BLOCK) {
      const block = pages.slice(start, start + BLOCK);
      const measured = new Map<ScalePage, WrkResult>();
      for (const page of block) measured.set(page, await measure(pageTarget(page), round));
      const after = { floor: await measure(floorTarget, round), login: await measure(loginTarget, round) };
      references.floor.push(after.floor);
      references.login.push(after.login);
      for (const page of block) {
        const run: Run = { floor: mean(before.floor, after.floor), login: mean(before.login, after.login), page: measured.get(page)! };
        results.set(page, [...(results.get(page) ?? []), run]);
        console.log(
          `round ${round} ${paths.get(page)}: ${(run.page.rps / run.floor.rps).toFixed(2)} × floor, ${(run.page.rps / run.login.rps).toFixed(2)} × /login`,
        );
      }
      before = after;
    }
  }
  await app.stop();
  await floor.stop();
  await database.drop();

  const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
  const floorMs = median(references.floor.map((r) => r.serverMs));
  const loginMs = median(references.login.map((r) => r.serverMs));
  const below: string[] = [];
  const rows = pages.map((page) => {
    const runs = results.get(page)!;
    const toFloor = median(runs.map((r) => r.page.rps / r.floor.rps));
    const toLogin = median(runs.map((r) => r.page.rps / r.login.rps));
    const p50 = median(runs.map((r) => r.page.p50));
    const p99 = median(runs.map((r) => r.page.p99));
    const serverMs = median(runs.map((r) => r.page.serverMs));
    const ok = toFloor >= TARGET_RATIO && p99 <= TARGET_P99_MS && runs.every((r) => r.page.errors === 0);
    const path = paths.get(page)!;
    if (toFloor < TARGET_RATIO)
      below.push(
        `- ${path}: ${fixed(toFloor, 2)} × the floor; ${fixed(serverMs, 1)} ms of server CPU per request (${fixed(serverMs - floorMs, 1)} ms above the floor's), ${statements.get(path) ?? "?"} statements per request (/login: ${statements.get("/login") ?? "?"}).`,
      );
    return `| ${page.role} | ${path} | **${fixed(toFloor, 2)}** ${ok ? "✓" : "✗"} | ${fixed(toLogin, 2)} | ${fixed(median(runs.map((r) => r.page.rps)))} | ${fixed(median(runs.map((r) => r.floor.rps)))} | ${fixed(median(runs.map((r) => r.login.rps)))} | ${fixed(serverMs, 1)} | ${statements.get(path) ?? "?"} | ${fixed(p50)} / ${fixed(p99)} | ${runs.reduce((n, r) => n + r.page.errors, 0)} | ${fixed(median(runs.map((r) => r.page.cpu)))} % | ${fixed(median(runs.map((r) => r.page.load)), 1)} |`;
  });
  const referenceRow = (label: string, runs: WrkResult[], statementCount: string) =>
    `| ${label} | ${fixed(median(runs.map((r) => r.rps)))} (${fixed(Math.min(...runs.map((r) => r.rps)))}–${fixed(Math.max(...runs.map((r) => r.rps)))}) | ${fixed(median(runs.map((r) => r.serverMs)), 1)} | ${statementCount} | ${fixed(median(runs.map((r) => r.p50)))} / ${fixed(median(runs.map((r) => r.p99)))} | ${fixed(median(runs.map((r) => r.cpu)))} % | ${fixed(Math.min(...runs.map((r) => r.load)), 1)}–${fixed(Math.max(...runs.map((r) => r.load)), 1)} |`;
  const body = `Data: \`seed:demo${SIZE === SCALE_SIZE ? " --scale" : ""}\` (${SIZE.users.toLocaleString("en-US")} users, ${SIZE.proposals.toLocaleString("en-US")} proposals, ${SIZE.invoices.toLocaleString("en-US")} invoices and what the other tables hold in proportion)${database.seedSeconds !== null ? `, seeded in ${database.seedSeconds.toFixed(0)} s` : ""}, then \`vacuum analyze\`; PostgreSQL 15 on the same machine; one server process (\`WEB_CONCURRENCY=1\`, production build).

Method: \`wrk -t2 -c50 -d${SECONDS}s\`, ${ROUNDS} round(s), medians. Each round measures the **floor** (bench/floor: a minimal React Router 7 framework-mode app on the same installed react, react-dom, react-router, @react-router/node, express and compression, one route rendering a 25-row table with 5 links per row in a portal-like layout from in-memory data) and the signed-out **/login** page, then ${BLOCK} portal pages with the role's session cookie, then the floor and /login again, and so on; each page's ratios are to the mean of the references just before and after its block. Target: ratio to the floor ≥ ${TARGET_RATIO} and p99 ≤ ${TARGET_P99_MS} ms (✓/✗). Server CPU: the server process's user + system time (/proc/<pid>/stat) over the run ÷ the requests wrk completed. Statements: round trips to PostgreSQL of one request (Query and Sync messages through a counting proxy, fewest of 3 requests, on a separate app instance before the timed runs). wrk CPU: wrk's user + system time as a share of one core (it has two threads: well under 200 % means the generator was not the limit). Load: the 1-minute load average when the run started (2 cores).

### References

| | req/s median (range) | server CPU ms/request | statements/request | p50 / p99 ms | wrk CPU | load |
|---|---:|---:|---:|---|---:|---:|
${referenceRow("floor", references.floor, "0")}
${referenceRow("/login", references.login, String(statements.get("/login") ?? "?"))}

Floor vs /login (medians): ${fixed(median(references.floor.map((r) => r.rps)) / median(references.login.map((r) => r.rps)), 2)} × in req/s; ${fixed(floorMs, 1)} vs ${fixed(loginMs, 1)} ms of server CPU per request.

### Portal pages

| role | page | ratio to floor | ratio to /login | page req/s | floor req/s | /login req/s | server CPU ms/req | statements | p50 / p99 ms | errors | wrk CPU | load |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|
${rows.join("\n")}

### Below 0.5 × the floor: what holds them

${below.length ? below.join("\n") : "None."}

For the functions: \`CPU_PROF=/tmp/prof REPEAT=200 PORTAL_SCALE_DB=portal_scale_keep npx tsx bench/profile-page.ts <page>\` (a V8 CPU profile of the server).

## Query plans

The main queries of each page, captured from its use-cases on the same data and explained with
\`EXPLAIN (ANALYZE, BUFFERS)\` (\`bench/lib/scale-explain.ts\`).

${explains}
`;
  const title = "# Portal pages at agency scale against the framework floor and the bare /login page";
  const earlier = fs.existsSync(OUT)
    ? `\n\n## Earlier runs (the previous results file)\n\n${fs
        .readFileSync(OUT, "utf8")
        .replace(/^# .*\n/, "")
        .trim()}\n`
    : "\n";
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(
    OUT,
    `${title}\n\n- Date: ${new Date().toISOString()}\n- Machine: ${machine()}\n- Command: \`npm run build && npx tsx bench/portal-scale.ts\`\n\n${body.trim()}${earlier}`,
  );
  console.log(`wrote ${OUT}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
