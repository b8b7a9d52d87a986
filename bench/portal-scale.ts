/**
 * Every portal page at agency scale, against the bare server-rendered page of the same server
 * (issue "Portal pages stay fast at agency scale"). Writes bench/results/portal-scale.md.
 *
 * Method: PostgreSQL with `seed:demo --scale` data (then `vacuum analyze`), ONE server process,
 * `wrk -t2 -c50 -d10s` with each role's session cookie; each page is measured right after the
 * signed-out /login page (the bare page), three rounds, medians. A page passes when its req/s is
 * ≥ 0.5 × /login's and its p99 ≤ 500 ms. Every row shows the load average and wrk's CPU, so a
 * saturated generator shows.
 *
 *   npm run build && npx tsx bench/portal-scale.ts
 *   PORTAL_SCALE_DB=portal_scale_keep npx tsx bench/portal-scale.ts   # seed once into that database, reuse it after
 *   PORTAL_SCALE_SECONDS=5 PORTAL_SCALE_ROUNDS=1 PORTAL_SCALE_PAGES=/admin,/client-dashboard …   # a quicker look
 */
import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";
import pg from "pg";
import { sql } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS, DEMO_SIZE, SCALE_SIZE, seedDemo } from "../scripts/seed-demo";
import { startApp, writeResults } from "./lib/server";
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
const TARGET_RATIO = 0.5;
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
}

/** wrk's latency figure ("1.23ms", "450.00us", "1.02s") in ms. */
function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

/** Runs wrk through bash so that `times` reports the CPU wrk used. */
async function wrk(url: string, cookie: string | null, seconds = SECONDS): Promise<WrkResult> {
  const header = cookie ? `-H 'Cookie: ${cookie.replace(/'/g, "")}'` : "";
  const load = os.loadavg()[0]!;
  const { stdout } = await run("bash", ["-c", `wrk -t2 -c50 -d${seconds}s --latency ${header} '${url}'; times`], {
    maxBuffer: 1 << 20,
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
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
  return { rps, p50, p99, errors, cpu: (((user ?? 0) + (system ?? 0)) / seconds) * 100, load };
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

  const app = await startApp({ DATABASE_URL: database.url });
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "10.0.0.1" }),
    ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: "10.0.0.2" }),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "10.0.0.3" }),
  };
  const login = `${app.baseUrl}/login`;
  // Warm-up (JIT, caches): every page once for a few seconds, not counted.
  await wrk(login, null, 3);
  for (const page of pages) await wrk(`${app.baseUrl}${paths.get(page)}`, cookies[page.role], 2);

  const results = new Map<ScalePage, { bare: WrkResult; page: WrkResult }[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const page of pages) {
      const bare = await wrk(login, null);
      const measured = await wrk(`${app.baseUrl}${paths.get(page)}`, cookies[page.role]);
      results.set(page, [...(results.get(page) ?? []), { bare, page: measured }]);
      console.log(
        `round ${round} ${paths.get(page)}: ${measured.rps.toFixed(0)} req/s vs /login ${bare.rps.toFixed(0)} (${(measured.rps / bare.rps).toFixed(2)}), p99 ${measured.p99.toFixed(0)} ms, errors ${measured.errors}`,
      );
    }
  }
  await app.stop();
  await database.drop();

  const rows = pages.map((page) => {
    const runs = results.get(page)!;
    const ratio = median(runs.map((r) => r.page.rps / r.bare.rps));
    const p50 = median(runs.map((r) => r.page.p50));
    const p99 = median(runs.map((r) => r.page.p99));
    const ok = ratio >= TARGET_RATIO && p99 <= TARGET_P99_MS && runs.every((r) => r.page.errors === 0);
    return `| ${page.role} | ${paths.get(page)} | **${ratio.toFixed(2)}** ${ok ? "✓" : "✗"} | ${median(runs.map((r) => r.page.rps)).toFixed(0)} | ${median(runs.map((r) => r.bare.rps)).toFixed(0)} | ${p50.toFixed(0)} / ${p99.toFixed(0)} | ${runs.reduce((n, r) => n + r.page.errors, 0)} | ${median(runs.map((r) => r.page.cpu)).toFixed(0)} % | ${median(runs.map((r) => r.page.load)).toFixed(1)} |`;
  });
  const file = writeResults(
    "portal-scale",
    "Portal pages at agency scale against the bare /login page",
    "npm run build && npx tsx bench/portal-scale.ts",
    `Data: \`seed:demo${SIZE === SCALE_SIZE ? " --scale" : ""}\` (${SIZE.users.toLocaleString("en-US")} users, ${SIZE.proposals.toLocaleString("en-US")} proposals, ${SIZE.invoices.toLocaleString("en-US")} invoices and what the other tables hold in proportion)${database.seedSeconds !== null ? `, seeded in ${database.seedSeconds.toFixed(0)} s` : ""}, then \`vacuum analyze\`; PostgreSQL 15 on the same machine; one server process (\`WEB_CONCURRENCY=1\`, production build).

Each page: \`wrk -t2 -c50 -d${SECONDS}s\` with the role's session cookie, right after the same run on the signed-out \`/login\` (the bare server-rendered page of the same server); ${ROUNDS} rounds, medians. Target: ratio ≥ ${TARGET_RATIO} and p99 ≤ ${TARGET_P99_MS} ms (✓/✗). wrk CPU is wrk's user + system time over the run as a share of one core (it has two threads): well under 200 % means the generator was not the bottleneck. Load: the 1-minute load average when the run started (2 cores).

| role | page | ratio to /login | page req/s | /login req/s | p50 / p99 ms | errors | wrk CPU | load |
|---|---|---:|---:|---:|---|---:|---:|---:|
${rows.join("\n")}

## Query plans

The main queries of each page, captured from its use-cases on the same data and explained with
\`EXPLAIN (ANALYZE, BUFFERS)\` (\`bench/lib/scale-explain.ts\`).

${explains}
`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
