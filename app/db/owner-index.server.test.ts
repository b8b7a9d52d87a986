/**
 * Issue #30: a client's or an ambassador's page costs what that person's data costs. Every
 * statement the use-cases of their pages send (bench/lib/scale-pages.ts, the same list the scale
 * benchmark measures) is explained on PostgreSQL with demo data, and no plan may read the big
 * tables (proposals, invoices, messages, payments, …) with a sequential scan.
 *
 * With a few thousand rows the planner would often prefer a sequential scan even where an index
 * fits, or hash a whole small table, so the plans are made with `enable_seqscan`, `enable_hashjoin`
 * and `enable_mergejoin` off: PostgreSQL then drives the query from the owner's index and looks up
 * the joined rows by index, as it does at agency scale, whenever indexes allow it. A big table still
 * read whole (a `Seq Scan`, or an index walked without a condition) means no index can drive that
 * read (a `coalesce` over two tables' owner columns, a filter on an unindexed column) — the
 * regression this test catches.
 *
 * The admin's conversation inbox is checked the same way: its pages read the admin's kept sort
 * key (`inbox_entry`, migration 0024) instead of sorting every conversation per request.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server";
import { listConversations } from "#app/features/conversations/inbox.server";
import { countUnread } from "#app/features/conversations/unread.server";
import { decodeCursor } from "#app/lib/pagination";
import { DEMO_SIZE, seedDemo } from "../../scripts/seed-demo";
import { demoActors, pagePath, PORTAL_SCALE_PAGES, seededIds } from "../../bench/lib/scale-pages";
import { startTestPgServer, type TestPgServer } from "../../tests/helpers/embedded-postgres";
import { captureQueries, explainJson, wholeTableReadsOf } from "../../tests/helpers/query-plans";
import { createPgDatabase, type CreatedPgDatabase } from "../../tests/helpers/test-database";

/** The tables that grow with the agency: a per-owner page must never scan them. */
const BIG_TABLES = [
  "proposal",
  "invoice",
  "invoice_item",
  "meeting_request",
  "proposal_message",
  "proposal_file",
  "proposal_thread",
  "payment",
  "payments",
  "commission_entries",
  "audit_event",
  "outbox",
] as const;

const OWNER_PAGES = PORTAL_SCALE_PAGES.filter((page) => page.role !== "admin");
/**
 * Explains each captured statement with sequential scans, hash and merge joins switched off (so a
 * plan that still reads a table whole has no index to use) and lists those that read one of `tables` whole.
 */
async function wholeTableScans(
  url: string,
  queries: Awaited<ReturnType<typeof captureQueries>>,
  tables: readonly string[],
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set enable_seqscan = off; set enable_hashjoin = off; set enable_mergejoin = off");
    const scans: string[] = [];
    for (const query of queries) {
      const read = wholeTableReadsOf(await explainJson(client, query), tables);
      if (read.length) scans.push(`${read.join(", ")} ← ${query.sql.replace(/\s+/g, " ").slice(0, 200)}`);
    }
    return scans;
  } finally {
    await client.end();
  }
}

describe("per-owner pages read through the owner's indexes (PostgreSQL)", () => {
  let server: TestPgServer;
  let database: CreatedPgDatabase;

  beforeAll(async () => {
    server = await startTestPgServer();
    database = await createPgDatabase(server.url, "owner_index");
    const handle = await openDatabase({ url: database.url });
    try {
      await seedDemo(handle.db, DEMO_SIZE);
    } finally {
      await handle.close();
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("vacuum analyze");
    await client.end();
  }, 300_000);

  afterAll(async () => {
    await database?.drop();
    await server?.stop();
  });

  it("covers every client and ambassador page the benchmark measures", () => {
    expect(OWNER_PAGES.map((p) => p.path)).toEqual(
      expect.arrayContaining(["/client-dashboard", "/project-status", "/ambassador/dashboard"]),
    );
  });

  it.each(OWNER_PAGES.map((page) => [`${page.role} ${page.path}`, page] as const))(
    "%s: no big table read whole",
    async (_name, page) => {
      const handle = await openDatabase({ url: database.url });
      const actors = await demoActors(handle.db);
      const ids = await seededIds(handle.db, actors.client, actors.ambassador);
      await handle.close();
      const queries = await captureQueries(database.url, (db) => page.load(db, actors[page.role], ids));
      expect(queries.length, `${pagePath(page, ids)} sent no query`).toBeGreaterThan(0);
      expect(
        await wholeTableScans(database.url, queries, BIG_TABLES),
        `${pagePath(page, ids)}: statements that scan a whole table`,
      ).toEqual([]);
    },
    120_000,
  );

  it("admin /admin/conversations: the inbox's pages and the header badge read no big table whole (kept sort key, migration 0024)", async () => {
    const handle = await openDatabase({ url: database.url });
    const { admin } = await demoActors(handle.db);
    const first = await listConversations(handle.db, admin, {}, { size: 25 });
    await handle.close();
    expect(first.items.length).toBeGreaterThan(0);
    const after = decodeCursor(first.next);
    const queries = await captureQueries(database.url, async (db) => {
      await listConversations(db, admin, {}, { size: 25 });
      if (after) await listConversations(db, admin, {}, { size: 25, after });
      await countUnread(db, admin);
    });
    expect(
      await wholeTableScans(database.url, queries, [...BIG_TABLES, "inbox_entry"]),
      "/admin/conversations: statements that scan a whole table",
    ).toEqual([]);
  }, 120_000);
});
