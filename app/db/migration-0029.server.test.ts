/**
 * Migration 0029 (issue #38, ADR 022) on a copy of the demo data in the shape before organisations:
 * every client becomes a one-person organisation with themselves as owner, every id is kept, every
 * record lands in its client's organisation, and every signed invoice link (/i/<token>) and every
 * certificate (/verify/<id>) made before the migration still verifies after it.
 *
 * The data is `seed:demo` (DEMO_SIZE: 100 users, 1,000 proposals, 500 invoices) by default;
 * `MIGRATION_0029_SIZE=scale` seeds the `--scale` data (10,000 users, 100,000 proposals, 50,000
 * invoices) — minutes on PostgreSQL, so not in the default run. The "before" shape is made by
 * undoing 0029 on the seeded copy (its tables, columns, triggers and functions dropped), then
 * 0029's file runs again, as it runs on a database of the previous release.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import { invoice, proposalAcceptance, proposalVersion, user } from "#app/db/schema";
import { verifyCertificate } from "#app/features/agreements/acceptance.server";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { openSignedInvoice, signedInvoicePath } from "#app/features/payments/invoice-link.server";
import { DEMO_SIZE, SCALE_SIZE, seedDemo } from "../../scripts/seed-demo";
import { rerunMigration } from "../../tests/helpers/migration-sql";
import { createPgDatabase, type CreatedPgDatabase } from "../../tests/helpers/test-database";

const SIZE = process.env.MIGRATION_0029_SIZE === "scale" ? SCALE_SIZE : DEMO_SIZE;

/** What 0029 adds, dropped: the database as the previous release left it (with today's data). */
const UNDO_0029 = `
  drop trigger if exists proposal_default_organisation on proposal;
  drop trigger if exists invoice_default_organisation on invoice;
  drop trigger if exists meeting_default_organisation on meeting;
  drop function if exists proposal_default_organisation();
  drop function if exists invoice_default_organisation();
  drop function if exists meeting_default_organisation();
  drop function if exists first_organisation_of(text);
  alter table session drop column active_organisation_id;
  alter table proposal drop column organisation_id;
  alter table invoice drop column organisation_id;
  alter table meeting drop column organisation_id;
  alter table proposal_acceptance drop column organisation_name;
  drop table conversation_member, invitation, membership, organisation cascade;
`;

const COUNTED = [
  "user",
  "proposal",
  "invoice",
  "invoice_item",
  "payments",
  "meeting",
  "proposal_message",
  "commission_entries",
  "proposal_acceptance",
];

async function counts(db: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of COUNTED)
    out[table] = Number(rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from "${table}"`)))[0]!.n);
  return out;
}

async function one(db: Database, query: string): Promise<number> {
  return Number(rowsOf<{ n: number }>(await db.execute(sql.raw(query)))[0]!.n);
}

describe("migration 0029_organisations on seeded data", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function open(): Promise<Database> {
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      const created: CreatedPgDatabase = await createPgDatabase(url, "mig0029");
      const handle = await openDatabase({ url: created.url });
      cleanups.push(
        () => created.drop(),
        () => handle.close(),
      );
      return handle.db;
    }
    const handle = await openDatabase({ memory: true });
    await handle.migrate();
    cleanups.push(() => handle.close());
    return handle.db;
  }

  it(`keeps every id, puts each client's records in their own organisation, and every signed link and certificate still verifies (${SIZE.users} users, ${SIZE.proposals} proposals, ${SIZE.invoices} invoices)`, async () => {
    const db = await open();
    await seedDemo(db, SIZE, { now: new Date("2026-06-01T12:00:00Z") });

    // Certificates: accept a version of some approved proposals (as the acceptance flow records them).
    const approved = rowsOf<{ id: number; client_id: string }>(
      await db.execute(
        sql`select id, client_id from proposal where client_id is not null and client_approved_at is not null order by id limit 50`,
      ),
    );
    const certificates: string[] = [];
    for (const p of approved) {
      const terms = { projectName: `P${p.id}` };
      const [version] = await db
        .insert(proposalVersion)
        .values({ proposalId: p.id, number: 1, terms, sha256: createHash("sha256").update(JSON.stringify(terms)).digest("hex") })
        .returning();
      const certificateId = `cert${p.id}`.padEnd(22, "x");
      await db.insert(proposalAcceptance).values({
        proposalId: p.id,
        versionId: version!.id,
        versionNumber: 1,
        userId: p.client_id,
        typedName: "Signer",
        email: "signer@example.com",
        sha256: version!.sha256,
        certificateId,
      });
      certificates.push(certificateId);
    }

    // Back to the shape before organisations, with this data; the links as they were mailed then.
    for (const statement of UNDO_0029.split(";").filter((x) => x.trim())) await db.execute(sql.raw(statement));
    const invoices = await db
      .select({ id: invoice.id, clientId: invoice.clientId })
      .from(invoice)
      .where(sql`${invoice.clientId} is not null`);
    const links = new Map<number, string>();
    for (const row of invoices) links.set(row.id, (await signedInvoicePath(db, row.id, row.clientId!)).slice(3));
    const before = await counts(db);
    const clients = await one(db, `select count(*)::int as n from "user" where role is null or role not in ('admin', 'ambassador')`);
    const openClients = await one(
      db,
      `select count(*)::int as n from "user" where (role is null or role not in ('admin', 'ambassador')) and closed_at is null`,
    );
    const ownerOf = new Map(
      rowsOf<{ id: number; client_id: string }>(await db.execute(sql`select id, client_id from proposal where client_id is not null`)).map(
        (r) => [r.id, r.client_id],
      ),
    );

    await rerunMigration(db, "0029_organisations");

    // Counts: nothing lost, one organisation per client, one owner per open account.
    expect(await counts(db)).toEqual(before);
    expect(await one(db, `select count(*)::int as n from organisation`)).toBe(clients);
    expect(await one(db, `select count(*)::int as n from membership where role = 'owner'`)).toBe(openClients);
    expect(await one(db, `select count(*)::int as n from membership where role <> 'owner'`)).toBe(0);
    // Every record with a client is in that client's organisation (and its invoice in its proposal's).
    expect(
      await one(
        db,
        `select count(*)::int as n from proposal p where p.client_id is not null and not exists (
           select 1 from organisation o join membership m on m.organisation_id = o.id where o.id = p.organisation_id and m.user_id = p.client_id)
           and exists (select 1 from "user" u where u.id = p.client_id and u.closed_at is null)`,
      ),
    ).toBe(0);
    expect(await one(db, `select count(*)::int as n from proposal where client_id is not null and organisation_id is null`)).toBe(0);
    expect(await one(db, `select count(*)::int as n from proposal where client_id is null and organisation_id is not null`)).toBe(0);
    expect(
      await one(
        db,
        `select count(*)::int as n from invoice i join proposal p on p.id = i.proposal_id where i.organisation_id is distinct from p.organisation_id`,
      ),
    ).toBe(0);
    expect(await one(db, `select count(*)::int as n from meeting where organisation_id is null`)).toBe(0);
    // Ids kept: each proposal still has its client.
    const after = rowsOf<{ id: number; client_id: string }>(
      await db.execute(sql`select id, client_id from proposal where client_id is not null`),
    );
    expect(after.length).toBe(ownerOf.size);
    for (const row of after) expect(ownerOf.get(row.id)).toBe(row.client_id);

    // Every signed invoice link still verifies; a sample of them opens the invoice for its client.
    let opened = 0;
    let n = 0;
    const banned = new Set(
      (
        await db
          .select({ id: user.id })
          .from(user)
          .where(sql`${user.banned} or ${user.closedAt} is not null`)
      ).map((r) => r.id),
    );
    for (const [invoiceId, token] of links) {
      const row = invoices.find((i) => i.id === invoiceId)!;
      if (banned.has(row.clientId!)) continue; // a deactivated client's links were refused before too
      const link = await openSignedInvoice(db, token);
      expect(link.invoiceId).toBe(invoiceId);
      if (n++ % Math.max(1, Math.floor(links.size / 200)) === 0) {
        expect((await getInvoiceForClient(db, link.client, invoiceId)).id).toBe(invoiceId);
        opened++;
      }
    }
    expect(n).toBeGreaterThan(0);
    expect(opened).toBeGreaterThan(0);
    // Every certificate still verifies.
    for (const [i, certificateId] of certificates.entries()) {
      expect((await verifyCertificate(db, certificateId, `198.51.100.${i % 250}`)).state).toBe("standing");
    }
    expect(certificates.length).toBeGreaterThan(0);
    console.log(
      `0029 on ${SIZE.users}/${SIZE.proposals}/${SIZE.invoices}: ${JSON.stringify(before)}; organisations ${clients}, owners ${openClients}; ${n} links verified (${opened} opened), ${certificates.length} certificates`,
    );
  }, 1_800_000);
});
