/**
 * Accept, sign, pay (issue #37, docs/product.md#accept-and-sign): accepting an offer that asks a
 * deposit issues the invoice at once — numbered, the offer's line items, the deposit due now, in the
 * agency's currency — so the client pays in the same sitting (the status that follows: start-work.server.ts).
 */
import { getSettings } from "#app/features/settings/settings.server";
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice } from "#app/db/schema";
import { issueInvoice } from "#app/features/invoices/generate-invoice.server";
import { todayIn } from "#app/lib/dates";
import type { Actor } from "#app/features/users/actor";
import { addDays, formatCalendarDate } from "#app/lib/dates";
import { formatCents } from "#app/lib/money";
import { depositCents, type VersionTerms } from "./terms";

/** Days the rest of an accepted offer's invoice is given after signing (the generate page's default term). */
export const DEPOSIT_INVOICE_TERM_DAYS = 30;

/** The offer's lines as invoice items: one per line, quantity × unit price, the quantity in the description. */
export function offerInvoiceItems(terms: Pick<VersionTerms, "items">, currency: string): { description: string; amountCents: number }[] {
  return terms.items.map((item) => ({
    description: (item.quantity === 1
      ? item.description
      : `${item.description} (${item.quantity} × ${formatCents(item.unitPriceCents, currency)})`
    ).slice(0, 200),
    amountCents: item.quantity * item.unitPriceCents,
  }));
}

/**
 * What the signing page says will happen after signing, and the deposit invoice's mail says first:
 * "Pay $1,500.00 now (deposit). The remaining $4,880.00 is due by June 9, 2026." — never a sentence
 * that reads like a larger total.
 *
 * @returns null when the offer asks no deposit.
 */
export function depositSentence(terms: Pick<VersionTerms, "deposit" | "totalCents" | "currency">, dueDate: string): string | null {
  const deposit = depositCents(terms.deposit, terms.totalCents);
  if (!deposit) return null;
  const now = `Pay ${formatCents(deposit, terms.currency)} now (deposit).`;
  const rest = terms.totalCents - deposit;
  return rest > 0 ? `${now} The remaining ${formatCents(rest, terms.currency)} is due by ${formatCalendarDate(dueDate)}.` : now;
}

/**
 * @param timeZone - the agency's (Settings): the term counts from its calendar date.
 * @returns the due date of an offer signed at `now`: {@link DEPOSIT_INVOICE_TERM_DAYS} days later (`YYYY-MM-DD`).
 */
export function depositInvoiceDueDate(now: Date, timeZone = "UTC"): string {
  return addDays(todayIn(now, timeZone), DEPOSIT_INVOICE_TERM_DAYS);
}

/**
 * Issues the invoice of an offer just accepted, when it asks a deposit and the proposal has no
 * invoice yet (a re-acceptance after a new version does not bill twice). In the acceptance's
 * transaction, the proposal locked by it.
 *
 * @param terms - the accepted version's terms (items, total, deposit, currency).
 * @returns the invoice's id, or null when no deposit is asked or an invoice exists already.
 */
export async function issueDepositInvoice(
  tx: Queryable,
  actor: Actor,
  target: { proposalId: number; clientId: string; organisationId: number | null },
  terms: VersionTerms,
  now: Date,
): Promise<number | null> {
  const deposit = depositCents(terms.deposit, terms.totalCents);
  if (!deposit || terms.totalCents <= 0) return null;
  const [existing] = await tx.select({ id: invoice.id }).from(invoice).where(eq(invoice.proposalId, target.proposalId)).limit(1);
  if (existing) return null;
  const dueDate = depositInvoiceDueDate(now, (await getSettings(tx)).timeZone);
  const created = await issueInvoice(tx, actor, {
    proposalId: target.proposalId,
    clientId: target.clientId,
    organisationId: target.organisationId,
    items: offerInvoiceItems(terms, terms.currency),
    dueDate,
    depositCents: Math.min(deposit, terms.totalCents),
    now,
    mailLead: `Thank you for accepting the offer. ${depositSentence(terms, dueDate)}`,
  });
  return created.id;
}
