/**
 * Several counts of one page section in one statement (issue #42: one round trip per page section,
 * not one per count). Each count stays the unexecuted query of the feature that owns it, so its
 * predicate is written once; this only sends them together as scalar sub-selects.
 */
import { sql, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "./client.server";
import { rowsOf } from "./rows";

/**
 * Runs every query of `counts` — each a select of ONE row with ONE number (e.g.
 * `q.select({ n: count() }).from(t).where(…)`) — as `select (q1)::int as "a", (q2)::int as "b", …`.
 *
 * @param counts - a key's query may be `null` when the page does not need that count now: it is not
 *   sent and counts 0.
 * @returns each key's number (0 when its query found no row).
 */
export async function countsInOne<K extends string>(q: Queryable, counts: Record<K, SQLWrapper | null>): Promise<Record<K, number>> {
  const all = Object.keys(counts) as K[];
  const keys = all.filter((key) => counts[key] !== null);
  if (keys.length === 0) return Object.fromEntries(all.map((key) => [key, 0])) as Record<K, number>;
  const columns = sql.join(
    keys.map((key) => sql`coalesce((${counts[key]}), 0)::int as ${sql.identifier(key)}`),
    sql`, `,
  );
  const [row] = rowsOf<Record<K, number | string>>(await q.execute(sql`select ${columns}`));
  return Object.fromEntries(all.map((key) => [key, Number(row?.[key] ?? 0)])) as Record<K, number>;
}
