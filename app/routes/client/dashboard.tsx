import { getProposalForClient } from "#app/features/proposals/proposal-detail.server";
import { conflict } from "#app/lib/errors";
import { AGREEMENT_MESSAGES } from "#app/features/agreements/agreements.messages";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { ClientConversationsCard } from "#app/features/conversations/components/client-conversations-card";
import { listClientConversations } from "#app/features/conversations/client-conversations.server";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { CardSection } from "#app/components/ui/card-section";
import { buttonClass } from "#app/components/ui/button";
import { ActionNotice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { clientInvoiceOverview, type ClientBalance } from "#app/features/invoices/invoices.server";
import { nextPayment, type NextPayment } from "#app/features/invoices/next-payment";
import { upcomingPayments } from "#app/features/agreements/payment-schedule.server";
import { DASHBOARD_OPEN_ROWS, listClientProposalRows } from "#app/features/proposals/proposals.server";
import { getSettings } from "#app/features/settings/settings.server";
import { CommentForm } from "#app/features/proposals/components/comment-form";
import { ClientMeetingList } from "#app/features/meetings/components/client-meeting-list";
import { listUpcomingClientMeetings } from "#app/features/meetings/meetings.server";
import { clientNextSteps } from "#app/features/dashboard/next-steps.server";
import { FirstSteps, NextSteps } from "#app/features/dashboard/components/next-steps";
import { declineSchema } from "#app/features/proposals/proposals.schema";
import { PROPOSAL_LIMITS, PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { declineProposal, listAwaitingApproval, type ClientProposalRow } from "#app/features/proposals/proposals.server";
import { getReferringAmbassador } from "#app/features/referrals/referrals.server";
import { formId, parseInput, requireConfirmation, runIntent, type FormReply } from "#app/lib/form-action.server";
import { cancelMeeting } from "#app/features/meetings/booking.server";
import { BOOKING_MESSAGES } from "#app/features/meetings/meetings.messages";
import { currencyOf, formatCents } from "#app/lib/money";
import { requireUser } from "#app/features/users/session.server";
import { countOf } from "#app/lib/vocabulary";
import { listMyTestimonials } from "#app/features/portfolio/testimonials.server";
import { clientPlanPreviews } from "#app/features/billing/client-plans.server";
import { PlanPreview } from "#app/features/billing/components/plan-preview";

export const meta: Route.MetaFunction = () => [{ title: "Client Dashboard | Client Portal" }];

/**
 * Client dashboard (docs/product.md#client-dashboard): what is next (a new client's first step),
 * the balance, the next meetings, info card, ambassador proposals awaiting approval.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const actor = requireUser(context);
  const now = new Date();
  // One read of the upcoming meetings for the list and the next steps.
  const upcomingMeetings = listUpcomingClientMeetings(db, actor, now);
  const [ambassador, awaiting, meetings, balance, settings, next, conversations, testimonials, plans, upcoming] = await Promise.all([
    getReferringAmbassador(db, actor),
    listAwaitingApproval(db, actor),
    upcomingMeetings,
    // The balance card's sums come with the next steps' invoice rows (one statement, read once).
    clientInvoiceOverview(db, actor, now).then((overview) => overview.balance),
    getSettings(db),
    clientNextSteps(db, actor, now, upcomingMeetings),
    listClientConversations(db, actor),
    // Issue #40: testimonials asked of an owner when a project was completed (not yet written).
    listMyTestimonials(db, actor),
    // #39: what the organisation's plans bill next, when and how (money roles only).
    clientPlanPreviews(db, actor),
    // #37: the next line of each open project's payment schedule, for the balance's "Next due".
    (async () =>
      upcomingPayments(
        db,
        await listClientProposalRows(db, actor, { includeCompleted: false, limit: DASHBOARD_OPEN_ROWS }),
        currencyOf(await getSettings(db)),
      ))(),
  ]);
  // What the person's role in the organisation covers (docs/product.md#organisations): the use-cases
  // return nothing outside it; the page leaves those cards out.
  const role = actor.organisationRole ?? "owner";
  return {
    projects: role !== "billing",
    money: role !== "member",
    profile: {
      businessName: actor.organisationName ?? actor.businessName ?? actor.name,
      email: actor.email,
      phone: actor.phone,
      website: actor.website,
    },
    ambassador,
    awaiting,
    upcoming: meetings.upcoming.filter((m) => m.status !== "cancelled").slice(0, UPCOMING_SHOWN),
    changeCutoffHours: meetings.changeCutoffHours,
    supportEmail: settings.supportEmail,
    balance,
    nextPayment: nextPayment(balance, upcoming),
    currency: settings.currency,
    next,
    conversations,
    testimonialRequests: testimonials.filter((t) => !t.submittedAt).map((t) => ({ id: t.id, projectName: t.projectName })),
    plans,
  };
}

/** How many upcoming meetings the dashboard shows (all of them on /meetings). */
const UPCOMING_SHOWN = 3;

/**
 * Intents: `cancel-meeting` (with `confirm=yes`), `approve-proposal`, `decline-proposal` (with a
 * `reason`). The reply's `target` is the posted `id` (meeting or proposal).
 */
export async function action(args: Route.ActionArgs) {
  const { db } = args.context.get(servicesContext);
  const actor = requireUser(args.context);
  return runIntent(args, {
    "cancel-meeting": async (form) => {
      requireConfirmation(form, "Confirm the cancellation first.");
      await cancelMeeting(db, actor, formId(form));
      return BOOKING_MESSAGES.cancelled;
    },
    // One-click approval is replaced by accept and sign on the proposal's page (docs/product.md#accept-and-sign).
    "approve-proposal": async (form) => {
      const { proposal: found } = await getProposalForClient(db, actor, formId(form));
      if (found.clientApprovedAt) return PROPOSAL_MESSAGES.alreadyApproved;
      throw conflict(AGREEMENT_MESSAGES.useAcceptAndSign);
    },
    "decline-proposal": async (form) => {
      const id = formId(form);
      const { reason } = parseInput(declineSchema, { reason: form.get("reason") ?? "" });
      await declineProposal(db, actor, id, reason);
      return PROPOSAL_MESSAGES.declined;
    },
  });
}

/** What is next first (a new client's first step), then balance, meetings, info card and proposals awaiting approval. */
export default function ClientDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, ambassador, awaiting, upcoming, changeCutoffHours, supportEmail, balance, currency, next, projects, money } = loaderData;
  const pageReply = actionData && !actionData.fieldErrors ? actionData : null;
  return (
    <>
      <PageHeading title="Client Dashboard" lead={`Welcome, ${profile.businessName}.`} />
      <div className="mb-4">
        <ActionNotice result={pageReply} />
      </div>
      {loaderData.testimonialRequests.length ? (
        <section aria-labelledby="testimonial-requests" className="mb-6 rounded-xl border border-brand-200 bg-brand-50 p-4">
          <h2 id="testimonial-requests" className="font-semibold">
            How did it go?
          </h2>
          <ul className="mt-2 flex flex-col gap-1">
            {loaderData.testimonialRequests.map((t) => (
              <li key={t.id}>
                {t.projectName} is complete.{" "}
                <Link to={`/testimonials/${t.id}`} className="font-semibold text-brand-700 underline">
                  Write a testimonial<span className="sr-only"> about {t.projectName}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="mb-6">
        {next.firstTime ? (
          <FirstSteps />
        ) : (
          <NextSteps
            id="next-title"
            title="What's next"
            items={next.items}
            empty="Nothing waits for you right now. We will e-mail you when something does."
          />
        )}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          {next.firstTime || !money ? null : <BalanceCard balance={balance} next={loaderData.nextPayment} currency={currency} />}
          {money ? <PlanPreview plans={loaderData.plans} currency={currency} /> : null}
          {projects ? (
            <CardSection id="meetings-title" title="Your next meetings">
              <ClientMeetingList
                meetings={upcoming}
                label="Your next meetings"
                empty="No meetings booked."
                changeCutoffHours={changeCutoffHours}
                supportEmail={supportEmail}
              />
              <p className="mt-4 flex flex-wrap items-center gap-4">
                <Link to="/meetings/book" className={buttonClass("secondary", "md")}>
                  Book a meeting
                </Link>
                <Link to="/meetings" className="text-brand-700 underline underline-offset-4">
                  All meetings
                </Link>
              </p>
            </CardSection>
          ) : null}
          <CardSection id="info-title" title="Your information">
            <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
              <dt className="text-slate-600">Business</dt>
              <dd className="font-medium wrap-anywhere">{profile.businessName}</dd>
              <dt className="text-slate-600">Email</dt>
              <dd className="font-medium wrap-anywhere">{profile.email}</dd>
              <dt className="text-slate-600">Phone</dt>
              <dd className="font-medium">{profile.phone ?? "—"}</dd>
              <dt className="text-slate-600">Website</dt>
              <dd className="font-medium wrap-anywhere">
                {profile.website ? (
                  <a className="text-brand-700 underline" href={profile.website} target="_blank" rel="noopener noreferrer">
                    {profile.website}
                  </a>
                ) : (
                  "—"
                )}
              </dd>
              <dt className="text-slate-600">Ambassador</dt>
              <dd className="font-medium">{ambassador?.name ?? "None"}</dd>
            </dl>
          </CardSection>
        </div>

        {projects ? (
          <div className="flex min-w-0 flex-col gap-6">
            <CardSection id="awaiting-title" title="Proposals awaiting your approval">
              {awaiting.length === 0 ? (
                <p className="mt-3 text-slate-600">Nothing to approve right now.</p>
              ) : (
                <ul className="mt-4 space-y-4">
                  {awaiting.map((p) => (
                    <AwaitingProposal key={p.id} proposal={p} reply={actionData?.target === String(p.id) ? actionData : null} />
                  ))}
                </ul>
              )}
            </CardSection>

            <ClientConversationsCard rows={loaderData.conversations} />
          </div>
        ) : null}
      </div>
    </>
  );
}

/**
 * What the client owes (docs/product.md#client-dashboard): outstanding, of which overdue, and what is
 * due next — an invoice's date, else the next line of a payment schedule (#37), never a bare "—".
 */
function BalanceCard({ balance, next, currency }: { balance: ClientBalance; next: NextPayment; currency: string }) {
  const money = (cents: number) => formatCents(cents, currency);
  return (
    <CardSection id="balance-title" title="Your balance">
      <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-600">Outstanding</dt>
        <dd className="text-lg font-bold tabular-nums" data-testid="balance-outstanding">
          {money(balance.outstandingCents)}
          <span className="ml-2 text-sm font-normal text-slate-600">{countOf(balance.outstandingCount, "unpaid invoice")}</span>
        </dd>
        <dt className="text-slate-600">Overdue</dt>
        <dd className={`font-semibold tabular-nums ${balance.overdueCount ? "text-red-800" : ""}`} data-testid="balance-overdue">
          {balance.overdueCount ? `${money(balance.overdueCents)} (${countOf(balance.overdueCount, "invoice")})` : "Nothing overdue"}
        </dd>
        <dt className="text-slate-600">Next due</dt>
        <dd className="font-medium wrap-anywhere" data-testid="balance-next-due">
          {next.kind === "date" ? <LocalDate value={next.date} /> : next.text}
        </dd>
      </dl>
      <p className="mt-4">
        <Link to="/invoices" className="font-medium text-brand-700 underline underline-offset-4">
          See all invoices
        </Link>
      </p>
    </CardSection>
  );
}

/** An ambassador proposal offered for approval (docs/product.md#proposals-approval), or for decline with a reason. */
function AwaitingProposal({ proposal: p, reply }: { proposal: ClientProposalRow; reply: FormReply | null }) {
  const headingId = `awaiting-${p.id}-title`;
  const reasonId = `decline-${p.id}-reason`;
  const reasonError = reply?.intent === "decline-proposal" && !reply.ok ? (reply.fieldErrors?.reason?.join(" ") ?? null) : null;
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-4">
      <h3 id={headingId} className="font-semibold wrap-anywhere">
        {p.projectName ?? "Untitled project"}
      </h3>
      <p className="text-sm text-slate-600">
        From {p.ambassadorName ?? "your ambassador"} · <LocalDateTime value={p.createdAt} style="date" />
        {p.budgetCents !== null ? ` · Budget ${formatCents(p.budgetCents)}` : ""}
      </p>
      <p className="mt-2 wrap-anywhere whitespace-pre-line text-slate-800">{p.projectDetails}</p>
      <div className="mt-3 flex flex-wrap items-start gap-2">
        <Link
          to={`/proposals/${p.id}/accept`}
          className="rounded-md bg-green-700 px-4 py-1.5 text-sm font-semibold text-white hover:bg-green-800"
        >
          Review and accept
        </Link>
        <CommentForm
          intent="decline-proposal"
          proposalId={p.id}
          summary="Decline"
          summaryClassName="inline-flex cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
          field={{ id: reasonId, label: "Why are you declining?", name: "reason", rows: 2, maxLength: PROPOSAL_LIMITS.reason }}
          error={reasonError}
          submit={{
            label: "Decline proposal",
            pendingLabel: "Declining…",
            className: "rounded-md bg-red-700 px-4 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-70",
          }}
        />
      </div>
    </li>
  );
}
