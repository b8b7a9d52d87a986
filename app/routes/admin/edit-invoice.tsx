import { Link } from "react-router";
import type { Route } from "./+types/edit-invoice";
import { PageHeading } from "#app/components/page-heading";
import { DataTable } from "#app/components/ui/data-table";
import { Notice } from "#app/components/ui/notice";
import { InvoiceForm } from "#app/features/invoices/components/invoice-form";
import { getInvoiceForAdmin, updateInvoice } from "#app/features/invoices/invoices.admin.server";
import { invoiceEditSchema, toInvoiceInput } from "#app/features/invoices/invoices.schema";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { formatCalendarDate } from "#app/lib/dates";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { paramId } from "#app/lib/ids";
import { centsToInput } from "#app/lib/money";
import { useFormatMoney } from "#app/components/money";
import { formatMoney } from "#app/lib/vocabulary";
import { getSettings } from "#app/features/settings/settings.server";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { actorAndDb } from "#app/features/users/session.server";
import { listRemindersFor } from "#app/features/reminders/admin-reminders.server";
import { RemindersPanel } from "#app/features/reminders/components/reminders-panel";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Edit ${data?.invoice.number ?? "Invoice"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** One invoice with its items (docs/product.md#invoices-editing). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const invoice = await getInvoiceForAdmin(db, actor, paramId(params.invoiceId, INVOICE_MESSAGES.notFound));
  return {
    form: formConstraints(invoiceEditSchema),
    invoice,
    // docs/product.md#reminders-admin
    reminders: await listRemindersFor(db, actor, "invoice", invoice.id),
  };
}

/**
 * Saves items and due date; the total is recomputed on the server (docs/product.md#invoices-editing).
 * The hidden `version` refuses a save from a page another admin's save made stale (docs/product.md#invoices).
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const invoiceId = paramId(args.params.invoiceId, INVOICE_MESSAGES.notFound);
  return formAction(
    args,
    invoiceEditSchema,
    async (value) => {
      const { totalCents } = await updateInvoice(db, actor, invoiceId, toInvoiceInput(value));
      return `Invoice saved. New total: ${formatMoney(totalCents, (await getSettings(db)).currency)}.`;
    },
    { failureMessage: INVOICE_MESSAGES.saveFailed },
  );
}

/** /admin/invoices/edit/{invoiceId}: the item form for an unpaid invoice, a read-only view for a paid one. */
export default function EditInvoice({ loaderData, actionData }: Route.ComponentProps) {
  const money = useFormatMoney();
  const { invoice } = loaderData;
  return (
    <>
      <PageHeading
        title={`Invoice ${invoice.number}`}
        lead={invoice.projectName || (invoice.proposalId === null ? "No project" : `Proposal #${invoice.proposalId}`)}
      >
        <div className="flex flex-wrap gap-4">
          <Link to={`/admin/invoices/${invoice.id}/payments`} className="text-brand-700 underline">
            Payments
          </Link>
          <a href={`/admin/invoices/${invoice.id}/pdf`} className="text-brand-700 underline" target="_blank" rel="noopener">
            Download PDF
          </a>
          <Link to="/admin/invoices" className="text-brand-700 underline">
            ← Back to invoices
          </Link>
        </div>
      </PageHeading>
      <dl className="mb-6 grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-600">Client</dt>
        <dd>
          {invoice.clientName ?? "—"} <span className="text-slate-600">{invoice.clientEmail}</span>
        </dd>
        <dt className="font-medium text-slate-600">Status</dt>
        <dd>
          <InvoiceStatusBadge status={invoice.displayStatus} />
        </dd>
        <dt className="font-medium text-slate-600">Total</dt>
        <dd>{money(invoice.totalCents)}</dd>
        <dt className="font-medium text-slate-600">Paid</dt>
        <dd>
          {money(invoice.paidCents)}
          {invoice.refundedCents ? ` (refunded ${money(invoice.refundedCents)})` : ""}
        </dd>
        <dt className="font-medium text-slate-600">Balance due</dt>
        <dd>{money(invoice.balanceCents)}</dd>
        <dt className="font-medium text-slate-600">Due</dt>
        <dd>{formatCalendarDate(invoice.dueDate)}</dd>
        <dt className="font-medium text-slate-600">Client link</dt>
        <dd className="font-mono">/view-invoice/{invoice.id}</dd>
      </dl>
      {invoice.status === "paid" ? (
        <>
          <Notice tone="info" className="mb-4">
            {INVOICE_MESSAGES.paidLocked}
          </Notice>
          <DataTable
            caption={`Items of ${invoice.number}`}
            columns={[
              { header: "Description", cell: (item) => item.description },
              { header: "Amount", className: "text-right", cell: (item) => money(item.amountCents) },
            ]}
            rows={invoice.items}
            rowKey={(item) => `${item.description}-${item.amountCents}`}
            empty="No items."
          />
        </>
      ) : (
        <InvoiceForm
          key={`${invoice.id}-${invoice.version}`}
          version={invoice.version}
          id={`edit-invoice-${invoice.id}`}
          constraint={loaderData.form}
          lastResult={actionData?.result}
          success={actionData?.ok ? actionData.message : null}
          defaultValue={{
            items: invoice.items.map((item) => ({ description: item.description, amount: centsToInput(item.amountCents) })),
            dueDate: invoice.dueDate,
          }}
          submitLabel="Save invoice"
          pendingLabel="Saving…"
        />
      )}
      <RemindersPanel kind="invoice" id={invoice.id} history={loaderData.reminders} />
    </>
  );
}
