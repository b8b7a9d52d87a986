/**
 * Fixed-window rate limiting stored in PostgreSQL (`rate_window` table), so every app
 * instance counts against the same budget. One atomic upsert per hit.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { rateWindow } from "#app/db/schema";

export interface RateLimitResult {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (for a `Retry-After` header). */
  retryAfterSeconds: number;
}

/**
 * Counts one hit for `key` and says whether it is within `limit` per `windowMs`.
 *
 * @param key - e.g. `contact:203.0.113.7`.
 */
export async function hitRateLimit(
  q: Queryable,
  key: string,
  { limit, windowMs }: { limit: number; windowMs: number },
): Promise<RateLimitResult> {
  const expired = sql`${rateWindow.windowStart} <= now() - (${windowMs} * interval '1 millisecond')`;
  const [row] = await q
    .insert(rateWindow)
    .values({ key, count: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: rateWindow.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateWindow.count} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${rateWindow.windowStart} end`,
      },
    })
    .returning({
      count: rateWindow.count,
      resetInMs: sql<number>`extract(epoch from (${rateWindow.windowStart} + (${windowMs} * interval '1 millisecond') - now())) * 1000`,
    });
  const count = row!.count;
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil(Number(row!.resetInMs) / 1000)),
  };
}
