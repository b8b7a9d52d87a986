import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDatabases, type TestDb } from "../tests/helpers/db";
import { useTestServices } from "../tests/helpers/services";
import { generateInvoice } from "../app/features/invoices/invoices.admin.server";
import { insertProposal } from "../tests/helpers/admin-data";
import { DEMO_ACCOUNTS, seedDemo } from "./seed-demo";

async function one<T>(t: TestDb, query: ReturnType<typeof sql>): Promise<T> {
  const result = (await t.db.execute(query)) as unknown as { rows: T[] };
  return result.rows[0]!;
}

describe.each(testDatabases())("seed:demo on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("creates consistent data: totals equal their items, numbers follow the counters, invoices only for clients", async () => {
    const { t } = ctx;
    const created = await seedDemo(t.db, { users: 60, proposals: 300, invoices: 120 }, { now: new Date("2026-06-01T12:00:00Z") });
    expect(created).toMatchObject({ users: 60, proposals: 300, invoices: 120 });
    expect(
      await one(
        t,
        sql`select count(*)::int as n from "user" where email in (${DEMO_ACCOUNTS.admin}, ${DEMO_ACCOUNTS.client}, ${DEMO_ACCOUNTS.ambassador})`,
      ),
    ).toEqual({ n: 3 });
    expect(
      await one(
        t,
        sql`select count(*)::int as n from invoice i where i.total_cents <> (select sum(amount_cents) from invoice_item where invoice_id = i.id)`,
      ),
    ).toEqual({ n: 0 });
    expect(
      await one(
        t,
        sql`select count(*)::int as n from invoice i join proposal p on p.id = i.proposal_id where p.client_id is null or p.client_id <> i.client_id`,
      ),
    ).toEqual({ n: 0 });
    expect(
      await one(
        t,
        sql`select count(*)::int as n from commission_entries e join proposal p on p.id = e.proposal_id where p.client_approved_at is null or p.ambassador_id <> e.ambassador_id`,
      ),
    ).toEqual({ n: 0 });
    // The ledger, its payouts and the tally agree (issue #25).
    expect(
      await one(
        t,
        sql`select count(*)::int as n from payouts o where o.total_cents <> (select sum(amount_cents) from commission_entries where payout_id = o.id)`,
      ),
    ).toEqual({ n: 0 });
    expect((await one<{ n: number }>(t, sql`select count(*)::int as n from payouts`)).n).toBeGreaterThan(0);
    // Payments (ADR 013): a paid invoice's payments cover it, an unpaid one's do not.
    expect(
      await one(
        t,
        sql`select count(*)::int as n from invoice i
            where (i.status = 'paid') <> (i.total_cents <= (select coalesce(sum(amount_cents) filter (where amount_cents > 0), 0) from payments where invoice_id = i.id))`,
      ),
    ).toEqual({ n: 0 });
    // The next generated invoice continues its year's sequence.
    const [admin] = (
      (await t.db.execute(sql`select id from "user" where email = ${DEMO_ACCOUNTS.admin}`)) as unknown as { rows: { id: string }[] }
    ).rows;
    const [client] = (
      (await t.db.execute(sql`select id from "user" where email = ${DEMO_ACCOUNTS.client}`)) as unknown as { rows: { id: string }[] }
    ).rows;
    const { n } = await one<{ n: number }>(t, sql`select count(*)::int as n from invoice where number like 'INV-2026-%'`);
    const proposalId = await insertProposal(t.db, { clientId: client!.id });
    const next = await generateInvoice(
      t.db,
      { id: admin!.id, role: "admin", email: DEMO_ACCOUNTS.admin },
      proposalId,
      { dueDate: "2026-07-01", items: [{ description: "x", amountCents: 1 }] },
      new Date("2026-06-01T12:00:00Z"),
      { cardPayments: true },
    );
    expect(next.number).toBe(`INV-2026-${String(n + 1).padStart(4, "0")}`);
    await expect(seedDemo(t.db, { users: 3, proposals: 1, invoices: 0 })).rejects.toThrow(
      /This database is in use \(.*\), so seed:demo wrote nothing/,
    );
  });
});
