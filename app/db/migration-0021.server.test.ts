/**
 * Migration 0021 (commission ledger, issue #25) from the schema before it, with data in the old
 * shape: commissions marked paid per proposal (`commission_paid_at` / `commission_paid_cents`)
 * become one historical ledger entry and one historical payout each; payments already recorded
 * on approved ambassador proposals not paid yet get their entries; the rate is frozen on
 * approved proposals; the commission tally follows the ledger; the old columns go.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PGLITE_EXTENSIONS } from "./client.server";
import { createPgDatabase } from "../../tests/helpers/test-database";

const TAG = "0021_commission_ledger";

/** A copy of drizzle/ whose journal stops before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-0021-"));
  fs.cpSync(path.resolve("drizzle"), dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

interface Exec {
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openPglite(): Promise<Exec> {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await client.exec("create extension if not exists pg_trgm");
  return {
    query: async <T>(text: string) => (await client.query<T>(text)).rows,
    migrate: (folder) => migratePglite(drizzlePglite(client, { casing: "snake_case" }), { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Exec> {
  const created = await createPgDatabase(url, "mig0021", { empty: true });
  const client = new pg.Client({ connectionString: created.url });
  await client.connect();
  await client.query("create extension if not exists pg_trgm");
  return {
    query: async <T>(text: string) => (await client.query(text)).rows as T[],
    migrate: (folder) => migratePg(drizzlePg(client, { casing: "snake_case" }), { migrationsFolder: folder }),
    close: async () => {
      await client.end();
      await created.drop();
    },
  };
}

const openers: Array<[string, () => Promise<Exec>]> = [["pglite", openPglite]];
if (process.env.TEST_DATABASE_URL) openers.push(["postgres", () => openPostgres(process.env.TEST_DATABASE_URL!)]);

const before = migrationsBefore(TAG);
afterAll(() => fs.rmSync(before, { recursive: true, force: true }));

describe.each(openers)("migration 0021 (commission ledger) on %s", (_name, open) => {
  it("turns paid commissions into historical entries and payouts, and existing payments into entries", async () => {
    const db = await open();
    try {
      await db.migrate(before);
      // The old shape: settings at 12 % in EUR, per-proposal paid commissions.
      await db.query(`insert into settings (id, commission_rate_bps, currency) values (1, 1200, 'EUR')`);
      await db.query(`insert into "user" (id, name, email, role) values
        ('amb', 'Ann', 'ann@example.com', 'ambassador'), ('amb2', 'Bob', 'bob@example.com', 'ambassador'),
        ('cli', 'Cafe', 'cafe@example.com', 'client')`);
      await db.query(`insert into proposal (id, client_id, ambassador_id, source, project_details, status, budget_cents, client_approved_at, commission_paid_at, commission_paid_cents) values
        (1, 'cli', 'amb', 'ambassador', 'paid on invoice', 'completed', 90000, '2026-01-05T10:00:00Z', '2026-02-01T09:00:00Z', 12000),
        (2, 'cli', 'amb', 'ambassador', 'approved, unpaid, invoice paid', 'in_progress', 50000, '2026-01-06T10:00:00Z', null, null),
        (3, 'cli', 'amb2', 'ambassador', 'paid on budget', 'planning', 40000, '2026-01-07T10:00:00Z', '2026-03-01T09:00:00Z', 4800),
        (4, 'cli', 'amb', 'ambassador', 'not approved', 'submitted', 70000, null, null, null),
        (5, 'cli', null, 'client', 'the client''s own', 'pending', 80000, null, null, null)`);
      await db.query(`select setval('proposal_id_seq', 5)`);
      await db.query(`insert into invoice (id, number, proposal_id, client_id, due_date, status, total_cents, paid_at) values
        (1, 'INV-2026-0001', 1, 'cli', '2026-02-01', 'paid', 100000, '2026-01-20T00:00:00Z'),
        (2, 'INV-2026-0002', 2, 'cli', '2026-02-01', 'paid', 50001, '2026-01-21T00:00:00Z'),
        (4, 'INV-2026-0004', 4, 'cli', '2026-02-01', 'paid', 70000, '2026-01-22T00:00:00Z'),
        (5, 'INV-2026-0005', 5, 'cli', '2026-02-01', 'paid', 80000, '2026-01-23T00:00:00Z')`);
      // As migration 0014 turns each paid invoice into one payment.
      await db.query(`insert into payments (invoice_id, amount_cents, currency, method, received_at) values
        (1, 100000, 'EUR', 'other', '2026-01-20T00:00:00Z'), (2, 50001, 'EUR', 'other', '2026-01-21T00:00:00Z'),
        (4, 70000, 'EUR', 'other', '2026-01-22T00:00:00Z'), (5, 80000, 'EUR', 'other', '2026-01-23T00:00:00Z')`);

      await db.migrate(path.resolve("drizzle"));

      expect(await db.query(`select id, commission_rate_bps as rate from proposal order by id`)).toEqual([
        { id: 1, rate: 1200 },
        { id: 2, rate: 1200 },
        { id: 3, rate: 1200 },
        { id: 4, rate: null },
        { id: 5, rate: null },
      ]);
      const payouts = await db.query<{
        ambassador_id: string;
        total_cents: number;
        currency: string;
        reference: string;
        method: string;
        paid_at: Date;
      }>(`select ambassador_id, total_cents, currency, reference, method, paid_at from payouts order by paid_at`);
      expect(
        payouts.map((p) => [p.ambassador_id, p.total_cents, p.currency, p.reference, p.method, new Date(p.paid_at).toISOString()]),
      ).toEqual([
        ["amb", 12000, "EUR", "Marked paid before the ledger: proposal #1", "other", "2026-02-01T09:00:00.000Z"],
        ["amb2", 4800, "EUR", "Marked paid before the ledger: proposal #3", "other", "2026-03-01T09:00:00.000Z"],
      ]);
      const entries = await db.query<Record<string, unknown>>(
        `select e.ambassador_id, e.proposal_id, e.invoice_id, e.payment_id is not null as has_payment, e.kind, e.base_cents, e.rate_bps,
                e.amount_cents, e.currency, e.payable_at, o.reference as payout
         from commission_entries e left join payouts o on o.id = e.payout_id order by e.proposal_id`,
      );
      expect(entries.map(({ payable_at, ...e }) => ({ ...e, payable_at: new Date(payable_at as string).toISOString() }))).toEqual([
        {
          ambassador_id: "amb",
          proposal_id: 1,
          invoice_id: 1,
          has_payment: false,
          kind: "historical",
          base_cents: 100000,
          rate_bps: 1200,
          amount_cents: 12000,
          currency: "EUR",
          payable_at: "2026-02-01T09:00:00.000Z",
          payout: "Marked paid before the ledger: proposal #1",
        },
        {
          // 12 % of 500.01 = 60.0012 → 60.00; payable 30 days after the money was received.
          ambassador_id: "amb",
          proposal_id: 2,
          invoice_id: 2,
          has_payment: true,
          kind: "payment",
          base_cents: 50001,
          rate_bps: 1200,
          amount_cents: 6000,
          currency: "EUR",
          payable_at: "2026-02-20T00:00:00.000Z",
          payout: null,
        },
        {
          ambassador_id: "amb2",
          proposal_id: 3,
          invoice_id: null,
          has_payment: false,
          kind: "historical",
          base_cents: 40000,
          rate_bps: 1200,
          amount_cents: 4800,
          currency: "EUR",
          payable_at: "2026-03-01T09:00:00.000Z",
          payout: "Marked paid before the ledger: proposal #3",
        },
      ]);
      // The tally follows the ledger; the old columns and triggers are gone.
      expect(
        await db.query<{ bucket: string; n: string; cents: string }>(
          `select bucket, sum(n)::text as n, sum(cents)::text as cents from tally where entity = 'commission' group by bucket order by bucket`,
        ),
      ).toEqual([
        { bucket: "paid", n: "2", cents: "16800" },
        { bucket: "unpaid", n: "1", cents: "6000" },
      ]);
      expect(
        await db.query(
          `select column_name from information_schema.columns where table_name = 'proposal' and column_name like 'commission_paid%'`,
        ),
      ).toEqual([]);
      expect(await db.query(`select commission_hold_days from settings`)).toEqual([{ commission_hold_days: 30 }]);
      // Proposal and invoice writes no longer touch the commission tally.
      await db.query(`update invoice set total_cents = total_cents + 1`);
      await db.query(`update proposal set budget_cents = 1`);
      expect((await db.query<{ n: string }>(`select count(*)::text as n from tally where entity = 'commission'`))[0]!.n).toBe("2");
    } finally {
      await db.close();
    }
  });
});
