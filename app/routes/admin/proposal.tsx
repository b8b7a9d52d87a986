import { Link } from "react-router";
import type { Route } from "./+types/proposal";
import { LocalDateTime } from "#app/components/local-time";
import { BreakableText } from "#app/components/ui/breakable-text";
import { buttonClass } from "#app/components/ui/button";
import { DetailItem } from "#app/components/ui/detail-item";
import { ProposalRequestDetails } from "#app/features/proposals/components/proposal-request-details";
import { StatusForm, StatusToast } from "#app/features/proposals/components/proposal-status-form";
import { ApprovalBadge, ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { getProposalForAdmin } from "#app/features/proposals/proposal-detail.server";
import { proposalStatusIntents } from "#app/features/proposals/proposal-status-intents.server";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { runIntent } from "#app/lib/form-action.server";
import { getOfferForAdmin } from "#app/features/agreements/offers.server";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";
import { listRemindersFor } from "#app/features/reminders/admin-reminders.server";
import { RemindersPanel } from "#app/features/reminders/components/reminders-panel";
import { Conversation } from "#app/features/conversations/components/conversation";
import { loadConversation } from "#app/features/conversations/conversation-page.server";
import { conversationAction } from "#app/features/conversations/thread-route.server";
import { OfferTerms } from "#app/features/agreements/components/offer-terms";
import { portfolioLinksOf } from "#app/features/portfolio/case-studies.server";
import { listScheduleLines, markMilestoneReached } from "#app/features/agreements/payment-schedule.server";
import { ScheduleLines } from "#app/features/agreements/components/schedule-lines";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { formId, requireConfirmation } from "#app/lib/form-action.server";
import { servicesContext } from "#app/context";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.proposal.projectName || "Proposal"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** The admin's proposal page (docs/product.md#proposal-pages): every field of the request, the parties and the invoice. */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const id = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  const proposal = await getProposalForAdmin(db, actor, id);
  return {
    proposal,
    offer: await getOfferForAdmin(db, actor, id),
    ...(await loadConversation({ request, context }, id)),
    // docs/product.md#reminders-admin
    reminders: await listRemindersFor(db, actor, "proposal", id),
    // Issue #40: the case study it came from, and the one drafted from it.
    portfolio: await portfolioLinksOf(db, actor, id),
    // #37: the accepted offer's payment schedule, with "Mark milestone reached".
    schedule: await listScheduleLines(db, id),
    currency: currencyOf(await getSettings(db)),
  };
}

/**
 * `set-status` / `undo-status`, as on the proposal list (docs/product.md#proposals-admin-status), and
 * the conversation's posts. The offer is written on `/admin/proposals/:id/offer`.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const id = paramId(args.params.proposalId, PROPOSAL_MESSAGES.notFound);
  return (
    (await conversationAction(args, id)) ??
    runIntent(
      args,
      {
        ...proposalStatusIntents(db, actor),
        // #37: a milestone reached makes its line due: its invoice is issued and mailed now (audited).
        "mark-milestone": async (form) => {
          requireConfirmation(form, "Confirm that the milestone is reached first.");
          return (
            await markMilestoneReached(db, actor, id, formId(form, "id"), undefined, {
              cardPayments: cardPaymentsEnabled(args.context.get(servicesContext).env),
            })
          ).message;
        },
      },
      { target: "proposalId" },
    )
  );
}

/** Heading with status, the parties and invoice, then the request in full. */
export default function AdminProposal({ loaderData, actionData }: Route.ComponentProps) {
  const { proposal: p, offer } = loaderData;
  const title = p.projectName || `Proposal #${p.id}`;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <p className="text-sm">
        <Link to="/admin/proposals" className="text-brand-700 underline">
          ← All proposals
        </Link>
      </p>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            #{p.id} · {p.source === "ambassador" ? "Submitted by an ambassador" : "Requested by the client"} ·{" "}
            <LocalDateTime value={p.createdAt} />
            {loaderData.portfolio.source ? (
              <span data-testid="proposal-source">
                {" · "}From the case study{" "}
                <Link className="text-brand-700 underline" to={`/admin/case-studies/${loaderData.portfolio.source.id}`}>
                  {loaderData.portfolio.source.title}
                </Link>
              </span>
            ) : null}
          </p>
          {p.status === "completed" ? (
            <p className="mt-2">
              <Link className={buttonClass("secondary")} to={`/admin/proposals/${p.id}/case-study`}>
                Make a case study draft
              </Link>
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <ProposalStatusBadge status={p.status} />
          {p.source === "ambassador" ? <ApprovalBadge approvedAt={p.clientApprovedAt} declinedAt={p.clientDeclinedAt} /> : null}
        </div>
      </header>
      <StatusToast reply={actionData} />

      <section aria-labelledby="overview-title" className="rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        <h2 id="overview-title" className="sr-only">
          Overview
        </h2>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <DetailItem label="Client">
            {p.client.name ?? "—"}
            {p.client.email ? <BreakableText className="block text-xs font-normal text-slate-600" text={p.client.email} /> : null}
            {p.client.id ? null : <span className="block text-xs font-normal text-amber-800">Not registered yet</span>}
          </DetailItem>
          <DetailItem label="Ambassador">
            {p.ambassador ? (
              <>
                {p.ambassador.name}
                <BreakableText className="block text-xs font-normal text-slate-600" text={p.ambassador.email} />
              </>
            ) : (
              "None"
            )}
          </DetailItem>
          <DetailItem label={p.invoices.length > 1 ? "Invoices" : "Invoice"}>
            {p.invoices.length > 0 ? (
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                {p.invoices.map((inv) => (
                  <Link key={inv.id} className="text-brand-700 underline" to={`/admin/invoices/edit/${inv.id}`}>
                    {inv.number}
                  </Link>
                ))}
                <Link className="text-sm font-normal text-brand-700 underline" to={`/admin/generate-invoice/${p.id}`}>
                  Generate another
                </Link>
              </span>
            ) : p.client.id ? (
              <Link className={buttonClass("secondary")} to={`/admin/generate-invoice/${p.id}`}>
                Generate Invoice
              </Link>
            ) : (
              <span className="font-normal text-slate-600">After the client registers</span>
            )}
          </DetailItem>
        </dl>
        <div className="mt-4">
          <h3 className="mb-1 text-sm text-slate-600">Status</h3>
          <StatusForm proposal={p} />
        </div>
      </section>

      <ProposalRequestDetails
        request={p}
        headingId="request-title"
        title={p.source === "ambassador" ? "The ambassador's proposal" : "The client's request"}
      />
      {offer.current ? (
        <OfferTerms version={offer.current} headingId="offer-current-title" title="Sent to the client">
          <p className="mt-4 text-sm font-medium" data-testid="offer-acceptance">
            {offer.acceptance
              ? `Accepted by ${offer.acceptance.typedName} (version ${offer.acceptance.versionNumber}).`
              : `Waiting for the client's acceptance of version ${offer.current.number}.`}
            {offer.acceptance ? (
              <>
                {" "}
                <a
                  className="text-brand-700 underline"
                  href={`/admin/proposals/${p.id}/certificate/${offer.acceptance.certificateId}`}
                  download
                >
                  Certificate of acceptance (PDF)
                </a>{" "}
                ·{" "}
                <a className="text-brand-700 underline" href={`/verify/${offer.acceptance.certificateId}`}>
                  Verify page
                </a>
              </>
            ) : null}
          </p>
        </OfferTerms>
      ) : null}
      <ScheduleLines lines={loaderData.schedule} currency={loaderData.currency} audience="admin" headingId="schedule-title" />
      <section aria-labelledby="offer-title" className="min-w-0 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        <h2 id="offer-title" className="text-xl font-semibold">
          Offer
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="offer-state">
          {offer.current
            ? offer.unsentChanges
              ? `The client has version ${offer.current.number}; a draft with changes is not sent yet.`
              : `The client has version ${offer.current.number}${offer.history.versions.length > 1 ? ` (${offer.history.versions.length} versions sent)` : ""}.`
            : "No offer sent yet: the client sees nothing until you send one."}
        </p>
        <Link className={`${buttonClass("secondary")} mt-3`} to={`/admin/proposals/${p.id}/offer`}>
          {offer.current ? "Change the offer" : "Write the offer"}
        </Link>
      </section>
      <Conversation
        thread={loaderData.thread}
        reply={actionData}
        maxUploadMb={loaderData.maxUploadMb}
        submissionKey={loaderData.submissionKey}
      />
      <RemindersPanel kind="proposal" id={p.id} history={loaderData.reminders} />
    </div>
  );
}
