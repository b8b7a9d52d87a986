/**
 * Migration 0014 (issue #25, ADR 013) from the schema before payments, with data in the old shape:
 * each invoice marked paid becomes one payment of its total (method "other", received when it was
 * marked paid); unpaid invoices get none; the stored status stays what the payments derive.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPgDatabase } from "../../../tests/helpers/test-database";

interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}

/** A copy of drizzle/ whose journal stops before 0014 (the schema as it was). */
function foldersBeforePayments(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-before-payments-"));
  fs.cpSync("drizzle", dir, { recursive: true });
  const file = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as Journal;
  // The migrations before 0014, as a database of the previous release has them; the real folder
  // then applies 0014 and everything after it, in journal order.
  journal.entries = journal.entries.filter((e) => e.idx < 14);
  fs.writeFileSync(file, JSON.stringify(journal));
  return dir;
}

type Exec = (query: string) => Promise<Record<string, unknown>[]>;

const OLD_SHAPE = `
  insert into "user" (id, name, email, role) values ('c1', 'Client', 'c1@example.com', 'client');
  update settings set currency = 'EUR' where id = 1;
  insert into settings (id, currency) select 1, 'EUR' where not exists (select 1 from settings);
  insert into proposal (id, source, project_details, project_name, status, client_id) values
    (1, 'client', 'd', 'P1', 'approved', 'c1'), (2, 'client', 'd', 'P2', 'approved', 'c1'), (3, 'client', 'd', 'P3', 'approved', 'c1');
  insert into invoice (number, proposal_id, client_id, due_date, status, total_cents, paid_at) values
    ('INV-1', 1, 'c1', '2026-01-31', 'paid', 120000, '2026-01-20T10:00:00Z'),
    ('INV-2', 2, 'c1', '2026-01-31', 'unpaid', 50000, null),
    ('INV-3', 3, 'c1', '2026-01-31', 'paid', 0, '2026-01-21T10:00:00Z');
`;

async function checkMigrated(exec: Exec) {
  const rows = await exec(
    `select i.number, p.amount_cents, p.currency, p.method, p.received_at, p.refund_of, p.recorded_by
       from payments p join invoice i on i.id = p.invoice_id order by i.number`,
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    number: "INV-1",
    amount_cents: 120000,
    currency: "EUR",
    method: "other",
    refund_of: null,
    recorded_by: null,
  });
  expect(new Date(rows[0]!.received_at as string).toISOString()).toBe("2026-01-20T10:00:00.000Z");
  const invoices = await exec(`select number, status, deposit_cents, disputed_at from invoice order by number`);
  expect(invoices.map((r) => [r.number, r.status, r.deposit_cents, r.disputed_at])).toEqual([
    ["INV-1", "paid", null, null],
    ["INV-2", "unpaid", null, null],
    ["INV-3", "paid", null, null],
  ]);
}

describe("migration 0014_payments with data in the old shape", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it("on pglite", async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    cleanups.push(() => client.close());
    await client.exec("create extension if not exists pg_trgm");
    const db = drizzlePglite(client, { casing: "snake_case" });
    await migratePglite(db, { migrationsFolder: foldersBeforePayments() });
    expect((await client.query(`select to_regclass('payments') as t`)).rows).toEqual([{ t: null }]);
    await client.exec(OLD_SHAPE);
    await migratePglite(db, { migrationsFolder: "drizzle" });
    await checkMigrated(async (q) => (await client.query<Record<string, unknown>>(q)).rows);
  });

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)("on postgres", async () => {
    const created = await createPgDatabase(url!, "mig", { empty: true });
    // One connection, ended (its socket closed: `end()` waits for it) before the database is dropped
    // `with (force)`: a pool's `end()` can resolve while a connection is still closing, and the
    // server's "terminating connection" then reached it as an uncaught error (seen in CI).
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    cleanups.push(async () => {
      await client.end();
      await created.drop();
    });
    await client.query("create extension if not exists pg_trgm");
    const db = drizzlePg(client, { casing: "snake_case" });
    await migratePg(db, { migrationsFolder: foldersBeforePayments() });
    await client.query(OLD_SHAPE);
    await migratePg(db, { migrationsFolder: "drizzle" });
    await checkMigrated(async (q) => (await client.query<Record<string, unknown>>(q)).rows);
  });
});
