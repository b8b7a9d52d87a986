/**
 * The lines of a proposal's payment schedule already invoiced (#37, ADR 026): what a new offer
 * version keeps. Its own module (no invoice imports), so that the versions can read it without an
 * import circle through invoice generation.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { paymentScheduleLine } from "#app/db/schema";

/**
 * @returns the lines of a proposal's schedule already issued, position → amount in cents (a new
 *   version keeps them: only unissued lines change, #37).
 */
export async function issuedScheduleAmounts(q: Queryable, proposalId: number): Promise<Map<number, number>> {
  const rows = await q
    .select({ position: paymentScheduleLine.position, amountCents: paymentScheduleLine.amountCents })
    .from(paymentScheduleLine)
    .where(and(eq(paymentScheduleLine.proposalId, proposalId), isNotNull(paymentScheduleLine.issuedAt)));
  return new Map(rows.map((r) => [r.position, r.amountCents]));
}
