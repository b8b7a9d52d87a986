/**
 * The client's read of an invoice (issue #4; spec §2 /view-invoice/{id}, §3 invoices, §8
 * "Invoice not found"). Invoices are created and changed by the admin console
 * (`invoices.admin.server.ts`).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { invoice, invoiceItem, proposal } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { invoiceDisplayStatus, type InvoiceDisplayStatus } from "./invoice-status";
import { INVOICE_MESSAGES } from "./invoices.schema";

/** An invoice as its client sees it. Money in cents; `dueDate` a calendar date `YYYY-MM-DD`. */
export interface ClientInvoice {
  id: number;
  number: string;
  proposalId: number;
  projectName: string | null;
  dueDate: string;
  status: "unpaid" | "paid";
  /** paid, pending, or overdue (unpaid and due before today, UTC). */
  displayStatus: InvoiceDisplayStatus;
  totalCents: number;
  paidAt: Date | null;
  createdAt: Date;
  items: { description: string; amountCents: number }[];
}

/**
 * Reads one of the client's invoices with its items in order. The invoice is the client's
 * when its `clientId` is theirs (or, for an invoice without clientId, its proposal's).
 *
 * @param invoiceId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @param now - the current instant, for the derived overdue status.
 * @throws {AppError} 403 unless a client; 404 "Invoice not found" for an unknown id or
 *   another client's invoice (never revealing which).
 */
export async function getInvoiceForClient(db: Database, actor: Actor, invoiceId: number, now: Date = new Date()): Promise<ClientInvoice> {
  assertRole(actor, "client");
  const id = invoiceId;
  const [row] = await db
    .select({
      id: invoice.id,
      number: invoice.number,
      proposalId: invoice.proposalId,
      projectName: proposal.projectName,
      dueDate: invoice.dueDate,
      status: invoice.status,
      totalCents: invoice.totalCents,
      paidAt: invoice.paidAt,
      createdAt: invoice.createdAt,
    })
    .from(invoice)
    .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
    .where(and(eq(invoice.id, id), sql`coalesce(${invoice.clientId}, ${proposal.clientId}) = ${actor.id}`));
  if (!row) throw notFound(INVOICE_MESSAGES.notFound);
  const items = await db
    .select({ description: invoiceItem.description, amountCents: invoiceItem.amountCents })
    .from(invoiceItem)
    .where(eq(invoiceItem.invoiceId, row.id))
    .orderBy(asc(invoiceItem.position), asc(invoiceItem.id));
  return { ...row, displayStatus: invoiceDisplayStatus(row, now), items };
}
