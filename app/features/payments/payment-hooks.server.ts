/**
 * Hook run after each payment or refund row is written (docs/product.md#payments, issue #25).
 *
 * Every write of a payment or refund (admin "Record payment" / "Record refund", the Stripe webhook)
 * calls {@link onPaymentRecorded} inside the same transaction, after the row is inserted and the
 * invoice is locked (`FOR UPDATE`), so anything it writes (the commission ledger of #25b) commits
 * or rolls back with the payment itself.
 */
import type { Queryable } from "#app/db/client.server";
import type { payments } from "#app/db/schema";
import { recordCommissionForPayment } from "#app/features/referrals/ledger.server";

/** A payment or refund row as stored (refunds have a negative `amountCents` and `refundOf` set). */
export type PaymentRow = typeof payments.$inferSelect;

/**
 * Called once per payment/refund row, inside the transaction that inserted it: writes its
 * commission ledger entry when the invoice's proposal earns one (docs/product.md#commissions-ledger).
 *
 * @param tx - the transaction that wrote the payment (write here, never on the outer database).
 * @param payment - the row just inserted.
 */
export async function onPaymentRecorded(tx: Queryable, payment: PaymentRow): Promise<void> {
  await recordCommissionForPayment(tx, payment);
}
