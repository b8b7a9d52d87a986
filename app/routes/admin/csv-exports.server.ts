/**
 * The admin lists' CSV exports (docs/product.md#admin-lists): for each list, the columns of its file and
 * the use-case that streams its rows under the list's current filters and search. Each export route
 * module is `export const loader = csvExportLoader(<one of these>)`.
 */
import type { RouterContextProvider } from "react-router";
import type { Database } from "#app/db/client.server";
import { exportInvoicesForAdmin, type AdminInvoiceRow } from "#app/features/invoices/invoices.admin.server";
import { invoiceListFiltersFrom } from "#app/features/invoices/invoices.schema";
import { exportProposalsForAdmin, type AdminProposalRow } from "#app/features/proposals/proposals.admin.server";
import { proposalListFiltersFrom } from "#app/features/proposals/proposals.admin.schema";
import {
  exportCommissionsForAdmin,
  exportPayoutsForAdmin,
  type AdminAmbassadorRow,
  type PayoutRow,
} from "#app/features/referrals/commissions.admin.server";
import type { LedgerRow } from "#app/features/referrals/ledger-queries.server";
import { PAYOUT_METHOD_LABELS } from "#app/features/referrals/payouts.messages";
import type { Actor } from "#app/features/users/actor";
import { listQuery } from "#app/features/users/session.server";
import { INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import { exportUsersForAdmin, userListFiltersFrom, type AdminUserRow } from "#app/features/users/users.server";
import { csvResponse, type CsvColumn } from "#app/lib/csv.server";
import { searchFiltersFrom } from "#app/lib/pagination";

/** One list's export: file name prefix, filters parser, row source and columns. */
export interface CsvExport<F, T> {
  /** Start of the download name; the UTC date and `.csv` follow. */
  name: string;
  filtersFrom: (params: URLSearchParams) => F;
  rows: (db: Database, actor: Actor, filters: F) => Promise<AsyncIterable<T>>;
  columns: CsvColumn<T>[];
}

const yesNo = (value: boolean) => (value ? "yes" : "no");

/** `/admin/invoices/export.csv`: the invoice list with its current filter and search. */
export const INVOICES_EXPORT: CsvExport<ReturnType<typeof invoiceListFiltersFrom>, AdminInvoiceRow> = {
  name: "invoices",
  filtersFrom: invoiceListFiltersFrom,
  rows: exportInvoicesForAdmin,
  columns: [
    { header: "Number", value: (i) => i.number },
    { header: "Proposal ID", value: (i) => i.proposalId },
    { header: "Project", value: (i) => i.projectName },
    { header: "Client", value: (i) => i.clientName },
    { header: "Client e-mail", value: (i) => i.clientEmail },
    { header: "Due date", value: (i) => i.dueDate },
    { header: "Status", value: (i) => INVOICE_STATUS_LABELS[i.displayStatus] },
    { header: "Total (cents)", value: (i) => i.totalCents },
    { header: "Paid (cents)", value: (i) => i.paidCents },
    { header: "Refunded (cents)", value: (i) => i.refundedCents },
    { header: "Balance (cents)", value: (i) => i.balanceCents },
    { header: "Created at (UTC)", value: (i) => i.createdAt },
    { header: "Paid at (UTC)", value: (i) => i.paidAt },
  ],
};

/** `/admin/proposals/export.csv`: the proposal list with its current filters. */
export const PROPOSALS_EXPORT: CsvExport<ReturnType<typeof proposalListFiltersFrom>, AdminProposalRow> = {
  name: "proposals",
  filtersFrom: proposalListFiltersFrom,
  rows: exportProposalsForAdmin,
  columns: [
    { header: "ID", value: (p) => p.id },
    { header: "Project", value: (p) => p.projectName },
    { header: "Client", value: (p) => p.clientName },
    { header: "Client e-mail", value: (p) => p.clientEmail },
    { header: "Client has account", value: (p) => yesNo(p.clientHasAccount) },
    { header: "Source", value: (p) => p.source },
    { header: "Ambassador", value: (p) => p.ambassadorName },
    { header: "Budget (cents)", value: (p) => p.budgetCents },
    { header: "Status", value: (p) => p.status },
    { header: "Client approved at (UTC)", value: (p) => p.clientApprovedAt },
    { header: "Invoice", value: (p) => p.invoiceNumber },
    { header: "Created at (UTC)", value: (p) => p.createdAt },
  ],
};

/** `/admin/users/export.csv`: the user list with its current search and role filter. */
export const USERS_EXPORT: CsvExport<ReturnType<typeof userListFiltersFrom>, AdminUserRow> = {
  name: "users",
  filtersFrom: userListFiltersFrom,
  rows: exportUsersForAdmin,
  columns: [
    { header: "ID", value: (u) => u.id },
    { header: "Name", value: (u) => u.name },
    { header: "Business", value: (u) => u.businessName },
    { header: "E-mail", value: (u) => u.email },
    { header: "Role", value: (u) => u.role },
    { header: "Active", value: (u) => yesNo(u.active) },
    { header: "Created at (UTC)", value: (u) => u.createdAt },
    { header: "Last login (UTC)", value: (u) => u.lastLoginAt },
  ],
};

/** `/admin/ambassadors/export.csv`: the ambassador commission list with its current search. */
export const COMMISSIONS_EXPORT: CsvExport<ReturnType<typeof searchFiltersFrom>, AdminAmbassadorRow> = {
  name: "commissions",
  filtersFrom: searchFiltersFrom,
  rows: exportCommissionsForAdmin,
  columns: [
    { header: "Ambassador ID", value: (a) => a.id },
    { header: "Name", value: (a) => a.name },
    { header: "E-mail", value: (a) => a.email },
    { header: "Referral code", value: (a) => a.referralCode },
    { header: "Active", value: (a) => yesNo(a.active) },
    { header: "Referred clients", value: (a) => a.referredClients },
    { header: "Proposals", value: (a) => a.proposals },
    { header: "Client-approved proposals", value: (a) => a.approvedProposals },
    { header: "Commission pending (cents)", value: (a) => a.pendingCents },
    { header: "Commission payable (cents)", value: (a) => a.payableCents },
    { header: "Commission paid out (cents)", value: (a) => a.paidOutCents },
    { header: "Joined at (UTC)", value: (a) => a.createdAt },
  ],
};

/** `/admin/ambassadors/payouts.csv`: every payout, newest first. */
export const PAYOUTS_EXPORT: CsvExport<Record<string, never>, PayoutRow> = {
  name: "payouts",
  filtersFrom: () => ({}),
  rows: (db, actor) => exportPayoutsForAdmin(db, actor),
  columns: [
    { header: "Payout ID", value: (p) => p.id },
    { header: "Ambassador ID", value: (p) => p.ambassadorId },
    { header: "Ambassador", value: (p) => p.ambassadorName },
    { header: "Ambassador e-mail", value: (p) => p.ambassadorEmail },
    { header: "Paid at (UTC)", value: (p) => p.paidAt },
    { header: "Method", value: (p) => PAYOUT_METHOD_LABELS[p.method] },
    { header: "Reference", value: (p) => p.reference },
    { header: "Entries", value: (p) => p.entries },
    { header: "Total (cents)", value: (p) => p.totalCents },
    { header: "Currency", value: (p) => p.currency },
    { header: "Created by", value: (p) => p.createdByEmail },
  ],
};

/** The columns of `/admin/ambassadors/payouts/:payoutId/export.csv`: one payout's entries. */
export const PAYOUT_ENTRY_COLUMNS: CsvColumn<LedgerRow & { payout: PayoutRow }>[] = [
  { header: "Payout ID", value: (e) => e.payout.id },
  { header: "Ambassador", value: (e) => e.payout.ambassadorName },
  { header: "Payout reference", value: (e) => e.payout.reference },
  { header: "Entry ID", value: (e) => e.id },
  { header: "Date (UTC)", value: (e) => e.createdAt },
  { header: "Client", value: (e) => e.clientName },
  { header: "Project", value: (e) => e.projectName },
  { header: "Invoice", value: (e) => e.invoiceNumber },
  { header: "Payment ID", value: (e) => e.paymentId },
  { header: "Kind", value: (e) => e.kind },
  { header: "Payment (cents)", value: (e) => e.baseCents },
  { header: "Rate (%)", value: (e) => e.rateBps / 100 },
  { header: "Commission (cents)", value: (e) => e.amountCents },
  { header: "Currency", value: (e) => e.currency },
];

/**
 * The loader of an export route: reads the list's filters from the query string, streams the rows the
 * signed-in admin may see (the use-case checks the role) as `<name>-<UTC date>.csv`.
 */
export function csvExportLoader<F, T>(spec: CsvExport<F, T>) {
  return async (args: { request: Request; context: Readonly<RouterContextProvider> }): Promise<Response> => {
    const { db, actor, filters } = listQuery(args, spec.filtersFrom);
    const rows = await spec.rows(db, actor, filters);
    return csvResponse(`${spec.name}-${new Date().toISOString().slice(0, 10)}.csv`, spec.columns, rows);
  };
}
