/**
 * Recording a card payment Stripe reports, shared by the webhook (Checkout) and the automatic
 * payment of a saved card (docs/product.md#card-payments, #automatic-payment): once per payment
 * intent and per event, up to the balance; what cannot be applied is kept aside (issue #36).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { auditEvent, payments, unappliedPayment } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import type { Actor } from "#app/features/users/actor";
import { currencyOf } from "#app/lib/money";
import { getInvoiceMoney } from "./balance.server";
import { writePayment } from "./record-payment.server";
import { holdUnapplied, type UnappliedReason } from "./unapplied.server";

/** Whether an event id has already recorded something (a payment or refund row, or a dispute audit entry). */
export async function eventSeen(tx: Queryable, eventId: string): Promise<boolean> {
  const [row] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.processorEventId, eventId)).limit(1);
  if (row) return true;
  const [audit] = await tx
    .select({ id: auditEvent.id })
    .from(auditEvent)
    .where(and(eq(auditEvent.action, "disputed"), sql`${auditEvent.after}->>'eventId' = ${eventId}`))
    .limit(1);
  return Boolean(audit);
}

/**
 * Records a card payment Stripe reports (Checkout, or a saved card's automatic charge), once per
 * payment intent, inside the caller's transaction that holds the invoice's row lock: up to the
 * balance; another currency, nothing due or the part above the balance is kept aside for the admin.
 *
 * @param input.amount - cents received.
 * @returns `recorded`, `held`, `duplicate` (this intent or event was recorded already) or `ignored` (no amount).
 */
export async function applyCardPayment(
  tx: Queryable,
  input: { invoiceId: number; intent: string; amount: number; currency: string; eventId: string; receivedAt: Date; payer: Actor | null },
): Promise<"recorded" | "held" | "duplicate" | "ignored"> {
  const { invoiceId, intent, amount, currency, receivedAt } = input;
  const event = { id: input.eventId };
  const [existing] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.processorPaymentIntent, intent));
  const [held] = await tx
    .select({ id: unappliedPayment.id })
    .from(unappliedPayment)
    .where(eq(unappliedPayment.processorPaymentIntent, intent));
  if (existing || held || (await eventSeen(tx, event.id))) return "duplicate";
  const money = await getInvoiceMoney(tx, invoiceId);
  if (amount <= 0) return "ignored";
  const hold = (reason: UnappliedReason, cents: number) =>
    holdUnapplied(tx, {
      invoiceId,
      number: money.number,
      reason,
      amountCents: cents,
      currency,
      intent,
      eventId: event.id,
      receivedAt,
    });
  // Paid as it was paid, never dropped (issue #36): another currency than the invoice's, or
  // nothing due, is kept aside for the admin — the balance stays as it was.
  if (currency !== currencyOf(await getSettings(tx))) {
    await hold("other-currency", amount);
    return "held";
  }
  if (money.balanceCents === 0) {
    await hold("nothing-due", amount);
    return "held";
  }
  // Never beyond the balance (an admin may have recorded a payment meanwhile): the rest is kept aside.
  const recorded = Math.min(amount, money.balanceCents);
  await writePayment(tx, {
    invoiceId,
    amountCents: recorded,
    currency,
    method: "card",
    receivedAt,
    reference: `Stripe ${intent}`,
    recordedBy: null,
    paidBy: input.payer,
    refundOf: null,
    processorPaymentIntent: intent,
    processorEventId: event.id,
  });
  if (recorded < amount) await hold("above-balance", amount - recorded);
  return "recorded";
}
