import { redirect } from "react-router";
import type { Route } from "./+types/view-invoice";
import { RouteErrorMessage } from "#app/components/route-error";
import { servicesContext } from "#app/context";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { isDue } from "#app/features/payments/invoice-money";
import { cardPaymentsEnabled, startCardCheckout } from "#app/features/payments/stripe.server";
import { getSettings } from "#app/features/settings/settings.server";
import { autopayNotice } from "#app/features/billing/autopay.server";
import { runIntent } from "#app/lib/form-action.server";
import { InvoicePage } from "#app/features/payments/components/invoice-page";
import { paramId } from "#app/lib/ids";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.invoice.number ?? "Invoice"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/**
 * View invoice (docs/product.md#invoice-view): the client's own invoice only, else 404
 * "Invoice not found". Like a hosted invoice page: amount due, due date, status and the pay action
 * first (card checkout when Stripe is set up, else the payment link); then items, payments and the
 * balance; then the parties. "How to pay" shows only while something is due.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const invoiceId = paramId(params.invoiceId, INVOICE_MESSAGES.notFound);
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, requireUser(context), invoiceId), getSettings(db)]);
  // After the rights check above: the automatic payment's state (#39), e.g. the next retry.
  const autopay = await autopayNotice(db, invoice.id);
  const due = isDue(invoice.displayStatus);
  return {
    invoice,
    currency: settings.currency,
    billFrom: billFromSettings(settings),
    payment: paymentDetails(settings, { number: invoice.number, totalCents: invoice.money.dueNowCents, status: due ? "unpaid" : "paid" }),
    card: due && cardPaymentsEnabled(env),
    autopay: due ? autopay : null,
    processing: new URL(request.url).searchParams.get("payment") === "processing" && due,
    signed: new URL(request.url).searchParams.get("signed") === "1",
    // Back from a cancelled Checkout (issue #41).
    cancelled: new URL(request.url).searchParams.get("payment") === "cancelled" && due,
  };
}

/** `pay-card`: creates the Stripe Checkout Session for the amount due now and redirects to it. */
export async function action(args: Route.ActionArgs) {
  const { db, env } = args.context.get(servicesContext);
  const actor = requireUser(args.context);
  const invoiceId = paramId(args.params.invoiceId, INVOICE_MESSAGES.notFound);
  return runIntent(args, {
    "pay-card": async () => {
      const invoice = await getInvoiceForClient(db, actor, invoiceId); // 404 unless the client's own
      const url = await startCardCheckout(db, env, {
        invoiceId: invoice.id,
        clientEmail: actor.email,
        origin: env.origin,
        returnPath: `/view-invoice/${invoice.id}`,
      });
      return redirect(url);
    },
  });
}

/** The invoice, pay action first. */
export default function ViewInvoice({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <InvoicePage
      {...loaderData}
      pdfHref={`/view-invoice/${loaderData.invoice.id}/pdf`}
      refusal={actionData?.ok === false ? actionData.message : null}
    />
  );
}

/** Shows "Invoice not found" (404) with a way back. */
export function ErrorBoundary() {
  return <RouteErrorMessage backTo="/invoices" backLabel="Back to your invoices" />;
}
