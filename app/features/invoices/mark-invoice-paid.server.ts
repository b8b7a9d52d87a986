/**
 * "Record full payment" (docs/product.md#payments): what "Mark Paid" was, now a payment of the
 * whole balance recorded like any other (issue #25, ADR 013). "Mark unpaid" is gone: a payment
 * recorded by mistake is reversed with a refund, so the trail keeps both.
 */
import type { Database } from "#app/db/client.server";
import { getInvoiceMoney } from "#app/features/payments/balance.server";
import type { PaymentMethod } from "#app/features/payments/payments.messages";
import { lockInvoice, recordFullPayment } from "#app/features/payments/record-payment.server";
import { assertRole, type Actor } from "#app/features/users/actor";

/**
 * Records a payment of the whole balance (method `other` unless given, received now). An invoice
 * with nothing due changes nothing and records nothing.
 *
 * @returns the invoice number, whether a payment was recorded, and the balance after (0).
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function markInvoicePaid(
  db: Database,
  actor: Actor,
  invoiceId: number,
  options: { method?: PaymentMethod; reference?: string | null; now?: Date } = {},
): Promise<{ number: string; changed: boolean; amountCents: number }> {
  assertRole(actor, "admin");
  const current = await db.transaction(async (tx) => {
    const locked = await lockInvoice(tx, invoiceId);
    return { number: locked.number, balanceCents: (await getInvoiceMoney(tx, invoiceId)).balanceCents };
  });
  if (current.balanceCents === 0) return { number: current.number, changed: false, amountCents: 0 };
  try {
    const { payment } = await recordFullPayment(db, actor, invoiceId, {
      method: options.method ?? "other",
      receivedAt: options.now ?? new Date(),
      reference: options.reference ?? null,
    });
    return { number: current.number, changed: true, amountCents: payment.amountCents };
  } catch (error) {
    // Paid in full meanwhile (another admin, the card webhook): nothing to do.
    if ((error as { status?: number }).status === 409) return { number: current.number, changed: false, amountCents: 0 };
    throw error;
  }
}
