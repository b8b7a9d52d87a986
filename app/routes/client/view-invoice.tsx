import type { Route } from "./+types/view-invoice";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { RouteErrorMessage } from "#app/components/route-error";
import { servicesContext } from "#app/context";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.schema";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { getSettings } from "#app/features/settings/settings.server";
import { paramId } from "#app/lib/ids";
import { formatCents } from "#app/lib/money";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.invoice.number ?? "Invoice"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/** View invoice (spec §2 /view-invoice/{id}, §8): the client's own invoice only, else 404 "Invoice not found". */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const invoiceId = paramId(params.invoiceId, INVOICE_MESSAGES.notFound);
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, requireUser(context), invoiceId), getSettings(db)]);
  return { invoice, currency: settings.currency, companyName: settings.companyName };
}

/** The invoice: number, dates, status, items and total. */
export default function ViewInvoice({ loaderData }: Route.ComponentProps) {
  const { invoice, currency, companyName } = loaderData;
  return (
    <article className="mx-auto max-w-3xl rounded-xl border border-slate-200 p-4 shadow-sm sm:p-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">{companyName || "Invoice"}</p>
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">Invoice {invoice.number}</h1>
          <p className="mt-1 text-slate-700 wrap-anywhere">{invoice.projectName ?? "Website project"}</p>
        </div>
        <InvoiceStatusBadge status={invoice.displayStatus} />
      </header>
      <dl className="mt-6 grid gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-600">Issued</dt>
          <dd className="font-medium">
            <LocalDateTime value={invoice.createdAt} style="date" />
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Due date</dt>
          <dd className="font-medium">
            <LocalDate value={invoice.dueDate} />
          </dd>
        </div>
        {invoice.paidAt ? (
          <div>
            <dt className="text-slate-600">Paid</dt>
            <dd className="font-medium">
              <LocalDateTime value={invoice.paidAt} style="date" />
            </dd>
          </div>
        ) : null}
      </dl>
      <table className="mt-8 w-full text-left text-sm">
        <caption className="sr-only">Invoice items</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 font-semibold">
              Description
            </th>
            <th scope="col" className="py-2 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.items.map((item, index) => (
            <tr key={index} className="border-b border-slate-100">
              <td className="py-2 pr-4 wrap-anywhere">{item.description}</td>
              <td className="py-2 text-right tabular-nums">{formatCents(item.amountCents, currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="pt-4 text-base font-semibold">
              Total
            </th>
            <td className="pt-4 text-right text-base font-bold tabular-nums">{formatCents(invoice.totalCents, currency)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="mt-8">
        <a
          href={`/view-invoice/${invoice.id}/pdf`}
          className="inline-flex rounded-md border border-slate-300 px-4 py-2 font-semibold text-brand-700 hover:bg-slate-50"
        >
          Download PDF
        </a>
      </p>
    </article>
  );
}

/** Shows "Invoice not found" (404) with a way back. */
export function ErrorBoundary() {
  return <RouteErrorMessage backTo="/project-status" backLabel="Back to Project Status" />;
}
