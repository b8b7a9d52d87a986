import type { Route } from "./+types/invoices";
import { PageHeading } from "#app/components/page-heading";
import { ConfirmLink, ConfirmPanel, useIsConfirming } from "#app/components/ui/confirm";
import { DataTable, ExportCsvLink, FilterSelect, ListLink, Pager, SearchBar, type Column } from "#app/components/ui/data-table";
import { Notice } from "#app/components/ui/notice";
import { RowMenu, ROW_MENU_ITEM } from "#app/components/ui/row-menu";
import { Toast } from "#app/components/ui/toast";
import { BreakableText } from "#app/components/ui/breakable-text";
import { useFormatMoney } from "#app/components/money";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { deleteInvoice, listInvoicesForAdmin, markInvoicePaid, type AdminInvoiceRow } from "#app/features/invoices/invoices.admin.server";
import { INVOICE_FILTERS, invoiceListFiltersFrom, type InvoiceFilter } from "#app/features/invoices/invoice-filters";
import { formatDate, INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import { formId, runIntent } from "#app/lib/form-action.server";
import { currencyOf, formatCents } from "#app/lib/money";
import { getSettings } from "#app/features/settings/settings.server";
import { Badge } from "#app/components/ui/badge";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Invoices | Admin Console" }, { name: "robots", content: "noindex" }];

/** Invoices with docs/product.md#admin-invoices) and search, server-side. */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters, params } = await loadListPage(args, invoiceListFiltersFrom, listInvoicesForAdmin);
  const created = params.get("created");
  return { page, filter: filters.filter, q: filters.q ?? "", created: created && /^INV-\d{4}-\d+$/.test(created) ? created : null };
}

/**
 * `record-full-payment` (was Mark paid: after a confirmation naming the invoice, the amount and the
 * new balance; the row lock makes a double submission pay once, docs/product.md#payments) and `delete-invoice`.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      "record-full-payment": async (form) => {
        const { number, changed, amountCents } = await markInvoicePaid(db, actor, formId(form, "invoiceId"));
        const currency = currencyOf(await getSettings(db));
        return changed
          ? `Payment of ${formatCents(amountCents, currency)} recorded on ${number}. New balance: ${formatCents(0, currency)}.`
          : `${number} has nothing due. Nothing changed.`;
      },
      "delete-invoice": async (form) => {
        const { number } = await deleteInvoice(db, actor, formId(form, "invoiceId"));
        return `${number} was deleted; its proposal can be invoiced again.`;
      },
    },
    { target: "invoiceId" },
  );
}

const FILTER_LABELS: Record<InvoiceFilter, string> = {
  all: "All",
  pending: `${INVOICE_STATUS_LABELS.unpaid} (not yet due)`,
  partial: `${INVOICE_STATUS_LABELS.partial} (not yet due)`,
  overdue: `${INVOICE_STATUS_LABELS.overdue} (incl. partially paid)`,
  paid: INVOICE_STATUS_LABELS.paid,
  refunded: INVOICE_STATUS_LABELS.refunded,
};

/** /admin/invoices: filter, search, and per row Edit, Mark paid / Mark unpaid and Delete (each after a confirmation). */
export default function AdminInvoices({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filter, q, created } = loaderData;
  const isConfirming = useIsConfirming();
  const money = useFormatMoney();
  const columns: Column<AdminInvoiceRow>[] = [
    { header: "Number", cell: (i) => <span className="font-mono whitespace-nowrap">{i.number}</span> },
    {
      header: "Project",
      cell: (i) => (
        <span className="wrap-text block max-w-xs min-w-32">
          {i.projectName || (i.proposalId === null ? "No project" : `Proposal #${i.proposalId}`)}
        </span>
      ),
    },
    {
      header: "Client",
      cell: (i) => (
        <span className="wrap-text block max-w-xs min-w-32">
          {i.clientName ?? "—"}
          <BreakableText className="block text-xs text-slate-600" text={i.clientEmail ?? ""} />
        </span>
      ),
    },
    { header: "Due", cell: (i) => <span className="whitespace-nowrap">{formatDate(i.dueDate)}</span> },
    { header: "Total", className: "sm:text-right whitespace-nowrap", cell: (i) => money(i.totalCents) },
    { header: "Paid", className: "sm:text-right whitespace-nowrap", cell: (i) => money(i.paidCents - i.refundedCents) },
    { header: "Balance", className: "sm:text-right whitespace-nowrap", cell: (i) => money(i.balanceCents) },
    {
      header: "Status",
      cell: (i) => (
        <span className="flex flex-wrap gap-1">
          <InvoiceStatusBadge status={i.displayStatus} />
          {i.disputedAt ? <Badge tone="red">Disputed</Badge> : null}
        </span>
      ),
    },
    { header: <span className="sr-only">Actions</span>, label: "", cell: (i) => <InvoiceActions invoice={i} /> },
  ];
  return (
    <>
      <PageHeading title="Invoices" lead="Overdue means a balance due with a due date before today (UTC).">
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
      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />
      <DataTable
        caption="Invoices"
        columns={columns}
        rows={page.items}
        rowKey={(i) => i.id}
        empty={q || filter !== "all" ? "No invoice matches this filter." : "No invoices yet. Generate one from a proposal."}
        after={(i) =>
          isConfirming("record-full-payment", i.id) && i.balanceCents > 0 ? (
            <ConfirmPanel
              title={`Record full payment of ${i.number}?`}
              intent="record-full-payment"
              fields={{ invoiceId: i.id }}
              confirmLabel="Yes, record full payment"
              pendingLabel="Saving…"
              tone="primary"
            >
              A payment of {money(i.balanceCents)} from {i.clientName ?? "the client"} for{" "}
              {i.projectName || (i.proposalId === null ? "no project" : `proposal #${i.proposalId}`)} (method Other, received today). New
              balance: {money(0)}. The client gets a receipt. A mistake is reversed with a refund on the invoice&apos;s payments page.
            </ConfirmPanel>
          ) : isConfirming("delete-invoice", i.id) ? (
            <ConfirmPanel
              title={`Delete invoice ${i.number}?`}
              intent="delete-invoice"
              fields={{ invoiceId: i.id }}
              confirmLabel="Yes, delete invoice"
            >
              {money(i.totalCents)} for {i.projectName || (i.proposalId === null ? "no project" : `proposal #${i.proposalId}`)}. Its
              proposal loses this invoice. This cannot be undone.
            </ConfirmPanel>
          ) : null
        }
      />
      <Pager page={page} noun="invoices" shown={page.items.length} />
    </>
  );
}

/** A row's actions, folded into one Actions menu (more than two): Edit/View, Payments, Record full payment, PDF, Delete. */
function InvoiceActions({ invoice }: { invoice: AdminInvoiceRow }) {
  return (
    <RowMenu name={invoice.number}>
      <li>
        <ListLink to={`/admin/invoices/edit/${invoice.id}`} className={ROW_MENU_ITEM}>
          {invoice.status === "unpaid" ? "Edit" : "View"}
        </ListLink>
      </li>
      <li>
        <ListLink to={`/admin/invoices/${invoice.id}/payments`} className={ROW_MENU_ITEM}>
          Payments
        </ListLink>
      </li>
      {invoice.balanceCents > 0 ? (
        <li>
          <ConfirmLink kind="record-full-payment" target={invoice.id} className={ROW_MENU_ITEM}>
            Record full payment
          </ConfirmLink>
        </li>
      ) : null}
      <li>
        <a href={`/admin/invoices/${invoice.id}/pdf`} className={ROW_MENU_ITEM} target="_blank" rel="noopener">
          PDF
        </a>
      </li>
      <li>
        <ConfirmLink kind="delete-invoice" target={invoice.id} className={`${ROW_MENU_ITEM} text-red-800`}>
          Delete
        </ConfirmLink>
      </li>
    </RowMenu>
  );
}
