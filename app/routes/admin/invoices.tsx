import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/invoices";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, ConfirmPanel, useConfirmTarget } from "#app/components/ui/confirm";
import { DataTable, ExportCsvLink, FilterSelect, Pager, SearchBar, useActionHref, type Column } from "#app/components/ui/data-table";
import { ActionNotice, Notice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import type { InvoiceDisplayStatus } from "#app/features/invoices/invoice-status";
import { deleteInvoice, listInvoicesForAdmin, markInvoicePaid, type AdminInvoiceRow } from "#app/features/invoices/invoices.admin.server";
import { INVOICE_FILTERS, invoiceListFiltersFrom, type InvoiceFilter } from "#app/features/invoices/invoices.schema";
import { formatCalendarDate } from "#app/lib/dates";
import { formId, runIntent } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";
import { pageRequestFrom } from "#app/lib/pagination";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Invoices | Admin Console" }, { name: "robots", content: "noindex" }];

/** Invoices with the spec §9 filters (`?filter=all|paid|pending|overdue`) and search, server-side. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const { filter, q } = invoiceListFiltersFrom(params);
  const page = await listInvoicesForAdmin(db, actor, { filter, q }, pageRequestFrom(params));
  const created = params.get("created");
  return { page, filter, q: q ?? "", created: created && /^INV-\d{4}-\d+$/.test(created) ? created : null };
}

/** `mark-paid` (spec §4: unpaid → paid) and `delete-invoice` (unlinks the proposal). */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  return runIntent(
    args,
    {
      "mark-paid": async (form) => {
        const { number } = await markInvoicePaid(db, actor, formId(form, "invoiceId"));
        return `${number} is marked paid.`;
      },
      "delete-invoice": async (form) => {
        const { number } = await deleteInvoice(db, actor, formId(form, "invoiceId"));
        return `${number} was deleted; its proposal can be invoiced again.`;
      },
    },
    { target: "invoiceId" },
  );
}

const FILTER_LABELS: Record<InvoiceFilter, string> = { all: "All", paid: "Paid", pending: "Pending (not yet due)", overdue: "Overdue" };
const STATUS_STYLES: Record<InvoiceDisplayStatus, string> = {
  paid: "bg-green-100 text-green-900",
  pending: "bg-amber-100 text-amber-900",
  overdue: "bg-red-100 text-red-900",
};

/** /admin/invoices: filter, search, and per row Edit, Mark Paid and Delete (after confirmation). */
export default function AdminInvoices({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filter, q, created } = loaderData;
  const confirming = useConfirmTarget();
  const columns: Column<AdminInvoiceRow>[] = [
    { header: "Number", cell: (i) => <span className="font-mono whitespace-nowrap">{i.number}</span> },
    { header: "Project", cell: (i) => <span className="min-w-40">{i.projectName || `Proposal #${i.proposalId}`}</span> },
    {
      header: "Client",
      cell: (i) => (
        <span className="min-w-40">
          {i.clientName ?? "—"}
          <span className="block text-xs break-all text-slate-600">{i.clientEmail}</span>
        </span>
      ),
    },
    { header: "Due", cell: (i) => <span className="whitespace-nowrap">{formatCalendarDate(i.dueDate)}</span> },
    { header: "Total", className: "text-right whitespace-nowrap", cell: (i) => formatCents(i.totalCents) },
    {
      header: "Status",
      cell: (i) => (
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[i.displayStatus]}`}>
          {i.displayStatus[0]!.toUpperCase() + i.displayStatus.slice(1)}
        </span>
      ),
    },
    { header: <span className="sr-only">Actions</span>, cell: (i) => <InvoiceActions invoice={i} /> },
  ];
  return (
    <>
      <PageHeading title="Invoices" lead="Overdue means unpaid with a due date before today (UTC).">
        <ExportCsvLink to="/admin/invoices/export.csv" noun="invoices" />
      </PageHeading>
      <SearchBar label="Search by number, project or client" defaultValue={q} placeholder="e.g. INV-2026-0001 or bakery">
        <FilterSelect
          name="filter"
          label="Show"
          value={filter}
          options={INVOICE_FILTERS.map((f) => ({ value: f, label: FILTER_LABELS[f] }))}
        />
      </SearchBar>
      {created && !actionData ? (
        <Notice tone="success" className="mb-4">
          Invoice {created} created. The client sees it on their invoice page.
        </Notice>
      ) : null}
      <ActionNotice result={actionData} className="mb-4" />
      <DataTable
        caption="Invoices"
        columns={columns}
        rows={page.items}
        rowKey={(i) => i.id}
        empty={q || filter !== "all" ? "No invoice matches this filter." : "No invoices yet. Generate one from a proposal."}
        after={(i) =>
          confirming?.kind === "delete-invoice" && confirming.target === String(i.id) ? (
            <ConfirmPanel
              title={`Delete invoice ${i.number}?`}
              intent="delete-invoice"
              fields={{ invoiceId: i.id }}
              confirmLabel="Yes, delete invoice"
            >
              {formatCents(i.totalCents)} for {i.projectName || `proposal #${i.proposalId}`}. Its proposal will have no invoice. This cannot
              be undone.
            </ConfirmPanel>
          ) : null
        }
      />
      <Pager page={page} noun="invoices" shown={page.items.length} />
    </>
  );
}

function InvoiceActions({ invoice }: { invoice: AdminInvoiceRow }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  const paying =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "mark-paid" &&
    navigation.formData?.get("invoiceId") === String(invoice.id);
  return (
    <div className="flex gap-2">
      {invoice.status === "unpaid" ? (
        <>
          <Link to={`/admin/invoices/edit/${invoice.id}`} className={buttonClass("secondary")} aria-label={`Edit ${invoice.number}`}>
            Edit
          </Link>
          <Form method="post" action={actionHref} preventScrollReset>
            <input type="hidden" name="intent" value="mark-paid" />
            <input type="hidden" name="invoiceId" value={invoice.id} />
            <button type="submit" className={buttonClass("secondary")} disabled={paying} aria-label={`Mark ${invoice.number} paid`}>
              {paying ? "Saving…" : "Mark Paid"}
            </button>
          </Form>
        </>
      ) : (
        <Link to={`/admin/invoices/edit/${invoice.id}`} className={buttonClass("secondary")} aria-label={`View ${invoice.number}`}>
          View
        </Link>
      )}
      <a
        href={`/admin/invoices/${invoice.id}/pdf`}
        className={buttonClass("secondary")}
        aria-label={`PDF of ${invoice.number}`}
        target="_blank"
        rel="noopener"
      >
        PDF
      </a>
      <ConfirmLink kind="delete-invoice" target={invoice.id} label={`Delete ${invoice.number}`}>
        Delete
      </ConfirmLink>
    </div>
  );
}
