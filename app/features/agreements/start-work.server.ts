/**
 * A proposal's status follows the work (issue #37, docs/product.md#proposal-statuses): accepted — and
 * the deposit paid, when one is asked — moves it to "In progress", for client and ambassador
 * proposals alike, unless the admin moved it on already. Called by the acceptance and by every
 * payment write (payment-hooks.server.ts), in their transactions.
 */
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { auditEvent, invoice, proposal, type ProposalStatus } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import type { Actor } from "#app/features/users/actor";

/**
 * The statuses an accepted proposal leaves for "In progress" (the work starts): the ones before
 * the work. A status the admin set beyond them (review, completed…) is left alone.
 */
export const BEFORE_WORK_STATUSES: readonly ProposalStatus[] = ["submitted", "pending", "planning", "awaiting_acceptance"];

/**
 * Moves an accepted proposal to "In progress" (audited `status-changed`, by the actor or the system)
 * once the work can start: accepted, and the deposit of its invoices paid when one is asked. Leaves
 * a proposal alone when it is not accepted, a deposit is still due, or the admin moved it past the
 * statuses before the work ({@link BEFORE_WORK_STATUSES}).
 *
 * @returns whether the status changed.
 */
export async function startWorkWhenReady(tx: Queryable, actor: Actor | null, proposalId: number): Promise<boolean> {
  // Every payment write holds the proposal FOR SHARE (lockInvoice, ADR 006); two payments of one
  // proposal at once would deadlock upgrading it. SKIP LOCKED: the one that cannot take it leaves the
  // move to the other, which sees both payments once this one commits.
  const [row] = await tx
    .select({ status: proposal.status, approvedAt: proposal.clientApprovedAt })
    .from(proposal)
    .where(eq(proposal.id, proposalId))
    .for("update", { skipLocked: true });
  if (!row?.approvedAt || !BEFORE_WORK_STATUSES.includes(row.status)) return false;
  // A deposit is still due while an invoice of the proposal asks one and its payments have not reached it.
  const [waiting] = await tx
    .select({ id: invoice.id })
    .from(invoice)
    .where(
      and(
        eq(invoice.proposalId, proposalId),
        isNotNull(invoice.depositCents),
        sql`${invoice.depositCents} > 0`,
        sql`${invoice.paidCents} < ${invoice.depositCents}`,
      ),
    )
    .limit(1);
  if (waiting) return false;
  const [moved] = await tx
    .update(proposal)
    .set({ status: "in_progress", updatedAt: sql`now()` })
    .where(and(eq(proposal.id, proposalId), inArray(proposal.status, [...BEFORE_WORK_STATUSES])))
    .returning({ id: proposal.id });
  if (!moved) return false;
  const change = { before: { status: row.status }, after: { status: "in_progress" } };
  if (actor) await recordAudit(tx, actor, { entity: "proposal", entityId: proposalId, action: "status-changed", ...change });
  // A card payment confirmed by Stripe's webhook has no signed-in actor: the processor is named.
  else
    await tx.insert(auditEvent).values({
      actorId: null,
      actorEmail: "Stripe",
      entity: "proposal",
      entityId: String(proposalId),
      action: "status-changed",
      ...change,
      proposalId,
    });
  return true;
}
