/**
 * The client's "Review and accept" page (docs/product.md#accept-and-sign): the offer's current
 * version in full with the accept-and-sign form and Decline, the history of its versions, and —
 * after a refused acceptance of an older version — what changed since. A page of its own, like a
 * signing view, so the proposal page (conversation, request) does not carry the signing form's
 * code (issue #29, bench/results/portal-js.md).
 */
import { getSettings } from "#app/features/settings/settings.server";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/proposal-accept";
import { servicesContext } from "#app/context";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { paramId } from "#app/lib/ids";
import { requireUser } from "#app/features/users/session.server";
import { conformIntent, runIntent } from "#app/lib/form-action.server";
import { requestInfoContext } from "#app/lib/request-info";
import { formConstraints } from "#app/lib/form-constraints.server";
import { timeZoneFromCookie } from "#app/lib/dates";
import { getClientProposalWithAgreement } from "#app/features/agreements/offers.server";
import { acceptOffer } from "#app/features/agreements/acceptance.server";
import { acceptFormSchema, declineFormSchema } from "#app/features/agreements/offer.schema";
import { AGREEMENT_MESSAGES } from "#app/features/agreements/agreements.messages";
import { declineProposal } from "#app/features/proposals/proposals.server";
import { AcceptForm } from "#app/features/agreements/components/accept-form";
import { OfferTerms } from "#app/features/agreements/components/offer-terms";
import { AcceptanceNotice } from "#app/features/agreements/components/acceptance-notice";
import { VersionChanges, VersionHistory } from "#app/features/agreements/components/version-history";
import { CommentForm } from "#app/features/proposals/components/comment-form";
import { depositInvoiceDueDate, depositSentence } from "#app/features/agreements/deposit-invoice.server";
import { scheduleSentence } from "#app/features/agreements/payment-schedule.server";
import { depositCents } from "#app/features/agreements/terms";
import { formatCents } from "#app/lib/money";
import { cardPaymentsEnabled, startCardCheckout } from "#app/features/payments/stripe.server";
import { logger } from "#app/lib/logger.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Review and accept: ${data?.proposal.projectName || "Proposal"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/**
 * The proposal (the client's own, else 404 "Proposal not found"), its agreement (current version,
 * acceptance, history) and the accept form's constraints.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const actor = requireUser(context);
  const id = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  const { proposal, agreement } = await getClientProposalWithAgreement(db, actor, id);
  // What happens after signing, said before it (#37): the deposit is paid in the same sitting.
  const deposit =
    agreement.current && proposal.invoices.length === 0
      ? depositSentence(agreement.current.terms, depositInvoiceDueDate(new Date(), (await getSettings(db)).timeZone))
      : null;
  const howToPay = cardPaymentsEnabled(env)
    ? "You go straight to a secure card payment page."
    : "The agency's payment instructions are shown next, with the amount and the reference to use.";
  const terms = agreement.current?.terms;
  // With a payment schedule (#37): the deposit now (if any), then each line as its own invoice when due.
  const scheduled = terms ? scheduleSentence(terms) : null;
  const scheduleDeposit = terms && scheduled ? depositCents(terms.deposit, terms.totalCents) : null;
  const afterSigning = scheduled
    ? scheduleDeposit
      ? `After you sign, you pay the ${formatCents(scheduleDeposit, terms!.currency)} deposit. ${scheduled} ${howToPay}`
      : `Nothing is due when you sign. ${scheduled}`
    : deposit
      ? `After you sign, you pay the deposit: ${deposit} ${howToPay}`
      : null;
  // Only an owner signs for the organisation (docs/product.md#organisations); others read the offer.
  const canSign = (actor.organisationRole ?? "owner") === "owner";
  return {
    proposal,
    agreement,
    acceptForm: formConstraints(acceptFormSchema),
    canSign,
    organisationName: actor.organisationName ?? null,
    afterSigning,
  };
}

/** `accept-offer` (accept and sign, docs/product.md#accept-and-sign) and `decline-offer` (with a reason). */
export async function action(args: Route.ActionArgs) {
  const id = paramId(args.params.proposalId, PROPOSAL_MESSAGES.notFound);
  const { db, env } = args.context.get(servicesContext);
  const actor = requireUser(args.context);
  const { request } = args;
  return runIntent(args, {
    "accept-offer": conformIntent(acceptFormSchema, async (value) => {
      const result = await acceptOffer(
        db,
        actor,
        id,
        { typedName: value.typedName, version: value.version, sha256: value.sha256 },
        {
          ip: args.context.get(requestInfoContext).ip,
          userAgent: request.headers.get("user-agent"),
          timeZone: timeZoneFromCookie(request.headers.get("cookie")),
          origin: new URL(request.url).origin,
        },
      );
      if (result.invoiceId !== null) {
        // #37: straight to paying the deposit — Stripe Checkout when card payments are set up, else
        // the invoice page with the agency's instructions, the amount and the reference.
        const invoicePath = `/view-invoice/${result.invoiceId}`;
        if (cardPaymentsEnabled(env)) {
          try {
            return redirect(
              await startCardCheckout(db, env, {
                invoiceId: result.invoiceId,
                clientEmail: actor.email,
                origin: env.origin,
                returnPath: invoicePath,
              }),
            );
          } catch (error) {
            // The acceptance and invoice stand; the invoice page offers the card payment again.
            logger.error({ err: error, invoiceId: result.invoiceId }, "checkout after acceptance failed");
          }
        }
        return redirect(`${invoicePath}?signed=1`);
      }
      return result.changed ? AGREEMENT_MESSAGES.accepted(result.version) : AGREEMENT_MESSAGES.alreadyAccepted(result.version);
    }),
    "decline-offer": conformIntent(declineFormSchema, async (value) => {
      const { changed } = await declineProposal(db, actor, id, value.reason);
      return changed ? "Proposal declined." : "You had already declined this proposal.";
    }),
  });
}

/** Back to the proposal, the outcome of the last post, then the terms with the form, then the history. */
export default function ClientProposalAccept({ loaderData, actionData }: Route.ComponentProps) {
  const { proposal: p, agreement } = loaderData;
  const acceptReply = actionData && "intent" in actionData && actionData.intent === "accept-offer" ? actionData : null;
  const declineReply = actionData && "intent" in actionData && actionData.intent === "decline-offer" ? actionData : null;
  // A refused acceptance of a version older than the current one: show what changed since (docs/product.md#accept-and-sign).
  const postedVersion = Number((acceptReply?.result?.initialValue as { version?: string } | undefined)?.version ?? 0);
  const staleFrom =
    acceptReply && !acceptReply.ok && agreement.current && postedVersion > 0 && postedVersion < agreement.current.number
      ? postedVersion
      : undefined;
  const title = p.projectName || "Untitled project";
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <p className="text-sm">
        <Link to={`/proposals/${p.id}`} className="text-brand-700 underline">
          ← {title}
        </Link>
      </p>
      <header className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">Review and accept</h1>
        <p className="mt-1 text-sm text-slate-600 wrap-anywhere">{title}</p>
      </header>
      {acceptReply?.ok || declineReply?.ok ? (
        <p role="status" className="rounded-md border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
          {(acceptReply ?? declineReply)!.message}
        </p>
      ) : null}
      {staleFrom !== undefined ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950" data-testid="stale-version">
          <p className="font-medium">{acceptReply!.message}</p>
          {agreement.history.versions
            .filter((v) => v.number > staleFrom)
            .reverse()
            .map((v) => (
              <div key={v.number} className="mt-2">
                <p className="text-sm font-semibold">What changed in version {v.number}</p>
                <VersionChanges changes={v.changes} />
              </div>
            ))}
        </div>
      ) : null}
      {agreement.current ? (
        <OfferTerms version={agreement.current} headingId="offer-title" title="The agency's offer">
          {agreement.acceptance ? (
            <AcceptanceNotice proposalId={p.id} acceptance={agreement.acceptance} />
          ) : agreement.canAccept && !loaderData.canSign ? (
            <p className="mt-4 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800" role="status">
              Only an owner of {loaderData.organisationName ?? "your organisation"} can accept and sign this offer.
            </p>
          ) : agreement.canAccept ? (
            <>
              {loaderData.afterSigning ? (
                <p
                  className="mt-4 rounded-md border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-slate-900"
                  data-testid="after-signing"
                >
                  {loaderData.afterSigning}
                </p>
              ) : null}
              <AcceptForm
                key={agreement.current.number}
                version={agreement.current.number}
                sha256={agreement.current.sha256}
                constraint={loaderData.acceptForm}
                lastResult={acceptReply && staleFrom === undefined ? acceptReply.result : null}
              />
              {!p.clientDeclinedAt ? (
                <CommentForm
                  intent="decline-offer"
                  proposalId={p.id}
                  summary="Decline instead"
                  summaryClassName="mt-3 inline-flex cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
                  field={{ id: "decline-reason", label: "Why are you declining?", name: "reason", rows: 2, maxLength: 1_000 }}
                  error={declineReply && !declineReply.ok ? (declineReply.fieldErrors?.reason?.join(" ") ?? declineReply.message) : null}
                  submit={{
                    label: "Decline proposal",
                    pendingLabel: "Declining…",
                    className: "rounded-md bg-red-700 px-4 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-70",
                  }}
                />
              ) : null}
            </>
          ) : (
            <p className="mt-4 text-sm text-slate-700">This offer cannot be accepted now.</p>
          )}
        </OfferTerms>
      ) : (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">
          The agency has not sent an offer for this proposal yet. You will get an e-mail when it does.
        </p>
      )}
      <VersionHistory history={agreement.history} headingId="history-title" openFrom={staleFrom} />
    </div>
  );
}
