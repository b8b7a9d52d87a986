/**
 * Exact row counts per bucket without scanning whole tables (docs/product.md#admin-dashboard
 * "counts of proposals, users and invoices").
 *
 * Triggers from migration `drizzle/0002_tally_triggers.sql` append one delta row to `tally`
 * per bucket each write statement changes (proposal by status, invoice by status with the
 * sum of totals in cents, user by `role:active|inactive`; migration `0004_commission_tally.sql`
 * adds ambassador commissions, see `commissionTotalsFromTally`; `0023_dashboard_tallies.sql` adds
 * `invoice_due`: unpaid invoices per due date `YYYY-MM-DD` with their balance due, paid ones in `paid`). Reading sums the deltas of
 * one entity; once an entity has more than {@link COMPACT_ABOVE} delta rows beyond one per
 * bucket, the read also folds them into one row per bucket (as does {@link startTallyFolding}
 * every minute). Folding is one statement (delete … returning → insert), so rows of
 * transactions that have not committed yet are untouched and nothing is counted twice, even
 * when two instances fold at once.
 */
import { count, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { tally } from "#app/db/schema";
import { logger } from "#app/lib/logger.server";

/** Entities counted by triggers ("conversation": `proposal_thread` rows, bucket "all", migration 0024). */
export type TallyEntity = "proposal" | "invoice" | "invoice_due" | "user" | "commission" | "conversation";

/**
 * One bucket's totals: `n` rows, `cents` the sum of their amounts (invoice totals; for
 * commissions see `commissionTotalsFromTally`; else 0).
 */
export interface TallyBucket {
  bucket: string;
  n: number;
  cents: number;
}

/** Delta rows per entity, beyond one per bucket, tolerated before a read folds them. */
export const COMPACT_ABOVE = 64;

/**
 * @param db - database or transaction.
 * @param entity - which table's counts.
 * @returns the non-empty buckets of that entity (order unspecified).
 */
export async function readTally(db: Queryable, entity: TallyEntity): Promise<TallyBucket[]> {
  const rows = await db
    .select({
      bucket: tally.bucket,
      n: sql<number>`sum(${tally.n})`.mapWith(Number),
      cents: sql<number>`sum(${tally.cents})`.mapWith(Number),
      deltas: count(),
    })
    .from(tally)
    .where(eq(tally.entity, entity))
    .groupBy(tally.bucket);
  if (rows.reduce((total, r) => total + r.deltas, 0) - rows.length > COMPACT_ABOVE) await compactTally(db, entity);
  return rows.filter((r) => r.n !== 0 || r.cents !== 0).map(({ bucket, n, cents }) => ({ bucket, n, cents }));
}

/**
 * Folds an entity's delta rows into one row per bucket (dropping empty buckets).
 *
 * @param db - database or transaction.
 * @param entity - which table's counts.
 */
export async function compactTally(db: Queryable, entity: TallyEntity): Promise<void> {
  await db.execute(sql`
    with moved as (delete from tally where entity = ${entity} returning bucket, n, cents)
    insert into tally (entity, bucket, n, cents)
    select ${entity}, bucket, sum(n), sum(cents) from moved group by bucket having sum(n) <> 0 or sum(cents) <> 0`);
}

/** @returns the sum of `n` over the buckets that pass `keep`. */
export function tallyCount(buckets: TallyBucket[], keep: (bucket: string) => boolean = () => true): number {
  return buckets.reduce((total, b) => (keep(b.bucket) ? total + b.n : total), 0);
}

const ENTITIES: TallyEntity[] = ["proposal", "invoice", "invoice_due", "user", "commission", "conversation"];

/**
 * Folds every entity whose delta rows exceed the threshold (what a read does), so the tally
 * stays small even when nobody reads the counts.
 *
 * @param db - database.
 */
export async function foldTallies(db: Queryable): Promise<void> {
  for (const entity of ENTITIES) await readTally(db, entity);
}

/**
 * Runs {@link foldTallies} every `intervalMs` (default one minute) until stopped; a failed
 * pass (e.g. the database briefly down) is logged and retried at the next tick.
 *
 * @returns `stop()`, which waits for a pass in progress.
 */
export function startTallyFolding(db: Queryable, intervalMs = 60_000): { stop(): Promise<void> } {
  let current: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    current = current.then(() => foldTallies(db)).catch((error: Error) => logger.error({ err: error }, "tally: fold failed"));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
