/**
 * Deleting an invoice (docs/product.md#invoices-deleting).
 */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { invoice } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { lockProposalOfInvoice } from "./invoice-locks.server";
import { INVOICE_MESSAGES } from "./invoices.messages";

/**
 * Deletes an invoice and its items (docs/product.md#proposals: its proposal is unlinked — by construction,
 * the link is this invoice's foreign key). The page asks for confirmation first (docs/product.md#invoices).
 * In the same transaction one audit event `deleted` with the invoice as it was.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function deleteInvoice(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; proposalId: number | null }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    await lockProposalOfInvoice(tx, invoiceId);
    const [row] = await tx.delete(invoice).where(eq(invoice.id, invoiceId)).returning();
    if (!row) throw notFound(INVOICE_MESSAGES.notFound);
    const { number, proposalId, clientId, dueDate, status, totalCents, paidAt } = row;
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "deleted",
      before: { number, proposalId, clientId, dueDate, status, totalCents, paidAt },
      after: null,
    });
    return { number, proposalId };
  });
}
