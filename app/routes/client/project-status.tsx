import { Form, Link } from "react-router";
import type { Route } from "./+types/project-status";
import { LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { PageNav } from "#app/components/ui/page-nav";
import { ConfirmAction } from "#app/components/ui/confirm";
import { ActionNotice, Notice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { CommentForm } from "#app/features/proposals/components/comment-form";
import { ProposalNextStep } from "#app/features/proposals/components/proposal-next-step";
import { ApprovalBadge, ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { revisionSchema } from "#app/features/proposals/proposals.schema";
import { PROPOSAL_LIMITS, PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { deleteProposal, listClientProposals, submitRevision, type ClientProposalRow } from "#app/features/proposals/proposals.server";
import { formId, parseInput, requireConfirmation, runIntent, type FormReply } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";
import { parsePageParam } from "#app/lib/pagination";
import { actorAndDb, requireUser } from "#app/features/users/session.server";
import { PROJECT_ROLES } from "#app/features/organisations/access.server";
import { requireOrganisationRoles } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Project Status | Client Portal" }];

/** Only for the roles whose area this is (docs/product.md#organisations: projects, conversations and meetings). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(PROJECT_ROLES)];

/** Messages for `?notice=` after a redirect here (a fixed list: nothing from the URL is echoed). */
const NOTICES: Record<string, string> = { updated: PROPOSAL_MESSAGES.updated };

/**
 * Project status (docs/product.md#project-status): the client's proposals, newest first, 20 per
 * page; `?completed=1` also shows completed ones (the Show Completed Projects toggle).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const url = new URL(request.url);
  const showCompleted = url.searchParams.get("completed") === "1";
  const list = await listClientProposals(db, requireUser(context), {
    includeCompleted: showCompleted,
    page: parsePageParam(url.searchParams.get("page")),
  });
  return { list, showCompleted, notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}

/**
 * Intents: `delete-proposal` (with `confirm=yes`), `submit-revision` (with a `comment`). The
 * reply's `target` is the posted proposal `id`.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    "delete-proposal": async (form) => {
      requireConfirmation(form);
      await deleteProposal(db, actor, formId(form));
      return PROPOSAL_MESSAGES.deleted;
    },
    "submit-revision": async (form) => {
      const id = formId(form);
      const { comment } = parseInput(revisionSchema, { comment: form.get("comment") ?? "" });
      await submitRevision(db, actor, id, comment);
      return PROPOSAL_MESSAGES.revisionsSubmitted;
    },
  });
}

/** Toggle, proposal cards with their allowed actions, pagination. */
export default function ProjectStatus({ loaderData, actionData }: Route.ComponentProps) {
  const { list, showCompleted, notice } = loaderData;
  const pageLink = (page: number) =>
    `?${new URLSearchParams({ ...(showCompleted ? { completed: "1" } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;
  return (
    <>
      <PageHeading title="Project Status" lead="Your proposals and the proposals your ambassador made for you.">
        <Form method="get">
          {showCompleted ? null : <input type="hidden" name="completed" value="1" />}
          <button
            type="submit"
            aria-pressed={showCompleted}
            className={`inline-flex items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium ${showCompleted ? "border-brand-700 bg-brand-50 text-brand-800" : "border-slate-300 text-slate-800 hover:bg-slate-50"}`}
          >
            <span
              aria-hidden="true"
              className={`inline-block h-4 w-7 rounded-full p-0.5 transition ${showCompleted ? "bg-brand-700" : "bg-slate-300"}`}
            >
              <span className={`block h-3 w-3 rounded-full bg-white transition ${showCompleted ? "translate-x-3" : ""}`} />
            </span>
            Show Completed Projects
          </button>
        </Form>
      </PageHeading>

      <div className="mb-4 space-y-2">
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {/* Field errors are shown next to their field instead. */}
        <ActionNotice result={actionData?.fieldErrors ? null : actionData} />
      </div>

      {list.items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <p className="text-slate-700">{list.total === 0 && !showCompleted ? "No active projects yet." : "No projects to show."}</p>
          <Link
            to="/proposal-request"
            className="mt-4 inline-block rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Request a proposal
          </Link>
        </div>
      ) : (
        <ul className="space-y-4" aria-label="Proposals">
          {list.items.map((p) => (
            <ProposalCard key={p.id} proposal={p} reply={actionData?.target === String(p.id) ? actionData : null} />
          ))}
        </ul>
      )}

      <PageNav
        page={list.page}
        pageCount={list.pageCount}
        href={pageLink}
        linkClassName="rounded-md border border-slate-300 px-3 py-2 hover:bg-slate-50"
      />
    </>
  );
}

function ProposalCard({ proposal: p, reply }: { proposal: ClientProposalRow; reply: FormReply | null }) {
  const title = p.projectName ?? "Untitled project";
  const headingId = `proposal-${p.id}-title`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-slate-200 p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold wrap-anywhere">
            <Link to={`/proposals/${p.id}`} className="text-brand-700 underline">
              {title}
            </Link>
          </h2>
          <p className="text-sm text-slate-600">
            {p.source === "ambassador" ? `Proposed by your ambassador${p.ambassadorName ? ` ${p.ambassadorName}` : ""}` : "Your request"} ·{" "}
            <LocalDateTime value={p.createdAt} style="date" />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ProposalStatusBadge status={p.status} />
          {p.source === "ambassador" ? <ApprovalBadge approvedAt={p.clientApprovedAt} declinedAt={p.clientDeclinedAt} /> : null}
        </div>
      </div>
      <ProposalNextStep proposal={p} className="mt-2" />
      <p className="mt-2 line-clamp-3 wrap-anywhere whitespace-pre-line text-slate-800">{p.projectDetails}</p>
      <p className="mt-1 text-sm">
        <Link to={`/proposals/${p.id}`} className="text-brand-700 underline">
          Read in full<span className="sr-only">: {title}</span>
        </Link>
      </p>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
        {p.budgetCents !== null ? (
          <div className="flex gap-1">
            <dt>Budget:</dt>
            <dd className="font-medium">{formatCents(p.budgetCents)}</dd>
          </div>
        ) : null}
        {p.timeline ? (
          <div className="flex gap-1">
            <dt>Timeline:</dt>
            <dd className="font-medium">{p.timeline}</dd>
          </div>
        ) : null}
      </dl>
      {p.revisionComment ? (
        <p className="mt-2 text-sm text-slate-700">
          <span className="font-medium">Your revision request:</span> <span className="whitespace-pre-line">{p.revisionComment}</span>
        </p>
      ) : null}
      {p.declineReason ? (
        <p className="mt-2 text-sm text-slate-700">
          <span className="font-medium">You declined:</span> {p.declineReason}
        </p>
      ) : null}

      <div className="mt-3 flex flex-wrap items-start gap-2">
        {p.allowed.edit ? (
          <Link
            to={`/edit-proposal/${p.id}`}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Edit<span className="sr-only"> {title}</span>
          </Link>
        ) : null}
        {p.invoiceId !== null ? (
          <Link
            to={`/view-invoice/${p.invoiceId}`}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            View invoice
          </Link>
        ) : null}
        {p.allowed.approve ? (
          <Link
            to="/client-dashboard"
            className="rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
          >
            Review and approve
          </Link>
        ) : null}
        {p.allowed.delete ? (
          <ConfirmAction
            intent="delete-proposal"
            id={p.id}
            label="Delete"
            subject={title}
            question="Delete this proposal? This cannot be undone."
            confirmLabel="Yes, delete"
          />
        ) : null}
      </div>
      {p.allowed.revise ? <RevisionForm proposalId={p.id} reply={reply?.intent === "submit-revision" ? reply : null} /> : null}
    </li>
  );
}

/** Revision comment (docs/product.md#proposals-revision): offered while the proposal is in review. */
function RevisionForm({ proposalId, reply }: { proposalId: number; reply: FormReply | null }) {
  const error = reply && !reply.ok ? (reply.fieldErrors?.comment?.join(" ") ?? reply.message) : null;
  return (
    <CommentForm
      intent="submit-revision"
      proposalId={proposalId}
      summary="Request revisions"
      summaryClassName="cursor-pointer text-sm font-medium text-brand-700 underline"
      detailsClassName="mt-3"
      field={{
        id: `revision-${proposalId}`,
        label: "What should we change?",
        name: "comment",
        rows: 3,
        maxLength: PROPOSAL_LIMITS.longText,
      }}
      error={error}
      submit={{
        label: "Submit revisions",
        pendingLabel: "Submitting…",
        className: "rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-70",
      }}
      // After a successful submission the comment is shown on the card: empty the form.
      clearAfter={reply}
    />
  );
}
