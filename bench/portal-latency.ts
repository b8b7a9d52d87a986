/**
 * Portal pages under load with `seed:demo --scale` data: the client dashboard,
 * project status and the admin lists, on PostgreSQL and on PGlite, in one run. Target:
 * p95 ≤ 50 ms on PostgreSQL with 50 concurrent users. Writes bench/results/portal-latency.md.
 *
 * Two loads per page, both with 50 concurrent sessions:
 * - **50 users**: each virtual user loads the page, reads it whole, pauses 0.5–1.5 s (a think
 *   time of 1 s on average, far shorter than a person's) and loads it again — about 50
 *   requests per second in all. Latency is what each user waited (p50/p95/p99 computed from
 *   every sample).
 * - **saturation**: 50 connections with no pause (autocannon), i.e. the throughput limit of
 *   the machine; its latency is mostly queueing (≈ 50 ÷ req/s).
 *
 * PostgreSQL runs with WEB_CONCURRENCY=2 (one server process per core, as the README
 * recommends); PGlite allows one process.
 *
 *   npm run build && npx tsx bench/portal-latency.ts      # PORTAL_SECONDS=12 per load, PORTAL_DRIVERS=postgres,pglite
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS, SCALE_SIZE, seedDemo } from "../scripts/seed-demo";
import { startApp, writeResults } from "./lib/server";
import { signIn } from "./lib/sign-in";
import { createPgDatabase, type CreatedPgDatabase } from "../tests/helpers/test-database";

const SECONDS = Number(process.env.PORTAL_SECONDS ?? 12);
/** Which databases to measure (PORTAL_DRIVERS=postgres for a quicker run); both by default. */
const DRIVERS = (process.env.PORTAL_DRIVERS ?? "postgres,pglite").split(",").map((d) => d.trim()) as ("postgres" | "pglite")[];
const USERS = 50;
const TARGET_P95_MS = 50;
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PAGES: [string, "client" | "admin"][] = [
  ["/client-dashboard", "client"],
  ["/project-status", "client"],
  ["/admin", "admin"],
  ["/admin/proposals", "admin"],
  ["/admin/proposals?q=bakery", "admin"],
  ["/admin/users", "admin"],
  ["/admin/invoices?filter=overdue", "admin"],
  ["/admin/ambassadors", "admin"],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** 50 virtual users with a think time of 0.5–1.5 s; every sample's latency in ms. */
async function users(url: string, cookie: string, seconds = SECONDS) {
  const samples: number[] = [];
  let failures = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: USERS }, async () => {
      await sleep(Math.random() * 1000); // users arrive over the first second
      while (Date.now() < end) {
        const started = performance.now();
        try {
          const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
          await response.arrayBuffer();
          if (response.status === 200) samples.push(performance.now() - started);
          else failures++;
        } catch {
          failures++;
        }
        await sleep(500 + Math.random() * 1000);
      }
    }),
  );
  samples.sort((a, b) => a - b);
  return {
    rps: samples.length / seconds,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    failures,
  };
}

/** 50 connections, no pause. */
async function saturation(url: string, cookie: string) {
  const result = await autocannon({ url, connections: USERS, duration: SECONDS, headers: { cookie } });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "—");

async function measure(driver: "pglite" | "postgres") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-"));
  const name = `portal_${Date.now()}`;
  let databaseUrl = "";
  let database: CreatedPgDatabase | undefined;
  if (driver === "postgres") {
    database = await createPgDatabase(PG_URL, name);
    databaseUrl = database.url;
  }
  const handle = databaseUrl ? await openDatabase({ url: databaseUrl }) : await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
  await handle.migrate();
  const t0 = Date.now();
  await seedDemo(handle.db, SCALE_SIZE);
  // What autovacuum does shortly after a bulk load: statistics and the visibility map.
  await handle.db.execute(sql`vacuum analyze`);
  const seedSeconds = (Date.now() - t0) / 1000;
  await handle.close();

  const app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...(databaseUrl ? { WEB_CONCURRENCY: "2" } : {}) });
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "portal-client" }),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "portal-admin" }),
  };
  const rows: string[] = [];
  for (const [page, role] of PAGES) {
    const url = `${app.baseUrl}${page}`;
    await users(url, cookies[role], 5); // warm-up (JIT), not counted
    const u = await users(url, cookies[role]);
    const s = await saturation(url, cookies[role]);
    const verdict = driver === "postgres" ? (u.p95 <= TARGET_P95_MS && u.failures === 0 ? " ✓" : " ✗") : "";
    rows.push(
      `| ${page} | ${u.rps.toFixed(0)} | ${ms(u.p50)} | **${ms(u.p95)}**${verdict} | ${ms(u.p99)} | ${u.failures} | ${s.rps.toFixed(0)} | ${s.p50} | ${s.p97_5} | ${s.failures} |`,
    );
    console.log(driver, rows.at(-1));
  }
  await app.stop();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const title = driver === "postgres" ? "PostgreSQL 15, WEB_CONCURRENCY=2" : "PGlite (embedded, one process)";
  return `### ${title} — seeded in ${seedSeconds.toFixed(0)} s

| page | 50 users: req/s | p50 ms | p95 ms | p99 ms | failed | saturation: req/s | p50 ms | p97.5 ms | failed |
|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`;
}

async function main() {
  const sections: string[] = [];
  for (const driver of DRIVERS) sections.push(await measure(driver));
  const file = writeResults(
    "portal-latency",
    "Portal pages with seed:demo --scale data, 50 concurrent sessions",
    "npm run build && npx tsx bench/portal-latency.ts",
    `Data: ${SCALE_SIZE.users.toLocaleString("en-US")} users, ${SCALE_SIZE.proposals.toLocaleString("en-US")} proposals, ${SCALE_SIZE.invoices.toLocaleString("en-US")} invoices (\`seed:demo --scale\`, then \`vacuum analyze\`). Full server-rendered HTML pages as the demo client (\`${DEMO_ACCOUNTS.client}\`) or admin, ${SECONDS} s per load, load generator on the same 2-core machine.

- **50 users**: 50 virtual users, each loading the page, reading it whole and pausing 0.5–1.5 s before the next load (≈ 50 req/s offered). p50/p95/p99 over every request. ✓/✗: p95 ≤ ${TARGET_P95_MS} ms on PostgreSQL (the target).
- **saturation**: 50 connections with no pause (autocannon) — the machine's throughput limit for the page; latency there is queueing (≈ 50 ÷ req/s), reported to show the headroom.
- failed: non-200 answers, errors and timeouts.

${sections.join("\n")}`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
