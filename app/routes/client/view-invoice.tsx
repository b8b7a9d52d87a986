import type { Route } from "./+types/view-invoice";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { RouteErrorMessage } from "#app/components/route-error";
import { DetailItem } from "#app/components/ui/detail-item";
import { servicesContext } from "#app/context";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { getSettings } from "#app/features/settings/settings.server";
import { paramId } from "#app/lib/ids";
import { formatCents } from "#app/lib/money";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.invoice.number ?? "Invoice"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/**
 * View invoice (docs/product.md#invoice-view): the client's own invoice only, else 404
 * "Invoice not found"; with bill-from (Settings), bill-to (the client's account), the payment
 * instructions and, for an unpaid invoice when Settings hold a template, the Pay now link.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const invoiceId = paramId(params.invoiceId, INVOICE_MESSAGES.notFound);
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, requireUser(context), invoiceId), getSettings(db)]);
  return {
    invoice,
    currency: settings.currency,
    billFrom: billFromSettings(settings),
    payment: paymentDetails(settings, invoice),
  };
}

/** The invoice: number, dates, status, parties, items, total and how to pay. */
export default function ViewInvoice({ loaderData }: Route.ComponentProps) {
  const { invoice, currency, billFrom, payment } = loaderData;
  const companyName = billFrom.name;
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
      <div className="mt-6 grid gap-6 text-sm sm:grid-cols-2">
        <section aria-labelledby="bill-from">
          <h2 id="bill-from" className="font-semibold text-slate-600">
            From
          </h2>
          <address className="mt-1 not-italic wrap-anywhere" data-testid="bill-from">
            {billFrom.name ? <span className="block font-medium">{billFrom.name}</span> : null}
            {billFrom.address ? <span className="block whitespace-pre-line">{billFrom.address}</span> : null}
            {billFrom.email ? <span className="block">{billFrom.email}</span> : null}
            {billFrom.taxId ? <span className="block">Tax ID: {billFrom.taxId}</span> : null}
          </address>
        </section>
        <section aria-labelledby="bill-to">
          <h2 id="bill-to" className="font-semibold text-slate-600">
            Bill to
          </h2>
          <address className="mt-1 not-italic wrap-anywhere" data-testid="bill-to">
            {[invoice.billTo.name, invoice.billTo.email, invoice.billTo.phone, invoice.billTo.website]
              .filter(Boolean)
              .map((line, index) => (
                <span key={index} className={`block ${index === 0 ? "font-medium" : ""}`}>
                  {line}
                </span>
              ))}
          </address>
        </section>
      </div>
      <dl className="mt-6 grid gap-4 text-sm sm:grid-cols-3">
        <DetailItem label="Issued">
          <LocalDateTime value={invoice.createdAt} style="date" />
        </DetailItem>
        <DetailItem label="Due date">
          <LocalDate value={invoice.dueDate} />
        </DetailItem>
        {invoice.paidAt ? (
          <DetailItem label="Paid">
            <LocalDateTime value={invoice.paidAt} style="date" />
          </DetailItem>
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
      {payment.instructions ? (
        <section aria-labelledby="how-to-pay" className="mt-8 rounded-lg bg-slate-50 p-4 text-sm">
          <h2 id="how-to-pay" className="font-semibold">
            How to pay
          </h2>
          <p className="mt-1 whitespace-pre-line wrap-anywhere" data-testid="payment-instructions">
            {payment.instructions}
          </p>
        </section>
      ) : null}
      <p className="mt-8 flex flex-wrap gap-3">
        {payment.payLink ? (
          <a href={payment.payLink} className="btn btn-primary btn-md" rel="noopener noreferrer" target="_blank">
            Pay now<span className="sr-only"> (opens the payment page in a new tab)</span>
          </a>
        ) : null}
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
  return <RouteErrorMessage backTo="/invoices" backLabel="Back to your invoices" />;
}
