import { Link } from "react-router";
import type { Route } from "./+types/proposal";
import { LocalDateTime } from "#app/components/local-time";
import { servicesContext } from "#app/context";
import { ProposalRequestDetails } from "#app/features/proposals/components/proposal-request-details";
import { ApprovalBadge, ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { ProposalNextStep } from "#app/features/proposals/components/proposal-next-step";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { paramId } from "#app/lib/ids";
import { requireUser } from "#app/features/users/session.server";
import { Conversation } from "#app/features/conversations/components/conversation";
import { loadConversation } from "#app/features/conversations/conversation-page.server";
import { conversationAction } from "#app/features/conversations/thread-route.server";
import { runIntent } from "#app/lib/form-action.server";
import { getClientProposalWithAgreement } from "#app/features/agreements/offers.server";
import { listScheduleLines } from "#app/features/agreements/payment-schedule.server";
import { ScheduleLines } from "#app/features/agreements/components/schedule-lines";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { OfferTerms } from "#app/features/agreements/components/offer-terms";
import { AcceptanceNotice } from "#app/features/agreements/components/acceptance-notice";
import { VersionHistory } from "#app/features/agreements/components/version-history";
import { ConversationBilling } from "#app/features/conversations/components/conversation-billing";
import { hasOrganisationRole, PROJECT_ROLES } from "#app/features/organisations/access.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${(data && ("proposal" in data ? data.proposal.projectName : data.thread.label)) || "Proposal"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/**
 * The client's proposal page (docs/product.md#proposal-pages): a proposal of their organisation in
 * full, or 404 "Proposal not found" for anyone else's. A billing person an owner added to its
 * conversation (ADR 022) sees the conversation only; an owner sees who of billing takes part.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const actor = requireUser(context);
  const id = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  if (!hasOrganisationRole(actor, PROJECT_ROLES))
    return { conversationOnly: true as const, ...(await loadConversation({ request, context }, id)) };
  return {
    conversationOnly: false as const,
    ...(await getClientProposalWithAgreement(db, actor, id)),
    // The conversation, the client's mute and the billing people an owner may add to it.
    ...(await loadConversation({ request, context }, id, { billing: true })),
    // #37: the accepted offer's payment schedule (read after the proposal's access check above).
    schedule: await listScheduleLines(db, id),
    currency: currencyOf(await getSettings(db)),
  };
}

/**
 * The conversation's post, edit and delete (docs/product.md#conversations). Accepting and declining
 * the offer post to `/proposals/:id/accept`.
 */
export async function action(args: Route.ActionArgs) {
  const id = paramId(args.params.proposalId, PROPOSAL_MESSAGES.notFound);
  return (await conversationAction(args, id)) ?? runIntent(args, {});
}

/** Heading with status, what the client can do next, then the request in full. */
export default function ClientProposal({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.conversationOnly) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-6">
        <p className="text-sm">
          <Link to="/messages" className="text-brand-700 underline">
            ← Messages
          </Link>
        </p>
        <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{loaderData.thread.label}</h1>
        <Conversation
          thread={loaderData.thread}
          reply={actionData}
          maxUploadMb={loaderData.maxUploadMb}
          submissionKey={loaderData.submissionKey}
          muted={loaderData.muted}
        />
      </div>
    );
  }
  const { proposal: p, allowed, agreement } = loaderData;
  const title = p.projectName || "Untitled project";
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <p className="text-sm">
        <Link to="/project-status" className="text-brand-700 underline">
          ← Project Status
        </Link>
      </p>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {p.source === "ambassador" ? `Proposed by your ambassador${p.ambassador ? ` ${p.ambassador.name}` : ""}` : "Your request"} ·{" "}
            <LocalDateTime value={p.createdAt} style="date" />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ProposalStatusBadge status={p.status} />
          {p.source === "ambassador" ? <ApprovalBadge approvedAt={p.clientApprovedAt} declinedAt={p.clientDeclinedAt} /> : null}
        </div>
      </header>
      <ProposalNextStep proposal={p} />
      {allowed.edit || p.invoices.length > 0 || allowed.approve ? (
        <div className="flex flex-wrap gap-2">
          {allowed.edit ? (
            <Link
              to={`/edit-proposal/${p.id}`}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Edit request
            </Link>
          ) : null}
          {p.invoices.map((inv) => (
            <Link
              key={inv.id}
              to={`/view-invoice/${inv.id}`}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              View invoice {inv.number}
            </Link>
          ))}
          {allowed.approve ? (
            <Link
              to={`/proposals/${p.id}/accept`}
              className="rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
            >
              Review and accept
            </Link>
          ) : null}
        </div>
      ) : null}
      <p className="text-sm">
        <Link to={`/meetings/book?proposalId=${p.id}`} className="text-brand-700 underline">
          Book a meeting about this project
        </Link>
      </p>
      {agreement.current ? (
        <ScheduleLines lines={loaderData.schedule} currency={loaderData.currency} audience="client" headingId="schedule-title" />
      ) : null}
      {agreement.current ? (
        <OfferTerms version={agreement.current} headingId="offer-title" title="The agency's offer">
          {agreement.acceptance ? (
            <AcceptanceNotice proposalId={p.id} acceptance={agreement.acceptance} />
          ) : agreement.canAccept ? (
            <Link
              to={`/proposals/${p.id}/accept`}
              className="mt-4 inline-flex rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800"
            >
              Review and accept version {agreement.current.number}
            </Link>
          ) : null}
        </OfferTerms>
      ) : null}
      <ProposalRequestDetails request={p} headingId="request-title" title={p.source === "ambassador" ? "The proposal" : "Your request"} />
      <VersionHistory history={agreement.history} headingId="history-title" />
      <Conversation
        thread={loaderData.thread}
        reply={actionData}
        maxUploadMb={loaderData.maxUploadMb}
        submissionKey={loaderData.submissionKey}
        muted={loaderData.muted}
      />
      {loaderData.billing.length > 0 ? <ConversationBilling people={loaderData.billing} reply={actionData} /> : null}
    </div>
  );
}
