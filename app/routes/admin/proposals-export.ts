import type { Route } from "./+types/proposals-export";
import { servicesContext } from "#app/context";
import { exportProposalsForAdmin, type AdminProposalRow } from "#app/features/proposals/proposals.admin.server";
import { proposalListFiltersFrom } from "#app/features/proposals/proposals.admin.schema";
import { csvResponse, type CsvColumn } from "#app/lib/csv.server";
import { requireUser } from "#app/features/users/session.server";

const COLUMNS: CsvColumn<AdminProposalRow>[] = [
  { header: "ID", value: (p) => p.id },
  { header: "Project", value: (p) => p.projectName },
  { header: "Client", value: (p) => p.clientName },
  { header: "Client e-mail", value: (p) => p.clientEmail },
  { header: "Client has account", value: (p) => (p.clientHasAccount ? "yes" : "no") },
  { header: "Source", value: (p) => p.source },
  { header: "Ambassador", value: (p) => p.ambassadorName },
  { header: "Budget (cents)", value: (p) => p.budgetCents },
  { header: "Status", value: (p) => p.status },
  { header: "Client approved at (UTC)", value: (p) => p.clientApprovedAt },
  { header: "Invoice", value: (p) => p.invoiceNumber },
  { header: "Created at (UTC)", value: (p) => p.createdAt },
];

/** `/admin/proposals/export.csv`: the proposal list with its current filters, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const rows = await exportProposalsForAdmin(db, requireUser(context), proposalListFiltersFrom(new URL(request.url).searchParams));
  return csvResponse(`proposals-${new Date().toISOString().slice(0, 10)}.csv`, COLUMNS, rows);
}
