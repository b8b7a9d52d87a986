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
 * bucket, the read also folds them into one row per bucket (as does {@link foldTallies}, the
 * `tally-fold` job, every minute). Folding is one statement (delete … returning → insert), so rows of
 * transactions that have not committed yet are untouched and nothing is counted twice, even
 * when two instances fold at once.
 */
import { count, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { tally } from "#app/db/schema";
import { memoRead } from "#app/db/request-memo.server";

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
 * @param db - database or transaction; on a request view (app/db/request-memo.server.ts) each
 *   entity is read once per request.
 * @param entity - which table's counts.
 * @returns the non-empty buckets of that entity (order unspecified).
 */
export async function readTally(db: Queryable, entity: TallyEntity): Promise<TallyBucket[]> {
  return (await readTallies(db, [entity]))[entity];
}

/**
 * Reads several entities' buckets in one statement (a page that shows several counts: one round
 * trip); on a request view, only the entities this request has not read yet are read, and each is
 * then kept for the rest of the request. An entity with more than {@link COMPACT_ABOVE} delta rows
 * beyond one per bucket is folded after the read.
 *
 * @param db - database or transaction.
 * @param entities - which tables' counts.
 * @returns each entity's non-empty buckets (order unspecified).
 */
export async function readTallies<E extends TallyEntity>(db: Queryable, entities: readonly E[]): Promise<Record<E, TallyBucket[]>> {
  const missing: E[] = [];
  let answer!: { resolve: (read: Map<string, TallyBucket[]>) => void; reject: (error: unknown) => void };
  const batch = new Promise<Map<string, TallyBucket[]>>((resolve, reject) => (answer = { resolve, reject }));
  // memoRead calls the read at once for an entity it does not hold: those are collected, then read together.
  const lists = entities.map((entity) =>
    memoRead(db, `tally:${entity}`, () => {
      missing.push(entity);
      return batch.then((read) => read.get(entity) ?? []);
    }),
  );
  if (missing.length) readTalliesNow(db, missing).then(answer.resolve, answer.reject);
  const read = await Promise.all(lists);
  return Object.fromEntries(entities.map((entity, i) => [entity, read[i]])) as Record<E, TallyBucket[]>;
}

async function readTalliesNow(db: Queryable, entities: TallyEntity[]): Promise<Map<string, TallyBucket[]>> {
  const rows = await db
    .select({
      entity: tally.entity,
      bucket: tally.bucket,
      n: sql<number>`sum(${tally.n})`.mapWith(Number),
      cents: sql<number>`sum(${tally.cents})`.mapWith(Number),
      deltas: count(),
    })
    .from(tally)
    .where(inArray(tally.entity, entities))
    .groupBy(tally.entity, tally.bucket);
  const byEntity = new Map<string, TallyBucket[]>(entities.map((entity) => [entity, []]));
  const deltas = new Map<string, number>();
  for (const { entity, bucket, n, cents, deltas: d } of rows) {
    deltas.set(entity, (deltas.get(entity) ?? 0) + d - 1);
    if (n !== 0 || cents !== 0) byEntity.get(entity)?.push({ bucket, n, cents });
  }
  for (const entity of entities) if ((deltas.get(entity) ?? 0) > COMPACT_ABOVE) await compactTally(db, entity);
  return byEntity;
}

/** Unpaid invoices' count and balance due, in all and of those due before a date (cents). */
export interface DueTotals {
  dueCount: number;
  dueCents: number;
  overdueCount: number;
  overdueCents: number;
}

/**
 * Sums the `invoice_due` tally (unpaid invoices per due date `YYYY-MM-DD`, paid ones in `paid`) in
 * the database: one row back, not one per due date (hundreds at agency scale). Folds the entity
 * like {@link readTally} when its delta rows have grown.
 *
 * @param today - `YYYY-MM-DD` (UTC): invoices due before it are overdue.
 */
export async function readDueTotals(db: Queryable, today: string): Promise<DueTotals> {
  const unpaid = sql`${tally.bucket} <> 'paid'`;
  const overdue = sql`${tally.bucket} <> 'paid' and ${tally.bucket} < ${today}`;
  const [row] = await db
    .select({
      dueCount: sql<number>`coalesce(sum(${tally.n}) filter (where ${unpaid}), 0)`.mapWith(Number),
      dueCents: sql<number>`coalesce(sum(${tally.cents}) filter (where ${unpaid}), 0)`.mapWith(Number),
      overdueCount: sql<number>`coalesce(sum(${tally.n}) filter (where ${overdue}), 0)`.mapWith(Number),
      overdueCents: sql<number>`coalesce(sum(${tally.cents}) filter (where ${overdue}), 0)`.mapWith(Number),
      extra: sql<number>`count(*) - count(distinct ${tally.bucket})`.mapWith(Number),
    })
    .from(tally)
    .where(eq(tally.entity, "invoice_due"));
  const { extra, ...totals } = row!;
  if (extra > COMPACT_ABOVE) await compactTally(db, "invoice_due");
  return totals;
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
