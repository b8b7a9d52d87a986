/**
 * #37 (ADR 026, "no money asked without Stripe or payment instructions"): what asks clients for money
 * right now — the unpaid invoices, and the sent offers that issue a deposit invoice when signed. While
 * any exists and card payments are not set up, the Settings' payment instructions and payment link
 * cannot both be cleared (settings.server.ts `saveSettings`): the clients would have no way to pay.
 */
import { and, asc, count, eq, isNull, notInArray, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, proposal, proposalVersion } from "#app/db/schema";
import { COMPLETED_STATUSES } from "#app/features/proposals/proposal-rules";

/** How many of each kind the refusal names (the rest is counted). */
export const MONEY_ASKED_NAMED = 3;

/** What asks money: counts, and the first few by name (oldest first). */
export interface MoneyAsked {
  unpaidInvoices: number;
  /** Invoice numbers, e.g. "INV-2026-0001" (at most {@link MONEY_ASKED_NAMED}). */
  invoiceNumbers: string[];
  /** Sent offers, not accepted, declined or closed, whose current version asks a deposit. */
  depositOffers: number;
  /** Their project names (the proposal's, else the offer's, else "Proposal #12"), at most {@link MONEY_ASKED_NAMED}. */
  offerNames: string[];
}

/**
 * @returns the unpaid invoices and the sent offers asking a deposit (the current version's
 *   `deposit.value` above 0) that no client has accepted or declined, of proposals not closed.
 */
export async function moneyAskedOfClients(q: Queryable): Promise<MoneyAsked> {
  const unpaid = eq(invoice.status, "unpaid");
  const latest = sql`${proposalVersion.number} = (select max(v.number) from proposal_version v where v.proposal_id = ${proposal.id})`;
  const offerWhere = and(
    isNull(proposal.clientApprovedAt),
    isNull(proposal.clientDeclinedAt),
    notInArray(proposal.status, [...COMPLETED_STATUSES]),
    sql`coalesce((${proposalVersion.terms} -> 'deposit' ->> 'value')::numeric, 0) > 0`,
  );
  const [[invoices], invoiceRows, [offers], offerRows] = await Promise.all([
    q.select({ n: count() }).from(invoice).where(unpaid),
    q.select({ number: invoice.number }).from(invoice).where(unpaid).orderBy(asc(invoice.id)).limit(MONEY_ASKED_NAMED),
    q
      .select({ n: count() })
      .from(proposal)
      .innerJoin(proposalVersion, and(eq(proposalVersion.proposalId, proposal.id), latest))
      .where(offerWhere),
    q
      .select({
        id: proposal.id,
        name: sql<string | null>`coalesce(nullif(${proposal.projectName}, ''), ${proposalVersion.terms} ->> 'projectName')`,
      })
      .from(proposal)
      .innerJoin(proposalVersion, and(eq(proposalVersion.proposalId, proposal.id), latest))
      .where(offerWhere)
      .orderBy(asc(proposal.id))
      .limit(MONEY_ASKED_NAMED),
  ]);
  return {
    unpaidInvoices: invoices?.n ?? 0,
    invoiceNumbers: invoiceRows.map((r) => r.number),
    depositOffers: offers?.n ?? 0,
    offerNames: offerRows.map((r) => r.name || `Proposal #${r.id}`),
  };
}

/** "A, B and 2 more" — the names given, and how many more there are. */
function named(names: readonly string[], total: number): string {
  const more = total - names.length;
  const parts = more > 0 ? [...names, `${more} more`] : [...names];
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
}

/**
 * The refusal shown next to the payment instructions (#37): what depends on them, and what to do.
 *
 * @returns null when nothing asks money (the instructions may be cleared).
 */
export function moneyAskedRefusal(asked: MoneyAsked): string | null {
  const parts: string[] = [];
  if (asked.unpaidInvoices > 0)
    parts.push(
      `${asked.unpaidInvoices === 1 ? "invoice" : `${asked.unpaidInvoices} invoices`} ${named(asked.invoiceNumbers, asked.unpaidInvoices)} ${asked.unpaidInvoices === 1 ? "is" : "are"} unpaid`,
    );
  if (asked.depositOffers > 0)
    parts.push(
      `${asked.depositOffers === 1 ? "the offer" : `${asked.depositOffers} offers`} ${named(
        asked.offerNames.map((n) => `“${n}”`),
        asked.depositOffers,
      )} ${asked.depositOffers === 1 ? "asks a deposit" : "ask a deposit"} when signed`,
    );
  if (parts.length === 0) return null;
  return (
    `Keep payment instructions or a payment link: card payments are not set up, and ${parts.join(", and ")}, ` +
    "so clients would have no way to pay. Set up card payments first, or clear them once these are paid or closed."
  );
}
