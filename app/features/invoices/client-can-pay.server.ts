/**
 * #37 (docs/product.md#payment-schedule, ADR 026): the client always sees how to pay. Without card
 * payments (Stripe) and without payment instructions or a payment link in Settings, no invoice is
 * sent and no money is asked: the admin's actions are refused with {@link INVOICE_MESSAGES.instructionsFirst},
 * and invoices made automatically (schedule lines, billing plans) are held back until one exists.
 */
import type { Queryable } from "#app/db/client.server";
import { getSettings } from "#app/features/settings/settings.server";
import { AppError } from "#app/lib/errors";
import { INVOICE_MESSAGES } from "./invoices.messages";

/**
 * @param cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`).
 * @returns whether the client of an invoice would be told how to pay: card payments, or the Settings'
 *   payment instructions or payment link.
 */
export async function clientCanPay(q: Queryable, cardPayments: boolean): Promise<boolean> {
  if (cardPayments) return true;
  const settings = await getSettings(q);
  return Boolean(settings.paymentInstructions.trim() || settings.paymentLinkTemplate.trim());
}

/**
 * Refuses an action that sends an invoice or asks money while the client could not pay it.
 *
 * @throws {AppError} 409 {@link INVOICE_MESSAGES.instructionsFirst} (it names the Settings section and its link).
 */
export async function assertClientCanPay(q: Queryable, cardPayments: boolean): Promise<void> {
  if (!(await clientCanPay(q, cardPayments))) throw new AppError("CONFLICT", INVOICE_MESSAGES.instructionsFirst);
}
