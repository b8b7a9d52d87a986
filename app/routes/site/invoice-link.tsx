import { isRouteErrorResponse, Link, redirect, useRouteError } from "react-router";
import type { Route } from "./+types/invoice-link";
import { servicesContext } from "#app/context";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { isDue } from "#app/features/payments/invoice-money";
import { openSignedInvoice } from "#app/features/payments/invoice-link.server";
import { INVOICE_LINK_INVALID } from "#app/features/payments/payments.messages";
import { cardPaymentsEnabled, startCardCheckout } from "#app/features/payments/stripe.server";
import { getSettings } from "#app/features/settings/settings.server";
import { runIntent } from "#app/lib/form-action.server";
import { InvoicePage } from "#app/features/payments/components/invoice-page";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.invoice.number ?? "Invoice"} | Client Portal` },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

/**
 * `/i/:token` (docs/product.md#invoice-link): the one invoice a signed link names, without signing
 * in — the invoice page, its PDF and the pay action, nothing else. Forged or expired: 404 with the sign-in link.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const { invoiceId, client } = await openSignedInvoice(db, params.token);
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, client, invoiceId), getSettings(db)]);
  const due = isDue(invoice.displayStatus);
  return {
    invoice,
    token: params.token,
    currency: settings.currency,
    billFrom: billFromSettings(settings),
    payment: paymentDetails(settings, { number: invoice.number, totalCents: invoice.money.dueNowCents, status: due ? "unpaid" : "paid" }),
    card: due && cardPaymentsEnabled(env),
    processing: new URL(request.url).searchParams.get("payment") === "processing" && due,
    // Back from a cancelled Checkout (issue #41).
    cancelled: new URL(request.url).searchParams.get("payment") === "cancelled" && due,
  };
}

/** `pay-card` from the signed link: the Checkout Session for the amount due now, back to this link. */
export async function action(args: Route.ActionArgs) {
  const { db, env } = args.context.get(servicesContext);
  const { invoiceId, client } = await openSignedInvoice(db, args.params.token);
  return runIntent(args, {
    "pay-card": async () => {
      const url = await startCardCheckout(db, env, {
        invoiceId,
        clientEmail: client.email,
        origin: env.origin,
        returnPath: `/i/${args.params.token}`,
      });
      return redirect(url);
    },
  });
}

export default function InvoiceLink({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="px-4 py-8">
      <InvoicePage
        {...loaderData}
        pdfHref={`/i/${loaderData.token}/pdf`}
        refusal={actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null}
      />
      <p className="mx-auto mt-6 max-w-3xl text-sm text-slate-600">
        <Link to="/login" className="text-brand-700 underline">
          Sign in
        </Link>{" "}
        to see all your invoices and projects.
      </p>
    </div>
  );
}

/** A forged, expired or revoked link: 404 and the way to sign in. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-10">
      <p className="text-sm font-semibold text-brand-700">Error {status}</p>
      <h1 role="alert" className="text-3xl font-bold tracking-tight">
        {status === 404 ? INVOICE_LINK_INVALID : "Something went wrong on our side. Please try again in a moment."}
      </h1>
      <Link to="/login" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        Sign in
      </Link>
    </section>
  );
}
