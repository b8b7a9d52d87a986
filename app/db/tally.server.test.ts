import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "#app/db/client.server";
import { invoice, proposal, tally, user } from "#app/db/schema";
import { seedDemo } from "../../scripts/seed-demo";
import { testDatabases, type TestDb } from "../../tests/helpers/db";
import {
  COMPACT_ABOVE,
  foldTallies,
  readDueTotals,
  readTallies,
  readTally,
  tallyCount,
  type TallyBucket,
  type TallyEntity,
} from "./tally.server";
import { withRequestMemo } from "./request-memo.server";

/** The same buckets counted the slow way, straight from the tables. */
async function countedDirectly(t: TestDb, entity: TallyEntity) {
  const query =
    entity === "invoice_due"
      ? // From the payments themselves, not from the kept invoice.paid_cents (migration 0023).
        sql`select case when status = 'unpaid' then due_date::text else 'paid' end as bucket, count(*)::int as n,
              coalesce(sum(greatest(0, total_cents - (select coalesce(sum(p.amount_cents) filter (where p.amount_cents > 0), 0) from payments p where p.invoice_id = invoice.id))), 0)::bigint as cents
            from invoice group by 1`
      : entity === "proposal"
        ? sql`select status as bucket, count(*)::int as n, 0 as cents from proposal group by 1`
        : entity === "invoice"
          ? sql`select status as bucket, count(*)::int as n, coalesce(sum(total_cents), 0)::bigint as cents from invoice group by 1`
          : sql`select coalesce(role, 'client') || case when banned then ':inactive' else ':active' end as bucket, count(*)::int as n, 0 as cents from "user" group by 1`;
  const result = (await t.db.execute(query)) as unknown as { rows: { bucket: string; n: number; cents: number | string }[] };
  return sortBuckets(result.rows.map((r) => ({ bucket: r.bucket, n: Number(r.n), cents: Number(r.cents) })));
}

function sortBuckets<T extends { bucket: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.bucket.localeCompare(b.bucket));
}

/** The commission ledger's buckets counted from its table (migration 0021): unpaid / paid out. */
async function commissionsDirectly(t: TestDb) {
  const result = (await t.db.execute(sql`
    select case when payout_id is null then 'unpaid' else 'paid' end as bucket, count(*)::int as n, coalesce(sum(amount_cents), 0)::bigint as cents
    from commission_entries group by 1`)) as unknown as { rows: { bucket: string; n: number; cents: string }[] };
  return sortBuckets(result.rows.map((r) => ({ bucket: r.bucket, n: Number(r.n), cents: Number(r.cents) })).filter((r) => r.n !== 0));
}

async function expectTallyMatches(t: TestDb) {
  for (const entity of ["proposal", "invoice", "invoice_due", "user"] as const) {
    expect(sortBuckets(await readTally(t.db, entity)), entity).toEqual(await countedDirectly(t, entity));
  }
  // The balance due summed in the database: the same as summing the counted buckets, for a day
  // before, inside and after the seeded due dates.
  const due = (await countedDirectly(t, "invoice_due")).filter((b) => b.bucket !== "paid");
  for (const today of ["2000-01-01", "2026-06-15", "2100-01-01"]) {
    const overdue = due.filter((b) => b.bucket < today);
    expect(await readDueTotals(t.db, today), today).toEqual({
      dueCount: due.reduce((sum, b) => sum + b.n, 0),
      dueCents: due.reduce((sum, b) => sum + b.cents, 0),
      overdueCount: overdue.reduce((sum, b) => sum + b.n, 0),
      overdueCents: overdue.reduce((sum, b) => sum + b.cents, 0),
    });
  }
  // The conversation inbox's total (migration 0024): proposal_thread rows.
  const threads = Number(
    ((await t.db.execute(sql`select count(*)::int as n from proposal_thread`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
  );
  expect(await readTally(t.db, "conversation"), "conversation").toEqual(threads ? [{ bucket: "all", n: threads, cents: 0 }] : []);
  expect(sortBuckets(await readTally(t.db, "commission")), "commission").toEqual(await commissionsDirectly(t));
}

/**
 * The demo data every test starts from: seeded once per database kind (≈ 1–2.5 s of CPU on PGlite
 * each time), then put back by each test's `close()` (issue #42).
 */
const seed = (db: Database) => seedDemo(db, { users: 40, proposals: 200, invoices: 80 });

describe.each(testDatabases({ seed }))("tally (trigger-kept counts) on %s", (_name, open) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await open();
  });
  afterEach(() => t.close());

  it("agrees with counting the tables after inserts, updates, cascading deletes, folding and truncation", async () => {
    await expectTallyMatches(t);
    expect((await readTally(t.db, "proposal")).length).toBeGreaterThan(1);
    const buckets = await readTally(t.db, "commission");
    expect(buckets.some((b) => b.bucket === "paid" && b.n > 0 && b.cents > 0)).toBe(true);

    // Commissions: entries taken into a payout and entries deleted with their ambassador
    // (the ledger only changes through its own rows); proposal and invoice changes leave it alone.
    const ambassadorProposals = (
      await t.db
        .select({ id: proposal.id })
        .from(proposal)
        .where(sql`${proposal.ambassadorId} is not null`)
        .orderBy(proposal.id)
    ).map((r) => r.id);
    expect(ambassadorProposals.length).toBeGreaterThan(20);
    await t.db
      .update(proposal)
      .set({ clientApprovedAt: sql`now()` })
      .where(inArray(proposal.id, ambassadorProposals.slice(0, 10)));
    await t.db.execute(sql`
      with o as (
        insert into payouts (ambassador_id, total_cents, currency, reference, method, paid_at)
        select ambassador_id, 0, 'USD', 'tally test', 'other', now() from commission_entries where payout_id is null limit 1
        returning id, ambassador_id
      )
      update commission_entries e set payout_id = o.id from o where e.ambassador_id = o.ambassador_id and e.payout_id is null`);
    await t.db
      .update(proposal)
      .set({ budgetCents: sql`coalesce(${proposal.budgetCents}, 0) + 4321` })
      .where(inArray(proposal.id, ambassadorProposals.slice(0, 15)));
    await t.db
      .update(invoice)
      .set({ totalCents: sql`${invoice.totalCents} * 3 + 7` })
      .where(sql`${invoice.proposalId} in (select id from proposal where ambassador_id is not null)`);
    await expectTallyMatches(t);
    const withoutInvoice = await t.db
      .select({ id: proposal.id, clientId: proposal.clientId })
      .from(proposal)
      .where(
        sql`${proposal.ambassadorId} is not null and ${proposal.clientApprovedAt} is not null and ${proposal.clientId} is not null and not exists (select 1 from invoice where proposal_id = ${proposal.id})`,
      )
      .limit(2);
    expect(withoutInvoice).toHaveLength(2);
    const year = new Date().getUTCFullYear();
    await t.db.insert(invoice).values(
      withoutInvoice.map((p, i) => ({
        number: `TALLY-${year}-${i}`,
        proposalId: p.id,
        clientId: p.clientId!,
        status: "unpaid" as const,
        totalCents: 987_654 + i,
        dueDate: "2026-12-31",
      })),
    );
    await expectTallyMatches(t);
    await t.db.delete(invoice).where(sql`${invoice.proposalId} = ${withoutInvoice[0]!.id}`);
    await expectTallyMatches(t);
    // A proposal deleted with its invoice (the cascade runs before the statement's AFTER triggers).
    const [invoiced] = await t.db
      .select({ id: proposal.id })
      .from(proposal)
      .innerJoin(invoice, eq(invoice.proposalId, proposal.id))
      .where(sql`${proposal.ambassadorId} is not null and ${proposal.clientApprovedAt} is not null`)
      .limit(1);
    await t.db.delete(proposal).where(eq(proposal.id, invoiced!.id));
    await expectTallyMatches(t);
    const [ambassador] = await t.db
      .select({ id: proposal.ambassadorId })
      .from(proposal)
      .where(sql`${proposal.ambassadorId} is not null and ${proposal.clientApprovedAt} is not null`)
      .limit(1);
    await t.db.delete(user).where(eq(user.id, ambassador!.id!)); // proposals keep going, without an ambassador
    await expectTallyMatches(t);

    // Status changes, a no-op update, payments with amounts, deactivations.
    const some = (await t.db.select({ id: proposal.id }).from(proposal).limit(30)).map((r) => r.id);
    await t.db
      .update(proposal)
      .set({ status: "completed" })
      .where(inArray(proposal.id, some.slice(0, 20)));
    await t.db.update(proposal).set({ projectDetails: "unchanged status" }).where(inArray(proposal.id, some));
    await t.db
      .update(invoice)
      .set({ status: "paid", totalCents: sql`${invoice.totalCents} + 1` })
      .where(sql`${invoice.id} % 3 = 0`);
    await t.db
      .update(user)
      .set({ banned: true })
      .where(sql`${user.id} in (select id from "user" where role = 'client' limit 5)`);
    await expectTallyMatches(t);

    // Deleting a client cascades to its proposals and invoices (ADR 004).
    const [client] = await t.db.select({ id: user.id }).from(proposal).innerJoin(user, eq(user.id, proposal.clientId)).limit(1);
    await t.db.delete(user).where(eq(user.id, client!.id));
    await expectTallyMatches(t);

    // Many single-row writes, then a read folds the deltas into one row per bucket. (A proposal
    // that still exists: the one of `some` picked before may have gone with the deleted client.)
    const [survivor] = await t.db.select({ id: proposal.id }).from(proposal).orderBy(proposal.id).limit(1);
    for (let i = 0; i < COMPACT_ABOVE + 5; i++) {
      const changed = await t.db
        .update(proposal)
        .set({ status: i % 2 ? "planning" : "review" })
        .where(eq(proposal.id, survivor!.id))
        .returning({ id: proposal.id });
      expect(changed).toHaveLength(1);
    }
    await expectTallyMatches(t);
    const [{ rows } = { rows: 0 }] = await t.db
      .select({ rows: sql<number>`count(*)`.mapWith(Number) })
      .from(tally)
      .where(eq(tally.entity, "proposal"));
    expect(rows).toBe((await readTally(t.db, "proposal")).length);

    // Payments, refunds, a changed amount and deleted payments move the kept paid sums (migration 0023).
    const unpaid = (await t.db.select({ id: invoice.id }).from(invoice).where(eq(invoice.status, "unpaid")).limit(6)).map((r) => r.id);
    expect(unpaid.length).toBeGreaterThan(3);
    await t.db.execute(sql`
      insert into payments (invoice_id, amount_cents, currency, method, received_at)
      select id, 1000 + id, 'USD', 'other', now() from invoice where id = any(${sql.param(unpaid)}::integer[])
      union all select id, 250, 'USD', 'other', now() from invoice where id = any(${sql.param(unpaid)}::integer[])`);
    await t.db.execute(
      sql`insert into payments (invoice_id, amount_cents, currency, method, received_at) values (${unpaid[0]}, -300, 'USD', 'other', now())`,
    );
    await expectTallyMatches(t);
    await t.db.execute(sql`update payments set amount_cents = amount_cents + 77 where invoice_id = ${unpaid[1]} and amount_cents > 0`);
    await t.db.execute(sql`update payments set invoice_id = ${unpaid[3]} where invoice_id = ${unpaid[2]}`);
    await t.db.execute(sql`delete from payments where invoice_id = ${unpaid[0]} and amount_cents = 250`);
    await expectTallyMatches(t);
    const drift = (await t.db.execute(sql`
      select count(*)::int as n from invoice
      where paid_cents <> (select coalesce(sum(p.amount_cents) filter (where p.amount_cents > 0), 0) from payments p where p.invoice_id = invoice.id)`)) as unknown as {
      rows: { n: number }[];
    };
    expect(drift.rows[0]!.n).toBe(0);
    await t.db.execute(sql`truncate payments cascade`);
    await expectTallyMatches(t);

    await t.db.execute(sql`truncate invoice cascade`);
    await expectTallyMatches(t);
    expect(await readTally(t.db, "invoice")).toEqual([]);
    expect(await readTally(t.db, "commission")).toEqual([]); // the ledger's entries went with their payments
    await t.db.execute(sql`truncate proposal cascade`);
    await expectTallyMatches(t);
    expect(await readTally(t.db, "commission")).toEqual([]);
  });

  it("folds every entity's deltas without a read (the server does it every minute)", async () => {
    const ids = (
      await t.db
        .select({ id: proposal.id })
        .from(proposal)
        .where(sql`${proposal.ambassadorId} is not null`)
        .limit(5)
    ).map((r) => r.id);
    for (let i = 0; i < COMPACT_ABOVE + 5; i++) {
      await t.db
        .update(proposal)
        .set({ status: i % 2 ? "planning" : "review", clientApprovedAt: i % 2 ? sql`now()` : null })
        .where(eq(proposal.id, ids[i % 5]!));
      await t.db
        .update(user)
        .set({ banned: i % 2 === 0 })
        .where(sql`${user.id} = (select id from "user" where role = 'client' order by id limit 1)`);
      await t.db
        .update(invoice)
        .set({ totalCents: 1000 + i })
        .where(sql`${invoice.id} = (select min(id) from invoice)`);
      // A ledger entry moved in and out of a payout (bucket unpaid ↔ paid).
      await t.db.execute(
        sql`update commission_entries set payout_id = case when payout_id is null then (select min(id) from payouts) end where id = (select min(id) from commission_entries)`,
      );
    }
    const rowsOf = async () =>
      Object.fromEntries(
        (
          (await t.db.execute(sql`select entity, count(*)::int as n from tally group by entity`)) as unknown as {
            rows: { entity: string; n: number }[];
          }
        ).rows.map((r) => [r.entity, r.n]),
      );
    const before = await rowsOf();
    await foldTallies(t.db);
    const after = await rowsOf();
    for (const entity of ["proposal", "invoice", "user", "commission"] as const) {
      expect(before[entity], entity).toBeGreaterThan(COMPACT_ABOVE);
      expect(after[entity], entity).toBe((await readTally(t.db, entity)).length);
    }
    await expectTallyMatches(t);
  });

  it("stays exact under concurrent writers (no lost delta, no deadlock)", async () => {
    // Ambassador proposals, so that every write also moves commissions between buckets.
    const ids = (
      await t.db
        .select({ id: proposal.id })
        .from(proposal)
        .where(sql`${proposal.ambassadorId} is not null`)
        .limit(40)
    ).map((r) => r.id);
    expect(ids).toHaveLength(40);
    const statuses = ["pending", "planning", "in_progress", "review", "completed"] as const;
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        t.db.transaction(async (tx) => {
          for (let i = 0; i < ids.length; i++) {
            // Writers own disjoint rows (so only the shared buckets are contended) and keep
            // moving them between the same statuses.
            const id = ids[w * 5 + (i % 5)]!;
            await tx
              .update(proposal)
              .set({
                status: statuses[(i + w) % statuses.length]!,
                clientApprovedAt: i % 3 ? sql`now()` : null,
                budgetCents: 10_000 + 37 * i * (w + 1),
              })
              .where(eq(proposal.id, id));
            if (i % 10 === 0) await readTally(tx, "proposal");
          }
        }),
      ),
    );
    await expectTallyMatches(t);
  });

  it("stays exact when an invoice total and its proposal's approval change at the same time", async () => {
    // Proposal → invoice pairs of ambassador proposals; one writer keeps changing the invoice
    // totals while another keeps approving and unapproving the same proposals.
    const pairs = await t.db
      .select({ proposalId: proposal.id, invoiceId: invoice.id })
      .from(invoice)
      .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
      .where(sql`${proposal.ambassadorId} is not null`)
      .limit(6);
    expect(pairs.length).toBeGreaterThan(2);
    await Promise.all([
      (async () => {
        for (let i = 0; i < 100; i++) {
          const { invoiceId } = pairs[i % pairs.length]!;
          await t.db.transaction(async (tx) => {
            await tx
              .update(invoice)
              .set({ totalCents: 50_000 + 7_919 * i })
              .where(eq(invoice.id, invoiceId));
          });
        }
      })(),
      (async () => {
        for (let i = 0; i < 100; i++) {
          const { proposalId } = pairs[i % pairs.length]!;
          await t.db
            .update(proposal)
            .set({ clientApprovedAt: i % 2 ? null : sql`now()` })
            .where(eq(proposal.id, proposalId));
        }
      })(),
    ]);
    await expectTallyMatches(t);
  });

  it("reads several entities in one statement, once per request on a request view", async () => {
    const entities = ["proposal", "invoice", "invoice_due", "user"] as const;
    // On the plain database: the same buckets as one read per entity, each time afresh.
    const together = await readTallies(t.db, entities);
    for (const entity of entities) expect(sortBuckets(together[entity]), entity).toEqual(sortBuckets(await readTally(t.db, entity)));

    const view = withRequestMemo(t.db);
    const selects = vi.spyOn(view, "select");
    await readTallies(view, entities);
    expect(selects).toHaveBeenCalledTimes(1);
    // Later reads in the same request are answered from the first one, even after a write…
    const closed = (buckets: TallyBucket[]) => tallyCount(buckets, (status) => status === "closed");
    const before = closed(together.proposal);
    const changed = await t.db
      .update(proposal)
      .set({ status: "closed" })
      .where(inArray(proposal.id, sql`(select id from proposal where status <> 'closed' limit 1)`))
      .returning({ id: proposal.id });
    expect(changed).toHaveLength(1);
    expect(closed(await readTally(view, "proposal"))).toBe(before);
    // …only the entities not read yet are read (one statement), and a new request sees the write.
    await readTallies(view, ["proposal", "commission"]);
    expect(selects).toHaveBeenCalledTimes(2);
    expect(closed(await readTally(withRequestMemo(t.db), "proposal"))).toBe(before + 1);
  });
});
