/**
 * Server time of every admin list page at two data sizes, side by side.
 *
 *   npm run bench:admin                       # PostgreSQL (TEST_DATABASE_URL or local server)
 *   npm run bench:admin -- --driver pglite    # embedded PGlite, in memory
 *   npm run bench:admin -- --driver both
 *
 * For each size it creates a fresh database, seeds it with `seedDemo` (1k: 100 users, 1,000
 * proposals, 500 invoices; 100k: 10,000 users, 100,000 proposals, 50,000 invoices), then
 * calls each page's loader use-cases as the admin — the database work of the page, without
 * HTML rendering — a few times to warm up and then `--runs` times (default 25), and writes
 * the median and 95th percentile to bench/results/admin-lists.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { count, desc, eq, sql } from "drizzle-orm";
import { openDatabase, type Database, type DbHandle } from "../app/db/client.server";
import { proposal, user } from "../app/db/schema";
import { invoiceSummary, listInvoicesForAdmin } from "../app/features/invoices/invoices.admin.server";
import { listMeetingRequests } from "../app/features/meetings/meetings.admin.server";
import { countProposals, listProposalsForAdmin } from "../app/features/proposals/proposals.admin.server";
import { getAmbassadorCommissions, listAmbassadorsForAdmin } from "../app/features/referrals/commissions.admin.server";
import { getSettingsForAdmin } from "../app/features/settings/settings.server";
import type { Actor } from "../app/features/users/actor";
import { countUsers, listUsersForAdmin } from "../app/features/users/users.server";
import type { Cursor, PageRequest } from "../app/lib/pagination";
import { DEMO_ACCOUNTS, DEMO_SIZE, SCALE_SIZE, seedDemo, type SeedSize } from "../scripts/seed-demo";
import { openPgClone, openPgliteClone } from "../tests/helpers/test-database";

const PAGE: PageRequest = { size: 25 };

interface Scenario {
  name: string;
  run: () => Promise<{ rows: number }>;
}

/** The scenarios: each admin list page's loader, plus its filtered, searched and deep variants. */
async function scenarios(db: Database, admin: Actor): Promise<Scenario[]> {
  // A cursor near the end of the proposal list (the oldest rows): a deep page.
  const [deep] = await db
    .execute<{ key: string; id: number }>(
      sql`select created_at::text as key, id from ${proposal} order by created_at asc, id asc offset 30 limit 1`,
    )
    .then((r) => (r as unknown as { rows: { key: string; id: number }[] }).rows);
  const deepCursor: Cursor = { key: deep!.key, id: deep!.id };
  const [someClient] = await db
    .select({ email: user.email })
    .from(user)
    .where(eq(user.role, "client"))
    .orderBy(user.createdAt)
    .limit(1)
    .offset(7);
  const emailPart = someClient!.email.split("@")[0]!;
  const [busiest] = await db
    .select({ id: proposal.ambassadorId, n: count() })
    .from(proposal)
    .where(sql`${proposal.ambassadorId} is not null`)
    .groupBy(proposal.ambassadorId)
    .orderBy(desc(count()))
    .limit(1);
  const rows = <T extends { items: unknown[] }>(page: T) => ({ rows: page.items.length });
  return [
    {
      name: "/admin (counts, totals, meetings page 1)",
      run: async () => {
        await countProposals(db, admin);
        await countUsers(db, admin);
        await invoiceSummary(db, admin);
        return rows(await listMeetingRequests(db, admin, { size: 10 }));
      },
    },
    { name: "/admin/proposals (page 1)", run: async () => rows(await listProposalsForAdmin(db, admin, {}, PAGE)) },
    { name: "/admin/proposals?status=review", run: async () => rows(await listProposalsForAdmin(db, admin, { status: "review" }, PAGE)) },
    {
      name: "/admin/proposals?q=bakery (common term)",
      run: async () => rows(await listProposalsForAdmin(db, admin, { q: "bakery" }, PAGE)),
    },
    {
      name: `/admin/proposals?q=<one client's e-mail>`,
      run: async () => rows(await listProposalsForAdmin(db, admin, { q: emailPart }, PAGE)),
    },
    { name: "/admin/proposals?q=zzqx (no match)", run: async () => rows(await listProposalsForAdmin(db, admin, { q: "zzqx" }, PAGE)) },
    {
      name: "/admin/proposals (deep page: oldest rows)",
      run: async () => rows(await listProposalsForAdmin(db, admin, {}, { ...PAGE, after: deepCursor })),
    },
    { name: "/admin/users (page 1)", run: async () => rows(await listUsersForAdmin(db, admin, {}, PAGE)) },
    { name: "/admin/users?q=sunrise", run: async () => rows(await listUsersForAdmin(db, admin, { q: "sunrise" }, PAGE)) },
    { name: "/admin/invoices (all, page 1)", run: async () => rows(await listInvoicesForAdmin(db, admin, { filter: "all" }, PAGE)) },
    { name: "/admin/invoices?filter=overdue", run: async () => rows(await listInvoicesForAdmin(db, admin, { filter: "overdue" }, PAGE)) },
    { name: "/admin/invoices?filter=pending", run: async () => rows(await listInvoicesForAdmin(db, admin, { filter: "pending" }, PAGE)) },
    {
      name: "/admin/invoices?q=INV-2026-001",
      run: async () => rows(await listInvoicesForAdmin(db, admin, { filter: "all", q: "INV-2026-001" }, PAGE)),
    },
    { name: "/admin/ambassadors (page 1, totals)", run: async () => rows(await listAmbassadorsForAdmin(db, admin, {}, { size: 20 })) },
    {
      name: "/admin/ambassadors?ambassador=<busiest>",
      run: async () => {
        const detail = await getAmbassadorCommissions(db, admin, busiest!.id!, {
          entries: { size: 20 },
          payouts: { size: 10 },
          clients: { size: 20 },
        });
        return { rows: detail.entries.items.length };
      },
    },
    { name: "/admin/settings", run: async () => ((await getSettingsForAdmin(db, admin)) ? { rows: 1 } : { rows: 0 }) },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Measured {
  median: number;
  p95: number;
  rows: number;
}

async function measure(scenario: Scenario, runs: number): Promise<Measured> {
  let rows = 0;
  for (let i = 0; i < 3; i++) rows = (await scenario.run()).rows;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await scenario.run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95), rows };
}

/** A fresh, migrated database of the given driver (the tests' template copies), dropped or emptied by `close`. */
function freshDatabase(driver: "postgres" | "pglite", baseUrl: string): Promise<DbHandle> {
  return driver === "pglite" ? openPgliteClone() : openPgClone(baseUrl);
}

/** The seeded demo admin as an actor. */
async function demoAdmin(db: Database): Promise<Actor> {
  const [adminRow] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_ACCOUNTS.admin));
  return { id: adminRow!.id, role: "admin", email: DEMO_ACCOUNTS.admin };
}

async function runSize(driver: "postgres" | "pglite", baseUrl: string, label: string, size: SeedSize, runs: number) {
  const handle = await freshDatabase(driver, baseUrl);
  try {
    const started = performance.now();
    const created = await seedDemo(handle.db, size, { now: new Date(), log: (line) => console.log(`    ${line}`) });
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(`  ${driver} ${label}: seeded in ${seedSeconds.toFixed(1)} s`);
    const admin = await demoAdmin(handle.db);
    const results = new Map<string, Measured>();
    for (const scenario of await scenarios(handle.db, admin)) {
      const m = await measure(scenario, runs);
      results.set(scenario.name, m);
      console.log(`    ${scenario.name}: median ${m.median.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms (${m.rows} rows)`);
    }
    let serverVersion = "";
    if (driver === "postgres")
      serverVersion = String(
        ((await handle.db.execute(sql`show server_version`)) as unknown as { rows: { server_version: string }[] }).rows[0]!.server_version,
      );
    else
      serverVersion = String(
        ((await handle.db.execute(sql`select version()`)) as unknown as { rows: { version: string }[] }).rows[0]!.version,
      ).split(" on ")[0]!;
    return { results, seedSeconds, created, serverVersion };
  } finally {
    await handle.close();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      driver: { type: "string", default: "postgres" },
      runs: { type: "string", default: "25" },
      out: { type: "string", default: "bench/results/admin-lists.md" },
      existing: { type: "string" },
    },
  });
  if (values.existing) {
    // Measures an already seeded PostgreSQL database (e.g. after `npm run seed:demo -- --scale`); prints only.
    const handle = await openDatabase({ url: values.existing });
    try {
      const admin = await demoAdmin(handle.db);
      for (const scenario of await scenarios(handle.db, admin)) {
        const m = await measure(scenario, Number(values.runs));
        console.log(`${scenario.name}: median ${m.median.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms (${m.rows} rows)`);
      }
    } finally {
      await handle.close();
    }
    return;
  }
  const drivers =
    values.driver === "both"
      ? (["postgres", "pglite"] as const)
      : values.driver === "pglite"
        ? (["pglite"] as const)
        : (["postgres"] as const);
  const runs = Number(values.runs);
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const sections: string[] = [];
  for (const driver of drivers) {
    console.log(`${driver}:`);
    const small = await runSize(driver, baseUrl, "1k", DEMO_SIZE, runs);
    const large = await runSize(driver, baseUrl, "100k", SCALE_SIZE, runs);
    const lines = [
      `## ${driver === "postgres" ? `PostgreSQL ${small.serverVersion} (node-postgres pool)` : `${small.serverVersion}, in memory`}`,
      "",
      `Seeded: 1k = ${JSON.stringify(small.created)} in ${small.seedSeconds.toFixed(1)} s; 100k = ${JSON.stringify(large.created)} in ${large.seedSeconds.toFixed(1)} s.`,
      "",
      "| page (use-cases its loader calls) | 1k median | 1k p95 | 100k median | 100k p95 | rows on page |",
      "|---|---:|---:|---:|---:|---:|",
      ...[...small.results.keys()].map((name) => {
        const a = small.results.get(name)!;
        const b = large.results.get(name)!;
        return `| ${name} | ${a.median.toFixed(1)} ms | ${a.p95.toFixed(1)} ms | ${b.median.toFixed(1)} ms | ${b.p95.toFixed(1)} ms | ${a.rows} / ${b.rows} |`;
      }),
      "",
    ];
    sections.push(lines.join("\n"));
  }
  const cpus = os.cpus();
  const header = [
    "# Admin list pages: server time at 1k and 100k rows",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`npm run bench:admin${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\``,
    `- Machine: ${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length} cores (shared with other work while measured), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
    `- Method: each page's loader use-cases called as the admin (database work, no HTML rendering), 3 warm-up calls then ${runs} timed calls; median and 95th percentile in milliseconds. "1k" = 100 users, 1,000 proposals, 500 invoices; "100k" = 10,000 users, 100,000 proposals, 50,000 invoices (\`npm run seed:demo\` / \`-- --scale\`). Lists are keyset-paginated (25 rows) and searched with pg_trgm indexes (ADR 005).`,
    "",
  ].join("\n");
  const notes = [
    "## Reading the figures",
    "",
    "- Every list page is one index range scan of 26 rows (keyset pagination) plus a count of the matching rows (exact for lists and filters, which scans them; capped for searches); a deep page costs what the first page costs.",
    "- Searches read the pg_trgm indexes of the list's table and, for client e-mail/business, of `user` (matched ids are inlined as constants up to 2,000; beyond that a subquery). A search's count stops at 1,000 (\"1,000+\").",
    "- Linear by design: the dashboard's counts and money totals and the ambassadors page's grand totals aggregate whole tables (tens of ms at 100k rows). If they grow too slow, keep running totals in a table updated in the same transactions.",
    "- Figures were taken on a 2-core machine shared with other jobs; expect the p95 column to be noisy.",
    "",
  ].join("\n");
  fs.mkdirSync(path.dirname(values.out!), { recursive: true });
  fs.writeFileSync(values.out!, `${header}\n${sections.join("\n")}\n${notes}`);
  console.log(`Wrote ${values.out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
