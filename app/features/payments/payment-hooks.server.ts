/**
 * Hooks run after a payment or refund is written, inside its transaction (issue #25).
 * #25a calls {@link onPaymentRecorded}; #25b fills it in with the commission ledger.
 */
import type { Transaction } from "#app/db/client.server";
import type { payments } from "#app/db/schema";
import { recordCommissionForPayment } from "#app/features/referrals/ledger.server";

/** A payment row as written. */
export type PaymentRow = typeof payments.$inferSelect;

/**
 * Called after a payment or refund row is inserted, in the same transaction: writes its
 * commission ledger entry when the invoice's proposal earns one (docs/product.md#commissions-ledger).
 */
export async function onPaymentRecorded(tx: Transaction, payment: PaymentRow): Promise<void> {
  await recordCommissionForPayment(tx, payment);
}
