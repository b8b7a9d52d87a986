/**
 * The client's invoice page body (docs/product.md#invoice-view), shared by `/view-invoice/:id` and the
 * signed link `/i/:token`: amount due, due date, status and the pay action first; then items,
 * payments and balance; then the parties.
 */
import { Form, useNavigation } from "react-router";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { Notice } from "#app/components/ui/notice";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import type { BillFrom, PaymentDetails } from "#app/features/invoices/invoice-billing";
import type { ClientInvoice } from "#app/features/invoices/invoices.server";
import { formatCents } from "#app/lib/money";
import { isDue } from "../invoice-money";
import { PAYMENT_METHOD_LABELS } from "../payments.messages";

/** The loader's invoice once serialised (dates may arrive as strings). */
type SerializedInvoice = Omit<ClientInvoice, "createdAt" | "paidAt" | "disputedAt" | "payments"> & {
  createdAt: Date | string;
  paidAt: Date | string | null;
  disputedAt: Date | string | null;
  payments: (Omit<ClientInvoice["payments"][number], "receivedAt"> & { receivedAt: Date | string })[];
};

/** What the invoice page says after a cancelled card Checkout (issue #41). */
export const PAYMENT_CANCELLED = "Payment cancelled — nothing was charged. You can pay whenever you are ready.";

/** The invoice page's body. */
export function InvoicePage({
  invoice,
  currency,
  billFrom,
  payment,
  card,
  processing,
  signed = false,
  cancelled = false,
  autopay = null,
  pdfHref,
  refusal,
}: {
  invoice: SerializedInvoice;
  currency: string;
  billFrom: BillFrom;
  payment: PaymentDetails;
  card: boolean;
  processing: boolean;
  /** Just signed (#37): the invoice of the accepted offer's deposit, opened right after signing. */
  signed?: boolean;
  /** Back from a Checkout the client cancelled: nothing was charged (issue #41). */
  cancelled?: boolean;
  /** The automatic payment's failed charge and next retry, or its stop (#39). */
  autopay?: string | null;
  pdfHref: string;
  refusal: string | null;
}) {
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formData?.get("intent") === "pay-card";
  const money = (cents: number) => formatCents(cents, currency);
  const m = invoice.money;
  const due = isDue(invoice.displayStatus);
  return (
    <article className="mx-auto max-w-3xl rounded-xl border border-slate-200 p-4 shadow-sm sm:p-8">
      <header className="min-w-0">
        {billFrom.name ? <p className="text-sm text-slate-600">{billFrom.name}</p> : null}
        <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">Invoice {invoice.number}</h1>
        <p className="mt-1 text-slate-700 wrap-anywhere">{invoice.projectName ?? "Website project"}</p>
      </header>

      <section aria-labelledby="amount-due" className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <h2 id="amount-due" className="text-sm font-semibold text-slate-600">
          {due ? (m.depositDue ? "Deposit due now" : "Amount due") : "Amount due"}
        </h2>
        <p className="mt-1 text-3xl font-bold tabular-nums" data-testid="amount-due">
          {money(due ? m.dueNowCents : 0)}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
          <span>
            Due <LocalDate value={invoice.dueDate} />
          </span>
          <InvoiceStatusBadge status={invoice.displayStatus} />
          {invoice.disputedAt ? <Badge tone="red">Disputed</Badge> : null}
        </div>
        {due && m.depositDue ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="deposit-sentence">
            Pay {money(m.dueNowCents)} now (deposit).
            {m.balanceCents > m.dueNowCents ? (
              <>
                {" "}
                The remaining {money(m.balanceCents - m.dueNowCents)} is due by <LocalDate value={invoice.dueDate} />.
              </>
            ) : null}
          </p>
        ) : null}
        {signed && due ? (
          <Notice tone="success" className="mt-3">
            You accepted and signed the offer. {card ? "Pay by card below" : "Pay as shown below"} to start the work.
          </Notice>
        ) : null}
        {processing ? (
          <Notice tone="info" className="mt-3">
            Payment processing. Your payment shows here as soon as the card processor confirms it; reload the page in a moment.
          </Notice>
        ) : null}
        {autopay && !processing ? (
          <div data-testid="autopay-notice">
            <Notice tone="info" className="mt-3">
              {autopay}
            </Notice>
          </div>
        ) : null}
        {cancelled && !processing ? (
          <Notice tone="info" className="mt-3">
            {PAYMENT_CANCELLED}
          </Notice>
        ) : null}
        {refusal ? (
          <Notice tone="error" className="mt-3">
            {refusal}
          </Notice>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-3">
          {card && !processing ? (
            <Form method="post">
              <input type="hidden" name="intent" value="pay-card" />
              <button type="submit" className="btn btn-primary btn-md" disabled={paying} aria-busy={paying || undefined}>
                {paying ? "Opening the payment page…" : `Pay ${money(m.dueNowCents)} by card`}
              </button>
            </Form>
          ) : null}
          {!card && payment.payLink ? (
            <a href={payment.payLink} className="btn btn-primary btn-md" rel="noopener noreferrer" target="_blank">
              Pay now<span className="sr-only"> (opens the payment page in a new tab)</span>
            </a>
          ) : null}
          <a
            href={pdfHref}
            className="inline-flex rounded-md border border-slate-300 px-4 py-2 font-semibold text-brand-700 hover:bg-slate-50"
          >
            Download PDF
          </a>
        </div>
        {due && !card && !payment.payLink && !payment.instructions ? (
          // #37: the client always sees how to pay — even before the agency wrote its instructions.
          <p className="mt-4 text-sm" data-testid="payment-instructions-missing">
            The agency has not said yet how to pay this invoice: ask them in your project's conversation.
          </p>
        ) : null}
        {due && payment.instructions ? (
          <section aria-labelledby="how-to-pay" className="mt-4 text-sm">
            <h3 id="how-to-pay" className="font-semibold">
              How to pay
            </h3>
            <p className="mt-1 whitespace-pre-line wrap-anywhere" data-testid="payment-instructions">
              {payment.instructions}
            </p>
            <p className="mt-2" data-testid="payment-reference">
              Amount: <strong className="tabular-nums">{money(m.dueNowCents)}</strong> · Reference: <strong>{invoice.number}</strong>
            </p>
          </section>
        ) : null}
      </section>

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
              <td className="py-2 text-right tabular-nums">{money(item.amountCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="pt-4 text-base font-semibold">
              Total
            </th>
            <td className="pt-4 text-right text-base font-bold tabular-nums">{money(invoice.totalCents)}</td>
          </tr>
          {m.depositCents ? (
            <tr>
              <th scope="row" className="pt-1 font-normal">
                Deposit asked
              </th>
              <td className="pt-1 text-right tabular-nums">{money(m.depositCents)}</td>
            </tr>
          ) : null}
          {invoice.payments.map((p) => (
            <tr key={p.id}>
              <th scope="row" className="pt-1 font-normal">
                {p.amountCents < 0 ? "Refunded" : `Paid (${PAYMENT_METHOD_LABELS[p.method]})`}{" "}
                <span className="text-slate-600">
                  <LocalDateTime value={p.receivedAt} style="date" />
                </span>
              </th>
              <td className="pt-1 text-right tabular-nums">{money(-p.amountCents)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="pt-2 text-base font-semibold">
              Balance due
            </th>
            <td className="pt-2 text-right text-base font-bold tabular-nums" data-testid="balance-due">
              {money(m.balanceCents)}
            </td>
          </tr>
        </tfoot>
      </table>

      <div className="mt-8 grid gap-6 text-sm sm:grid-cols-2">
        {/* No empty "From" heading before the agency has filled in its company details. */}
        {billFrom.name || billFrom.address || billFrom.email || billFrom.taxId ? (
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
        ) : null}
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
      <p className="mt-6 text-sm text-slate-600">
        Issued <LocalDateTime value={invoice.createdAt} style="date" />
        {invoice.paidAt ? (
          <>
            {" "}
            · Paid <LocalDateTime value={invoice.paidAt} style="date" />
          </>
        ) : null}
      </p>
    </article>
  );
}
