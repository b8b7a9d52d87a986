/**
 * Fixed-window rate limiting stored in PostgreSQL (`rate_window` table), so every app
 * instance counts against the same budget. One atomic upsert per hit.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { rateWindow } from "#app/db/schema";
import { logger } from "./logger.server";

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
  if (count === limit + 1) logger.warn({ key, limit, windowMs }, "throttle: limit reached");
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil(Number(row!.resetInMs) / 1000)),
  };
}

/** The longest rate-limit window in use (sign-up: 1 hour); older windows count for nothing. */
const LONGEST_WINDOW_MS = 60 * 60_000;

/**
 * Deletes rate-limit windows that started more than a day ago (a day is well past
 * {@link LONGEST_WINDOW_MS}: such a window would be reset by its next hit anyway).
 *
 * @returns how many windows were deleted.
 */
export async function purgeRateWindows(q: Queryable): Promise<number> {
  const deleted = await q
    .delete(rateWindow)
    .where(sql`${rateWindow.windowStart} < now() - (${Math.max(LONGEST_WINDOW_MS, 24 * 60 * 60_000)} * interval '1 millisecond')`)
    .returning({ key: rateWindow.key });
  return deleted.length;
}
