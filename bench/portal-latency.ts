/**
 * Portal pages under load with `seed:demo --scale` data (issue #7): latency percentiles of the
 * client dashboard, project status and the admin lists at 50 concurrent connections, on PGlite
 * and on PostgreSQL, in one run. Target: p95 ≤ 50 ms on PostgreSQL.
 * Writes bench/results/portal-latency.md.
 *
 *   npm run build && npx tsx bench/portal-latency.ts      # PORTAL_SECONDS=10 by default
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SCALE_SIZE, seedDemo } from "../scripts/seed-demo";
import { startApp, writeResults } from "./lib/server";

const SECONDS = Number(process.env.PORTAL_SECONDS ?? 10);
const CONNECTIONS = 50;
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

async function signIn(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `portal-${email}` },
    body: new URLSearchParams({ email, password: DEMO_PASSWORD }),
  });
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie.includes("session_token")) throw new Error(`sign-in of ${email} failed (${response.status})`);
  return cookie;
}

async function measure(driver: "pglite" | "postgres") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-"));
  const name = `portal_${Date.now()}`;
  let databaseUrl = "";
  if (driver === "postgres") {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const handle = databaseUrl ? await openDatabase({ url: databaseUrl }) : await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
  await handle.migrate();
  const t0 = Date.now();
  await seedDemo(handle.db, SCALE_SIZE);
  const seedSeconds = (Date.now() - t0) / 1000;
  await handle.close();

  const app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  const cookies = { client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client), admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin) };
  const rows: string[] = [];
  for (const [page, role] of PAGES) {
    const result = await autocannon({ url: `${app.baseUrl}${page}`, connections: CONNECTIONS, duration: SECONDS, headers: { cookie: cookies[role] } });
    const l = result.latency;
    rows.push(`| ${page} | ${result.requests.average.toFixed(0)} | ${l.p50} | ${l.p90} | ${l.p97_5} | ${l.p99} | ${result.non2xx + result.errors} |`);
    console.log(driver, rows.at(-1));
  }
  await app.stop();
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  return `### ${driver === "postgres" ? "PostgreSQL 15" : "PGlite (embedded)"} — seeded in ${seedSeconds.toFixed(0)} s\n\n| page | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | non-2xx |\n|---|---|---|---|---|---|---|\n${rows.join("\n")}\n`;
}

async function main() {
  const sections: string[] = [];
  for (const driver of ["postgres", "pglite"] as const) sections.push(await measure(driver));
  const file = writeResults(
    "portal-latency",
    "Portal pages at 50 concurrent connections with seed:demo --scale data",
    "npm run build && npx tsx bench/portal-latency.ts",
    `Data: ${SCALE_SIZE.users.toLocaleString("en-US")} users, ${SCALE_SIZE.proposals.toLocaleString("en-US")} proposals, ${SCALE_SIZE.invoices.toLocaleString("en-US")} invoices (\`seed:demo --scale\`). ${CONNECTIONS} connections for ${SECONDS} s per page (autocannon, same machine), full server-rendered HTML responses as the demo client (\`${DEMO_ACCOUNTS.client}\`) or admin. autocannon reports fixed percentiles: p95 lies between the p90 and p97.5 columns.

${sections.join("\n")}`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
