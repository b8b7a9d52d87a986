import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { invoice, proposal, tally, user } from "#app/db/schema";
import { seedDemo } from "../../scripts/seed-demo";
import { testDatabases, type TestDb } from "../../tests/helpers/db";
import { COMPACT_ABOVE, readTally, type TallyEntity } from "./tally.server";

/** The same buckets counted the slow way, straight from the tables. */
async function countedDirectly(t: TestDb, entity: TallyEntity) {
  const query =
    entity === "proposal"
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

async function expectTallyMatches(t: TestDb) {
  for (const entity of ["proposal", "invoice", "user"] as const) {
    expect(sortBuckets(await readTally(t.db, entity)), entity).toEqual(await countedDirectly(t, entity));
  }
}

describe.each(testDatabases())("tally (trigger-kept counts) on %s", (_name, open) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await open();
    await seedDemo(t.db, { users: 40, proposals: 200, invoices: 80 });
  });
  afterEach(() => t.close());

  it("agrees with counting the tables after inserts, updates, cascading deletes, folding and truncation", async () => {
    await expectTallyMatches(t);
    expect((await readTally(t.db, "proposal")).length).toBeGreaterThan(1);

    // Status changes, a no-op update, payments with amounts, deactivations.
    const some = (await t.db.select({ id: proposal.id }).from(proposal).limit(30)).map((r) => r.id);
    await t.db.update(proposal).set({ status: "completed" }).where(inArray(proposal.id, some.slice(0, 20)));
    await t.db.update(proposal).set({ projectDetails: "unchanged status" }).where(inArray(proposal.id, some));
    await t.db.update(invoice).set({ status: "paid", totalCents: sql`${invoice.totalCents} + 1` }).where(sql`${invoice.id} % 3 = 0`);
    await t.db.update(user).set({ banned: true }).where(sql`${user.id} in (select id from "user" where role = 'client' limit 5)`);
    await expectTallyMatches(t);

    // Deleting a client cascades to its proposals and invoices (ADR 004).
    const [client] = await t.db.select({ id: user.id }).from(proposal).innerJoin(user, eq(user.id, proposal.clientId)).limit(1);
    await t.db.delete(user).where(eq(user.id, client!.id));
    await expectTallyMatches(t);

    // Many single-row writes, then a read folds the deltas into one row per bucket.
    for (let i = 0; i < COMPACT_ABOVE + 5; i++) await t.db.update(proposal).set({ status: i % 2 ? "planning" : "review" }).where(eq(proposal.id, some[25]!));
    await expectTallyMatches(t);
    const [{ rows } = { rows: 0 }] = await t.db.select({ rows: sql<number>`count(*)`.mapWith(Number) }).from(tally).where(eq(tally.entity, "proposal"));
    expect(rows).toBe((await readTally(t.db, "proposal")).length);

    await t.db.execute(sql`truncate invoice cascade`);
    await expectTallyMatches(t);
    expect(await readTally(t.db, "invoice")).toEqual([]);
  });

  it("stays exact under concurrent writers (no lost delta, no deadlock)", async () => {
    const ids = (await t.db.select({ id: proposal.id }).from(proposal).limit(40)).map((r) => r.id);
    const statuses = ["pending", "planning", "in_progress", "review", "completed"] as const;
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        t.db.transaction(async (tx) => {
          for (let i = 0; i < ids.length; i++) {
            // Writers own disjoint rows (so only the shared buckets are contended) and keep
            // moving them between the same statuses.
            const id = ids[w * 5 + (i % 5)]!;
            await tx.update(proposal).set({ status: statuses[(i + w) % statuses.length]! }).where(eq(proposal.id, id));
            if (i % 10 === 0) await readTally(tx, "proposal");
          }
        }),
      ),
    );
    await expectTallyMatches(t);
  });
});
