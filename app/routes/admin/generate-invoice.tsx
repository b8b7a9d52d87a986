import { Link, redirect } from "react-router";
import type { Route } from "./+types/generate-invoice";
import { PageHeading } from "#app/components/page-heading";
import { Notice } from "#app/components/ui/notice";
import { InvoiceForm } from "#app/features/invoices/components/invoice-form";
import { generateInvoice, getProposalToInvoice } from "#app/features/invoices/invoices.admin.server";
import { invoiceGenerateSchema, toInvoiceInput } from "#app/features/invoices/invoices.schema";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { addDays } from "#app/lib/dates";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { paramId } from "#app/lib/ids";
import { useFormatMoney } from "#app/components/money";
import { actorAndDb } from "#app/features/users/session.server";
import { servicesContext } from "#app/context";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";
import { clientCanPay } from "#app/features/invoices/client-can-pay.server";
import { InstructionsFirst } from "#app/features/invoices/components/instructions-first";
import { getOfferForInvoice, type OfferForInvoice } from "#app/features/agreements/offer-deposit.server";
import { businessDay, getSettings } from "#app/features/settings/settings.server";
import { centsToInput, currencyOf, formatCents } from "#app/lib/money";
import { MAX_INVOICE_ITEMS } from "#app/features/invoices/invoices.messages";

/** The offer's lines as invoice items: one per line, its amount quantity × unit price, the quantity in the description. */
function offerItemsForInvoice(offer: OfferForInvoice, currency: string): { description: string; amount: string }[] {
  return offer.items.slice(0, MAX_INVOICE_ITEMS).map((item) => ({
    description: (item.quantity === 1
      ? item.description
      : `${item.description} (${item.quantity} × ${formatCents(item.unitPriceCents, currency)})`
    ).slice(0, 200),
    amount: centsToInput(item.quantity * item.unitPriceCents),
  }));
}

export const meta: Route.MetaFunction = () => [{ title: "Generate Invoice | Admin Console" }, { name: "robots", content: "noindex" }];

/** Default payment term of a new invoice, in days. */
const DEFAULT_TERM_DAYS = 30;

const PROPOSAL_NOT_FOUND = "Proposal not found";

/** The proposal to invoice (docs/product.md#invoices-generating). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const proposal = await getProposalToInvoice(db, actor, paramId(params.proposalId, PROPOSAL_NOT_FOUND));
  // An accepted offer proposes its line items (docs/product.md#offers); the invoice asks for its deposit (docs/product.md#deposits).
  const offer = await getOfferForInvoice(db, proposal.id);
  const currency = currencyOf(await getSettings(db));
  return {
    form: formConstraints(invoiceGenerateSchema),
    // #37: without card payments the client pays by the Settings' instructions: asked for first.
    needsInstructions: !(await clientCanPay(db, cardPaymentsEnabled(context.get(servicesContext).env))),
    proposal,
    defaultDueDate: addDays((await businessDay(db)).today, DEFAULT_TERM_DAYS),
    offerItems: offer ? offerItemsForInvoice(offer, currency) : null,
    offerDeposit: offer?.deposit ?? null,
  };
}

/**
 * Generates the invoice (docs/product.md#invoices): items and due date validated, total computed on the
 * server, sequential number. Add/remove item intents (without JavaScript) re-render the form.
 * A failure is logged and answered with a clear message; nothing is saved.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const proposalId = paramId(args.params.proposalId, PROPOSAL_NOT_FOUND);
  return formAction(
    args,
    invoiceGenerateSchema,
    async (value) => {
      const created = await generateInvoice(db, actor, proposalId, toInvoiceInput(value), new Date(), {
        knownInvoices: value.knownInvoices,
        cardPayments: cardPaymentsEnabled(args.context.get(servicesContext).env),
      });
      return redirect(`/admin/invoices?created=${encodeURIComponent(created.number)}`);
    },
    { failureMessage: INVOICE_MESSAGES.generationFailed },
  );
}

/** /admin/generate-invoice/{proposalId}: the proposal, then the item form (or why it cannot be invoiced). */
export default function GenerateInvoice({ loaderData, actionData }: Route.ComponentProps) {
  const money = useFormatMoney();
  const { proposal, defaultDueDate } = loaderData;
  const title = proposal.projectName || `Proposal #${proposal.id}`;
  return (
    <>
      <PageHeading title="Generate Invoice" lead={title}>
        <Link to="/admin/proposals" className="text-brand-700 underline">
          ← Back to proposals
        </Link>
      </PageHeading>
      <dl className="mb-6 grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-600">Client</dt>
        <dd>
          {proposal.clientName ?? "—"} <span className="text-slate-600">{proposal.clientEmail}</span>
        </dd>
        <dt className="font-medium text-slate-600">Budget</dt>
        <dd>{money(proposal.budgetCents)}</dd>
        <dt className="font-medium text-slate-600">Details</dt>
        <dd className="whitespace-pre-line">{proposal.projectDetails}</dd>
      </dl>
      {loaderData.offerItems && proposal.invoices.length === 0 ? (
        <p className="mb-4 text-sm text-slate-700" data-testid="offer-prefill">
          The items below come from the accepted offer
          {loaderData.offerDeposit
            ? ` (deposit asked: ${loaderData.offerDeposit.kind === "percent" ? `${loaderData.offerDeposit.value} %` : money(loaderData.offerDeposit.value)})`
            : ""}
          .
        </p>
      ) : null}
      {proposal.invoices.length > 0 ? (
        <div className="mb-4" data-testid="existing-invoices">
          <Notice tone="info">
            {INVOICE_MESSAGES.moreInvoices}{" "}
            {proposal.invoices.map((existing, index) => (
              <span key={existing.id}>
                {index > 0 ? ", " : null}
                <Link className="text-brand-700 underline" to={`/admin/invoices/edit/${existing.id}`}>
                  {existing.number}
                </Link>{" "}
                ({money(existing.totalCents)}, {existing.status})
              </span>
            ))}
          </Notice>
        </div>
      ) : null}
      {loaderData.needsInstructions ? <InstructionsFirst what="sending an invoice" /> : null}
      {!proposal.clientId ? (
        <Notice tone="info">{INVOICE_MESSAGES.noClientAccount}</Notice>
      ) : (
        <InvoiceForm
          id="generate-invoice"
          constraint={loaderData.form}
          lastResult={actionData?.result}
          defaultValue={{
            items:
              proposal.invoices.length === 0
                ? (loaderData.offerItems ?? [{ description: title, amount: centsToInput(proposal.budgetCents) }])
                : [{ description: title, amount: "" }],
            dueDate: defaultDueDate,
          }}
          knownInvoices={proposal.invoices.length}
          submitLabel="Generate Invoice"
          pendingLabel="Generating…"
        />
      )}
    </>
  );
}
