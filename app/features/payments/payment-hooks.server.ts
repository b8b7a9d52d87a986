/**
 * Hooks run after a payment or refund is written, inside its transaction (issue #25).
 * #25a calls {@link onPaymentRecorded}; #25b fills it in with the commission ledger.
 */
import type { Transaction } from "#app/db/client.server";
import type { payments } from "#app/db/schema";

/** A payment row as written. */
export type PaymentRow = typeof payments.$inferSelect;

/** Called after a payment or refund row is inserted, in the same transaction. */
export async function onPaymentRecorded(_tx: Transaction, _payment: PaymentRow): Promise<void> {}
