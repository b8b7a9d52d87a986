/**
 * The admin's offer page for one proposal (docs/product.md#offers): the offer editor (scope, line
 * items, deposit, timeline, validity; save a draft or send a new version) and the history of the
 * versions sent. A page of its own, linked from the proposal page, so that page (request,
 * conversation, status) does not carry the editor's code (issue #29, bench/results/portal-js.md).
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/proposal-offer";
import { getProposalForAdmin } from "#app/features/proposals/proposal-detail.server";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";
import { getOfferForAdmin, saveOffer } from "#app/features/agreements/offers.server";
import { offerFormSchema } from "#app/features/agreements/offer.schema";
import { OfferForm } from "#app/features/agreements/components/offer-form";
import { VersionHistory } from "#app/features/agreements/components/version-history";
import { formAction, type FormReply } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { servicesContext } from "#app/context";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";
import { clientCanPay } from "#app/features/invoices/client-can-pay.server";
import { InstructionsFirst } from "#app/features/invoices/components/instructions-first";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Offer: ${data?.proposal.projectName || "Proposal"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** The proposal (404 "Proposal not found" if none), its offer (draft, current version, history), the form's constraints and the currency. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const id = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  const proposal = await getProposalForAdmin(db, actor, id);
  return {
    proposal: { id: proposal.id, projectName: proposal.projectName },
    offer: await getOfferForAdmin(db, actor, id),
    offerForm: formConstraints(offerFormSchema),
    currency: currencyOf(await getSettings(db)),
    // #37: an offer asking a deposit or a schedule is sent only when the client would know how to pay.
    needsInstructions: !(await clientCanPay(db, cardPaymentsEnabled(context.get(servicesContext).env))),
  };
}

/** `save-offer` / `send-offer`, or a list change without JavaScript (docs/product.md#offers). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const id = paramId(args.params.proposalId, PROPOSAL_MESSAGES.notFound);
  const reply = await formAction(args, offerFormSchema, async (value, form) => {
    const mode = form.get("intent") === "send-offer" ? "send" : "draft";
    return (await saveOffer(db, actor, id, value, mode, { cardPayments: cardPaymentsEnabled(args.context.get(servicesContext).env) }))
      .message;
  });
  if (reply instanceof Response) return reply;
  return data<FormReply>({ ...reply.data, intent: "offer" }, reply.init ?? undefined);
}

/** Back to the proposal, what the client has, the editor, then the versions sent. */
export default function AdminProposalOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { proposal: p, offer } = loaderData;
  const title = p.projectName || `Proposal #${p.id}`;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <p className="text-sm">
        <Link to={`/admin/proposals/${p.id}`} className="text-brand-700 underline wrap-anywhere">
          ← {title}
        </Link>
      </p>
      <header className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight">{offer.current ? "Change the offer" : "Write the offer"}</h1>
        <p className="mt-1 text-sm text-slate-600 wrap-anywhere">
          {title} · #{p.id}
        </p>
      </header>
      {loaderData.needsInstructions ? <InstructionsFirst what="sending an offer that asks a deposit or a payment schedule" /> : null}
      <section aria-labelledby="offer-form-title" className="min-w-0 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        <h2 id="offer-form-title" className="text-xl font-semibold">
          {offer.current ? `Version ${offer.current.number + 1}` : "Version 1"}
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          {offer.current
            ? offer.unsentChanges
              ? "The draft below differs from the version the client has: send it to make a new version."
              : `The client has version ${offer.current.number}. Any change you send makes version ${offer.current.number + 1}${offer.acceptance ? " and voids the client's acceptance" : ""}.`
            : "Save a draft as often as you like: the client sees nothing until you send it."}
        </p>
        <OfferForm
          key={JSON.stringify(offer.form)}
          constraint={loaderData.offerForm}
          defaultValue={offer.form}
          lastResult={actionData?.result}
          success={actionData?.ok ? actionData.message : null}
          currency={loaderData.currency}
          nextVersion={(offer.current?.number ?? 0) + 1}
        />
      </section>
      <VersionHistory history={offer.history} headingId="history-title" />
    </div>
  );
}
