/**
 * Hook run after each payment or refund row is written (docs/product.md#payments, issue #25).
 *
 * Every write of a payment or refund (admin "Record payment" / "Record refund", the Stripe webhook)
 * calls {@link onPaymentRecorded} inside the same transaction, after the row is inserted and the
 * invoice is locked (`FOR UPDATE`), so anything it writes (the commission ledger of #25b) commits
 * or rolls back with the payment itself.
 */
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, type payments } from "#app/db/schema";
import { startWorkWhenReady } from "#app/features/agreements/start-work.server";
import { recordCommissionForPayment } from "#app/features/referrals/ledger.server";
import type { Actor } from "#app/features/users/actor";

/** A payment or refund row as stored (refunds have a negative `amountCents` and `refundOf` set). */
export type PaymentRow = typeof payments.$inferSelect;

/**
 * Called once per payment/refund row, inside the transaction that inserted it: writes its
 * commission ledger entry when the invoice's proposal earns one (docs/product.md#commissions-ledger).
 *
 * @param tx - the transaction that wrote the payment (write here, never on the outer database).
 * Then, when the payment reaches the deposit of an accepted proposal's invoice, the proposal moves
 * to "In progress" (#37, start-work.server.ts).
 *
 * @param payment - the row just inserted.
 * @param actor - who recorded it (an admin) or paid it (the client, by card), when known.
 */
export async function onPaymentRecorded(tx: Queryable, payment: PaymentRow, actor: Actor | null = null): Promise<void> {
  await recordCommissionForPayment(tx, payment);
  if (payment.amountCents <= 0) return;
  const [row] = await tx.select({ proposalId: invoice.proposalId }).from(invoice).where(eq(invoice.id, payment.invoiceId));
  if (row?.proposalId) await startWorkWhenReady(tx, actor, row.proposalId);
}
