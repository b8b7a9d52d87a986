/**
 * Lock order for invoice writes (ADR 006): the proposal first, then its invoice.
 */
import { eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, proposal } from "#app/db/schema";

/**
 * Locks (FOR SHARE) the proposal of an invoice before the invoice itself is locked or changed:
 * the commission tally's invoice trigger locks that proposal too (migration 0004), so taking
 * proposal → invoice in that order, as generating an invoice and deleting a proposal do,
 * keeps a concurrent approval, payment or deletion from deadlocking with this transaction.
 * Does nothing for an unknown invoice (the caller answers 404).
 *
 * @param tx - the caller's transaction.
 */
export async function lockProposalOfInvoice(tx: Queryable, invoiceId: number): Promise<void> {
  await tx
    .select({ id: proposal.id })
    .from(proposal)
    .where(eq(proposal.id, sql`(select ${invoice.proposalId} from ${invoice} where ${invoice.id} = ${invoiceId})`))
    .for("share");
}
