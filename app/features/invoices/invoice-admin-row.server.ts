/**
 * An invoice as the admin console shows it (docs/product.md#admin-invoices): the columns one row
 * selects (joined to its proposal and client), shared by the list, its CSV export and the invoice
 * page, and the row type they return.
 */
import { invoice, proposal } from "#app/db/schema";
import { invoiceMoneyColumns } from "#app/features/payments/balance.server";
import { clientEmailSql as clientEmailOf, clientNameSql as clientNameOf } from "#app/features/users/client-name.server";
import type { InvoiceDisplayStatus } from "./invoice-status";

/** The client's name and e-mail as an invoice shows them: the account's, else the proposal's (user joined on the client). */
export const clientNameSql = clientNameOf(proposal.clientName);
export const clientEmailSql = clientEmailOf(proposal.clientEmail);

/** What an invoice row shows, in the admin list, its CSV export and on one invoice (joins: proposal, client user). */
export const adminInvoiceColumns = {
  id: invoice.id,
  number: invoice.number,
  proposalId: invoice.proposalId,
  projectName: proposal.projectName,
  clientName: clientNameSql,
  clientEmail: clientEmailSql,
  dueDate: invoice.dueDate,
  status: invoice.status,
  totalCents: invoice.totalCents,
  paidAt: invoice.paidAt,
  ...invoiceMoneyColumns,
  version: invoice.version,
  createdAt: invoice.createdAt,
};

/** One row of the admin invoice list. Money in cents; dates `YYYY-MM-DD`; instants ISO. */
export interface AdminInvoiceRow {
  id: number;
  number: string;
  /** The proposal it bills, or null for an invoice of its own (#37). */
  proposalId: number | null;
  projectName: string | null;
  clientName: string | null;
  clientEmail: string | null;
  dueDate: string;
  status: "unpaid" | "paid";
  displayStatus: InvoiceDisplayStatus;
  totalCents: number;
  /** Sum of the payments, cents. */
  paidCents: number;
  /** Sum of the refunds (positive), cents. */
  refundedCents: number;
  /** max(0, total − paid), cents. */
  balanceCents: number;
  depositCents: number | null;
  disputedAt: string | null;
  createdAt: string | null;
  paidAt: string | null;
}
