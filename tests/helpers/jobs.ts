/**
 * Test helpers for the job queue (ADR 019): move retry back-off out of the way, and read jobs.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";

/** Makes every waiting job of `queue` (or of all queues) due now, as if its back-off had passed. */
export async function makeJobsDue(db: Queryable, queue?: string): Promise<void> {
  await db.execute(
    sql`update pgboss.job set start_after = now() - interval '1 second' where state < 'active' ${queue ? sql`and name = ${queue}` : sql``}`,
  );
}

/** The jobs of a queue, oldest first: state, attempts made and the data. */
export async function jobsOf(
  db: Queryable,
  queue: string,
): Promise<Array<{ id: string; state: string; retryCount: number; data: Record<string, unknown> }>> {
  const { rows } = (await db.execute(
    sql`select id::text, state::text, retry_count as "retryCount", data from pgboss.job where name = ${queue} order by created_on, id`,
  )) as unknown as { rows: Array<{ id: string; state: string; retryCount: number; data: Record<string, unknown> }> };
  return rows;
}
