/**
 * Mark paid / Mark unpaid (docs/product.md#invoices-paying).
 */
import { eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { INVOICE_MESSAGES } from "./invoices.messages";

/**
 * Locks an invoice row (`FOR UPDATE`, inside the caller's transaction) and reads what Mark Paid /
 * Mark unpaid change, so two status changes at once apply one after the other.
 *
 * @returns the invoice number, status and payment time.
 * @throws {AppError} 404 for an unknown invoice.
 */
async function lockPaymentState(tx: Queryable, invoiceId: number) {
  const [current] = await tx
    .select({ number: invoice.number, status: invoice.status, paidAt: invoice.paidAt })
    .from(invoice)
    .where(eq(invoice.id, invoiceId))
    .for("update");
  if (!current) throw notFound(INVOICE_MESSAGES.notFound);
  return current;
}

/**
 * Mark Paid (docs/product.md#invoice-statuses: unpaid → paid). `paidAt` records the time. In the same transaction
 * one audit event `marked-paid` (status and paidAt before/after). Marking a paid
 * invoice again changes nothing and records nothing.
 *
 * @returns the invoice number and whether it changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function markInvoicePaid(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const current = await lockPaymentState(tx, invoiceId);
    if (current.status === "paid") return { number: current.number, changed: false };
    const [row] = await tx
      .update(invoice)
      .set({ status: "paid", paidAt: sql`coalesce(${invoice.paidAt}, now())`, version: sql`${invoice.version} + 1`, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId))
      .returning({ paidAt: invoice.paidAt });
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "marked-paid",
      before: { status: current.status, paidAt: current.paidAt },
      after: { status: "paid", paidAt: row!.paidAt },
    });
    return { number: current.number, changed: true };
  });
}

/**
 * Mark unpaid (docs/product.md#invoices-paying): the reversal of {@link markInvoicePaid} — a paid
 * invoice goes back to `unpaid` and its payment time is cleared, recorded as one audit event
 * `marked-unpaid` (status and paidAt before/after). The invoice row is locked, so two reversals at
 * once change it once. An unpaid invoice changes nothing.
 *
 * @returns the invoice number and whether it changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function markInvoiceUnpaid(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const current = await lockPaymentState(tx, invoiceId);
    if (current.status === "unpaid") return { number: current.number, changed: false };
    await tx
      .update(invoice)
      .set({ status: "unpaid", paidAt: null, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId));
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "marked-unpaid",
      before: { status: current.status, paidAt: current.paidAt },
      after: { status: "unpaid", paidAt: null },
    });
    return { number: current.number, changed: true };
  });
}
