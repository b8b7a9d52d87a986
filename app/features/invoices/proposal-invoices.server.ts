/**
 * A proposal's invoices (#37, docs/product.md#invoices): a proposal may have several — its deposit,
 * its milestones, its final payment, an extra invoice the admin generates — and an invoice may
 * have no proposal at all. One definition of "the invoices of a proposal" and of "the invoice a
 * one-link list shows for it", so that no reader joins `invoice` on `proposal_id` and duplicates
 * the proposal's row.
 */
import { asc, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice } from "#app/db/schema";

/** One invoice of a proposal, as the proposal's pages list it. Money in cents; `dueDate` `YYYY-MM-DD`. */
export interface ProposalInvoice {
  id: number;
  number: string;
  status: "unpaid" | "paid";
  totalCents: number;
  dueDate: string;
}

/**
 * Every invoice of one proposal, oldest first (the caller has checked the actor's right to the proposal).
 *
 * @returns the invoices, `[]` when none was generated.
 */
export async function listInvoicesOfProposal(q: Queryable, proposalId: number): Promise<ProposalInvoice[]> {
  return q
    .select({ id: invoice.id, number: invoice.number, status: invoice.status, totalCents: invoice.totalCents, dueDate: invoice.dueDate })
    .from(invoice)
    .where(eq(invoice.proposalId, proposalId))
    .orderBy(asc(invoice.createdAt), asc(invoice.id));
}

/**
 * The one invoice a list row links to for a proposal: the oldest unpaid one (what is due first),
 * else the newest paid one; null without invoices. A correlated subquery, so the proposal's row is
 * never repeated (served by `invoice_proposal_total_idx`).
 *
 * @param proposalId - the proposal id column of the outer query.
 */
function shownInvoiceSql<T>(proposalId: SQLWrapper, column: SQL): SQL<T | null> {
  return sql<T | null>`(select ${column} from ${invoice} as shown_invoice where shown_invoice.proposal_id = ${proposalId}
    order by shown_invoice.status = 'paid', case when shown_invoice.status = 'unpaid' then shown_invoice.id end, shown_invoice.id desc limit 1)`;
}

/** Id of the invoice a list shows for the proposal (see {@link shownInvoiceSql}), or null. */
export function shownInvoiceIdSql(proposalId: SQLWrapper): SQL<number | null> {
  return shownInvoiceSql<number>(proposalId, sql.raw("shown_invoice.id"));
}

/** Number of the invoice a list shows for the proposal (see {@link shownInvoiceSql}), or null. */
export function shownInvoiceNumberSql(proposalId: SQLWrapper): SQL<string | null> {
  return shownInvoiceSql<string>(proposalId, sql.raw("shown_invoice.number"));
}

/** How many invoices the proposal has (0 when none). */
export function invoiceCountSql(proposalId: SQLWrapper): SQL<number> {
  return sql<number>`(select count(*) from ${invoice} as counted_invoice where counted_invoice.proposal_id = ${proposalId})`.mapWith(
    Number,
  );
}

/** Whether the proposal has at least one invoice. */
export function hasInvoiceSql(proposalId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${invoice} as any_invoice where any_invoice.proposal_id = ${proposalId})`;
}
