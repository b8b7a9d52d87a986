import type { Route } from "./+types/invoices-export";
import { servicesContext } from "#app/context";
import { exportInvoicesForAdmin, type AdminInvoiceRow } from "#app/features/invoices/invoices.admin.server";
import { invoiceListFiltersFrom } from "#app/features/invoices/invoices.schema";
import { csvResponse, type CsvColumn } from "#app/lib/csv.server";
import { requireUser } from "#app/features/users/session.server";

const COLUMNS: CsvColumn<AdminInvoiceRow>[] = [
  { header: "Number", value: (i) => i.number },
  { header: "Proposal ID", value: (i) => i.proposalId },
  { header: "Project", value: (i) => i.projectName },
  { header: "Client", value: (i) => i.clientName },
  { header: "Client e-mail", value: (i) => i.clientEmail },
  { header: "Due date", value: (i) => i.dueDate },
  { header: "Status", value: (i) => i.displayStatus },
  { header: "Total (cents)", value: (i) => i.totalCents },
  { header: "Created at (UTC)", value: (i) => i.createdAt },
  { header: "Paid at (UTC)", value: (i) => i.paidAt },
];

/** `/admin/invoices/export.csv`: the invoice list with its current filter and search, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const rows = await exportInvoicesForAdmin(db, requireUser(context), invoiceListFiltersFrom(new URL(request.url).searchParams));
  return csvResponse(`invoices-${new Date().toISOString().slice(0, 10)}.csv`, COLUMNS, rows);
}
