/**
 * Deposits (docs/product.md#deposits): an invoice may ask for a deposit, due first — an amount,
 * or a percentage of the total (rounded half up to the cent). New invoices take Settings'
 * `defaultDepositPercent`; the admin changes it per invoice. Until the payments reach it, the
 * client's pay button pays what is left of the deposit; after it, the balance.
 */
import { eq } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError, notFound } from "#app/lib/errors";
import { formatCents, currencyOf } from "#app/lib/money";
import { depositFromPercent } from "./invoice-money";
import { lockInvoice } from "./record-payment.server";

/**
 * @param offerDeposit - the deposit of the proposal's accepted offer version (#26,
 *   `getOfferForInvoice`), which wins over Settings: an amount in cents (capped at the total) or a
 *   whole percentage of the total.
 * @returns the deposit of a new invoice of `totalCents` (cents): the offer's, else Settings' default
 *   percent of it, or null when none.
 */
export async function defaultDepositCents(
  q: Queryable,
  totalCents: number,
  offerDeposit: { kind: "amount" | "percent"; value: number } | null = null,
): Promise<number | null> {
  if (offerDeposit && totalCents > 0) {
    const cents =
      offerDeposit.kind === "amount" ? Math.min(offerDeposit.value, totalCents) : depositFromPercent(totalCents, offerDeposit.value);
    if (cents > 0) return cents;
  }
  const { defaultDepositPercent } = await getSettings(q);
  if (!defaultDepositPercent || totalCents <= 0) return null;
  return depositFromPercent(totalCents, defaultDepositPercent) || null;
}

/** A deposit as the admin sets it: none, an amount in cents, or a percent (0–100, up to 2 decimals). */
export type DepositInput = { kind: "none" } | { kind: "amount"; cents: number } | { kind: "percent"; percent: number };

/**
 * Sets an invoice's deposit (audited `deposit-set`).
 *
 * @returns the deposit in cents (null: none).
 * @throws {AppError} 403 unless an admin; 404 unknown invoice; 400 (`deposit`) when above the total or not positive.
 */
export async function setInvoiceDeposit(db: Database, actor: Actor, invoiceId: number, input: DepositInput): Promise<number | null> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const locked = await lockInvoice(tx, invoiceId);
    const [current] = await tx.select({ depositCents: invoice.depositCents }).from(invoice).where(eq(invoice.id, invoiceId));
    if (!current) throw notFound("Invoice not found.");
    let cents: number | null = null;
    if (input.kind === "amount") cents = input.cents;
    if (input.kind === "percent") {
      if (!(input.percent > 0 && input.percent <= 100)) throw fieldError("deposit", "Enter a percentage above 0 and at most 100.");
      cents = depositFromPercent(locked.totalCents, input.percent);
    }
    if (cents !== null && (!Number.isSafeInteger(cents) || cents <= 0)) throw fieldError("deposit", "The deposit must be more than 0.");
    if (cents !== null && cents > locked.totalCents)
      throw fieldError(
        "deposit",
        `The deposit cannot be more than the total (${formatCents(locked.totalCents, currencyOf(await getSettings(tx)))}).`,
      );
    if (cents === current.depositCents) return cents;
    await tx.update(invoice).set({ depositCents: cents }).where(eq(invoice.id, invoiceId));
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "deposit-set",
      proposalId: locked.proposalId,
      before: { depositCents: current.depositCents },
      after: { depositCents: cents },
    });
    return cents;
  });
}
