/**
 * Payments in tests of the commission ledger: a payment or refund row inserted as #25a's
 * use-cases write it, and `onPaymentRecorded` called in the same transaction (the hook contract
 * of the team plan), so the ledger is tested without the payment pages.
 */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { invoice, payments } from "#app/db/schema";
import { onPaymentRecorded } from "#app/features/payments/payment-hooks.server";
import { now } from "#app/lib/clock.server";

let n = 0;

/** Inserts an invoice for a proposal. @returns its id. */
export async function insertInvoice(db: Database, proposalId: number, totalCents: number, clientId: string | null = null): Promise<number> {
  const [row] = await db
    .insert(invoice)
    .values({ number: `INV-T-${Date.now().toString(36)}-${++n}`, proposalId, clientId, dueDate: "2026-12-31", totalCents })
    .returning({ id: invoice.id });
  return row!.id;
}

/**
 * Records a payment (positive cents) or a refund (negative cents, `refundOf` the payment) and
 * runs the payment hook in its transaction.
 *
 * @returns the payment's id.
 */
export async function recordTestPayment(
  db: Database,
  values: {
    invoiceId: number;
    amountCents: number;
    refundOf?: number;
    receivedAt?: Date;
    method?: "card" | "bank_transfer" | "cash" | "other";
  },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [inv] = await tx.select({ id: invoice.id }).from(invoice).where(eq(invoice.id, values.invoiceId));
    if (!inv) throw new Error(`no invoice ${values.invoiceId}`);
    const [row] = await tx
      .insert(payments)
      .values({
        invoiceId: values.invoiceId,
        amountCents: values.amountCents,
        currency: "USD",
        method: values.method ?? "bank_transfer",
        receivedAt: values.receivedAt ?? now(), // the server's clock (tests move it)
        refundOf: values.refundOf ?? null,
      })
      .returning();
    await onPaymentRecorded(tx, row!);
    return row!.id;
  });
}
