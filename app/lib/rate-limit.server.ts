/**
 * Fixed-window rate limiting stored in PostgreSQL (`rate_window` table), so every app
 * instance counts against the same budget. One atomic upsert per hit.
 */
import { eq, sql } from "drizzle-orm";
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

/** A counter as it stands, without counting a hit (see {@link peekRateLimit}). */
export interface RateWindowState {
  /** Hits in the current window (0 when the window has expired or never started). */
  count: number;
  /** Seconds until the window resets (0 when `count` is 0). */
  retryAfterSeconds: number;
  /** Milliseconds since the last hit, or null when `count` is 0. */
  sinceLastHitMs: number | null;
}

/**
 * Reads `key`'s counter without counting a hit.
 *
 * @param windowMs - the window length the counter is hit with (milliseconds).
 */
export async function peekRateLimit(q: Queryable, key: string, windowMs: number): Promise<RateWindowState> {
  const [row] = await q
    .select({
      count: rateWindow.count,
      resetInMs: sql<number>`extract(epoch from (${rateWindow.windowStart} + (${windowMs} * interval '1 millisecond') - now())) * 1000`,
      sinceLastHitMs: sql<number>`extract(epoch from (now() - ${rateWindow.lastHitAt})) * 1000`,
    })
    .from(rateWindow)
    .where(eq(rateWindow.key, key));
  const resetInMs = Number(row?.resetInMs ?? 0);
  if (!row || resetInMs <= 0 || row.count <= 0) return { count: 0, retryAfterSeconds: 0, sinceLastHitMs: null };
  return {
    count: row.count,
    retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
    sinceLastHitMs: Math.max(0, Number(row.sinceLastHitMs)),
  };
}

/** Takes back one hit counted for `key` by {@link hitRateLimit} (never below 0). */
export async function undoRateLimitHit(q: Queryable, key: string): Promise<void> {
  await q
    .update(rateWindow)
    .set({ count: sql`greatest(${rateWindow.count} - 1, 0)` })
    .where(eq(rateWindow.key, key));
}

/** Forgets `key`'s counter (its next hit starts a new window). */
export async function clearRateLimit(q: Queryable, key: string): Promise<void> {
  await q.delete(rateWindow).where(eq(rateWindow.key, key));
}

/**
 * Counts one hit for `key` and says whether it is within `limit` per `windowMs`.
 *
 * @param key - e.g. `contact:203.0.113.7`.
 * @param limit - hits allowed per window; `windowMs` - the window length (milliseconds),
 *   fixed from the window's first hit.
 * @returns the count with this hit, whether it is within the limit, and when the window resets.
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
        lastHitAt: sql`now()`,
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
