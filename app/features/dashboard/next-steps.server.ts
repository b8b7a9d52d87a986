/**
 * "What is next" on the dashboards (docs/product.md#client-dashboard, docs/product.md#admin-dashboard):
 * one server function per side returning a list of items, so that each area adds what waits for
 * someone in ONE place. Each item says what waits, in words, and links to where it is done.
 *
 * Sources today: the client's proposals (approval, review, the agency's next step), invoices
 * (overdue, due), meetings (upcoming, declined); the admin's new requests, revision requests,
 * meeting requests, overdue invoices and unread contact messages; unread conversation messages on
 * both sides (docs/product.md#conversations).
 */
import { openUnappliedPaymentsCountQuery } from "#app/features/payments/unapplied.server";
import { and, count, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { countsInOne } from "#app/db/counts.server";
import { readTally, tallyCount } from "#app/db/tally.server";
import { billingPlan, meeting, paymentScheduleLine, proposal } from "#app/db/schema";
import { clientCanPay } from "#app/features/invoices/client-can-pay.server";
import { unreadMessagesCountQuery } from "#app/features/contact/inbox.server";
import { countUnread } from "#app/features/conversations/unread.server";
import { invoiceSummary, type InvoiceSummary } from "#app/features/invoices/invoices.admin.server";
import { clientInvoiceOverview } from "#app/features/invoices/invoices.server";
import { listUpcomingClientMeetings, type ClientMeetingRow } from "#app/features/meetings/meetings.server";
import { DASHBOARD_OPEN_ROWS, listClientProposalRows } from "#app/features/proposals/proposals.server";
import { proposalNextStep } from "#app/features/proposals/status-next-step";
import { agencyToday, upcomingPayments } from "#app/features/agreements/payment-schedule.server";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { assertRole, type Actor } from "#app/features/users/actor";
import { cappedCountOf, countOf, formatDate, formatMoney, formatTime, MEETING_STATUS_LABELS } from "#app/lib/vocabulary";

/** One thing that waits for someone. */
export interface NextStep {
  /** Stable key, e.g. `invoice-12`. */
  key: string;
  /** `action`: waits for the viewer; `info`: what happens next, or what is coming. */
  kind: "action" | "info";
  /** What waits, e.g. "Invoice INV-2026-0003 is overdue". */
  title: string;
  /** One sentence more (amount, date, what happens after), or "". */
  text: string;
  /** Where it is done. */
  href: string;
  /** The link's words, e.g. "View and pay". */
  cta: string;
}

/** The client's dashboard head: the first steps of a new client, or what waits now. */
export interface ClientNextSteps {
  /** True until the client has any proposal: the dashboard leads with "Request your first proposal". */
  firstTime: boolean;
  items: NextStep[];
}

/** How many items the client's list shows at most (the most urgent first). */
const CLIENT_STEP_LIMIT = 6;

/**
 * What waits for the client, most urgent first (docs/product.md#client-dashboard): overdue and
 * due invoices, ambassador proposals to approve, work to review, a declined meeting request, the
 * next meeting; when nothing waits for them, what the agency does next on their newest project.
 *
 * @param now - the current instant.
 * @param upcomingMeetings - the caller's own read of {@link listUpcomingClientMeetings} at `now`,
 *   when it has one (the dashboard lists them too: one statement, not two).
 * @throws {AppError} 403 unless a client.
 */
export async function clientNextSteps(
  db: Queryable,
  actor: Actor,
  now: Date = new Date(),
  upcomingMeetings?: Promise<{ upcoming: ClientMeetingRow[] }>,
): Promise<ClientNextSteps> {
  assertRole(actor, "client");
  const [proposals, invoices, meetings, unreadMessages] = await Promise.all([
    listClientProposalRows(db, actor, { includeCompleted: false, limit: DASHBOARD_OPEN_ROWS }),
    clientInvoiceOverview(db, actor, now).then((overview) => overview.rows),
    upcomingMeetings ?? listUpcomingClientMeetings(db, actor, now),
    countUnread(db, actor),
  ]);
  if (proposals.length === 0) {
    const anyEver = await listClientProposalRows(db, actor, { includeCompleted: true, limit: 1 });
    if (anyEver.length === 0) return { firstTime: true, items: [] };
  }
  const items: NextStep[] = [];

  // Invoices: overdue first, then the ones still due (earliest due date first).
  const isOverdue = (s: string) => s === "overdue" || s === "partial-overdue";
  const unpaid = invoices
    .filter((i) => i.balanceCents > 0)
    .sort((a, b) =>
      isOverdue(a.displayStatus) === isOverdue(b.displayStatus) ? a.dueDate.localeCompare(b.dueDate) : isOverdue(a.displayStatus) ? -1 : 1,
    );
  for (const inv of unpaid) {
    const overdue = isOverdue(inv.displayStatus);
    // #37: a deposit still due comes first, in its own words, with what remains after it.
    const deposit = inv.depositCents ?? 0;
    if (deposit > 0 && inv.paidCents < deposit) {
      const now = Math.min(deposit - inv.paidCents, inv.balanceCents);
      items.push({
        key: `invoice-${inv.id}`,
        kind: "action",
        title: `Pay your deposit${inv.projectName ? ` for “${inv.projectName}”` : ""}`,
        text: `Pay ${formatMoney(now)} now (deposit).${inv.balanceCents > now ? ` The remaining ${formatMoney(inv.balanceCents - now)} is due by ${formatDate(inv.dueDate)}.` : ""}`,
        href: `/view-invoice/${inv.id}`,
        cta: "Pay the deposit",
      });
      continue;
    }
    items.push({
      key: `invoice-${inv.id}`,
      kind: "action",
      title: overdue ? `Invoice ${inv.number} is overdue` : `Invoice ${inv.number} is due ${formatDate(inv.dueDate)}`,
      text: `${formatMoney(inv.balanceCents)}${inv.balanceCents < inv.totalCents ? " left to pay" : ""}${inv.projectName ? ` for ${inv.projectName}` : ""}${overdue ? `, due ${formatDate(inv.dueDate)}` : ""}.`,
      href: `/view-invoice/${inv.id}`,
      cta: "View invoice",
    });
  }

  // #37: what comes next on each project's payment schedule ("Milestone 2 … is due on …").
  for (const next of await upcomingPayments(db, proposals, currencyOf(await getSettings(db)))) {
    items.push({
      key: `schedule-${next.proposalId}`,
      kind: "info",
      title: `Next payment${next.projectName ? ` for “${next.projectName}”` : ""}`,
      text: next.text,
      href: proposalHref(next.proposalId),
      cta: "See the schedule",
    });
  }

  // The agency's messages the client has not read yet.
  if (unreadMessages > 0) {
    items.push({
      key: "unread-messages",
      kind: "action",
      title: cappedCountOf(unreadMessages, "unread message"),
      text: "From the agency, in your projects' conversations.",
      href: "/messages",
      cta: "Read",
    });
  }

  // Proposals that wait for the client: approve an ambassador's, review the work.
  for (const p of proposals) {
    const step = proposalNextStep(p);
    if (step.waitsFor !== "client") continue;
    const name = p.projectName ?? "Untitled project";
    items.push({
      key: `proposal-${p.id}`,
      kind: "action",
      title:
        p.status === "review"
          ? `Review “${name}”`
          : p.status === "awaiting_acceptance"
            ? `Accept or decline the offer for “${name}”`
            : `Approve or decline “${name}”`,
      text: step.text,
      href: proposalHref(p.id),
      cta: p.status === "review" ? "Open the project" : "Read the proposal",
    });
  }

  // Meetings: a declined request to re-book, then the next meeting.
  const declined = meetings.upcoming.find((m) => m.status === "declined");
  if (declined) {
    items.push({
      key: `meeting-declined-${declined.id}`,
      kind: "action",
      title: "Your meeting request was declined",
      text: `The agency could not meet on ${formatTime(declined.startsAt, declined.timeZone)}. Choose another time.`,
      href: "/meetings/book",
      cta: "Book another time",
    });
  }
  const next = meetings.upcoming.find((m) => m.status === "pending" || m.status === "accepted");
  if (next) {
    items.push({
      key: `meeting-${next.id}`,
      kind: "info",
      title: `Meeting on ${formatTime(next.startsAt, next.timeZone)}`,
      text:
        next.status === "pending"
          ? "Waiting for the agency's confirmation."
          : `${MEETING_STATUS_LABELS.accepted}: add it to your calendar.`,
      href: "/meetings",
      cta: "Your meetings",
    });
  }

  // Nothing waits for the client: say what the agency does next on the newest open project.
  if (!items.some((i) => i.kind === "action")) {
    const newest = proposals[0];
    if (newest) {
      items.push({
        key: `proposal-${newest.id}`,
        kind: "info",
        title: `“${newest.projectName ?? "Untitled project"}”`,
        text: proposalNextStep(newest).text,
        href: proposalHref(newest.id),
        cta: "Open the project",
      });
    }
  }
  return { firstTime: false, items: items.slice(0, CLIENT_STEP_LIMIT) };
}

/** Where a proposal is read in full: the client's proposal page (docs/product.md#proposal-pages). */
function proposalHref(id: number): string {
  return `/proposals/${id}`;
}

/**
 * What waits for the agency (docs/product.md#admin-dashboard), each count a link to the filtered
 * list: new requests (client requests pending, ambassador proposals submitted), revision requests
 * (in review with a revision comment), meeting requests awaiting an answer, overdue invoices,
 * unread contact messages, card payments kept aside (issue #36). Items with a zero count are left out.
 *
 * @param invoiceTotals - the caller's own {@link invoiceSummary} at `now`, when it has one (the
 *   dashboard shows the totals too: one read, not two).
 * @param cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`): without it and
 *   without payment instructions, the invoices held back (#37) are named first.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function adminNextSteps(
  db: Queryable,
  actor: Actor,
  now: Date = new Date(),
  invoiceTotals?: InvoiceSummary,
  cardPayments = false,
): Promise<NextStep[]> {
  assertRole(actor, "admin");
  // #37: schedule lines and billing-plan cycles due while the client could not pay are held back.
  // The settings are this request's (memoised): no statement.
  const heldBackFrom = (await clientCanPay(db, cardPayments)) ? null : await agencyToday(db, now);
  // Issue #42: every count of this section in one statement (each query stays its feature's).
  const [byStatus, invoices, unreadConversations, counts] = await Promise.all([
    readTally(db, "proposal"),
    invoiceTotals ?? invoiceSummary(db, actor, now),
    countUnread(db, actor),
    countsInOne(db, {
      // Through the partial index proposal_revision_requested_idx (its predicate, written out).
      revisions: db
        .select({ n: count() })
        .from(proposal)
        .where(sql`${proposal.status} = 'review' and ${proposal.revisionComment} <> ''`),
      meetingRequests: db
        .select({ n: count() })
        .from(meeting)
        .where(and(eq(meeting.status, "pending"), gt(meeting.startsAt, now))),
      unread: unreadMessagesCountQuery(db, actor),
      cardPaymentsToReview: openUnappliedPaymentsCountQuery(db),
      ...heldBackCountQueries(db, heldBackFrom),
    }),
  ]);
  const { revisions, meetingRequests, unread, cardPaymentsToReview } = counts;
  const heldBack = counts.heldBackLines + counts.heldBackPlans;
  const statusCount = (s: string) => tallyCount(byStatus, (bucket) => bucket === s);
  const steps: (NextStep & { n: number })[] = [
    {
      n: heldBack,
      key: "invoices-held-back",
      kind: "action",
      title: `${countOf(heldBack, "invoice")} waiting for your payment instructions`,
      text: "Payment schedules or billing plans are due, but card payments are not set up and clients would not know how to pay. Add your bank details: the invoices go out then.",
      href: "/admin/settings/payments#payment-instructions",
      cta: "Add instructions",
    },
    {
      n: statusCount("pending"),
      key: "new-requests",
      kind: "action",
      title: countOf(statusCount("pending"), "new proposal request"),
      text: "Pending: answer or move them on.",
      href: "/admin/proposals?status=pending",
      cta: "Open",
    },
    {
      n: statusCount("submitted"),
      key: "ambassador-proposals",
      kind: "action",
      title: countOf(statusCount("submitted"), "ambassador proposal"),
      text: "Submitted by ambassadors.",
      href: "/admin/proposals?status=submitted",
      cta: "Open",
    },
    {
      n: revisions,
      key: "revision-requests",
      kind: "action",
      title: countOf(revisions, "revision request"),
      text: "Clients asked for changes during review.",
      href: "/admin/proposals?status=review",
      cta: "Open",
    },
    {
      n: meetingRequests,
      key: "meeting-requests",
      kind: "action",
      title: countOf(meetingRequests, "meeting request"),
      text: "Accept or decline them.",
      href: "/admin/meetings?show=awaiting",
      cta: "Open",
    },
    {
      n: invoices.overdueCount,
      key: "overdue-invoices",
      kind: "action",
      title: countOf(invoices.overdueCount, "overdue invoice"),
      text: `${formatMoney(invoices.overdueCents)} overdue.`,
      href: "/admin/invoices?status=overdue",
      cta: "Open",
    },
    {
      n: cardPaymentsToReview,
      key: "card-payments-to-review",
      kind: "action",
      title: `${countOf(cardPaymentsToReview, "card payment")} to review`,
      text: "Paid in another currency, above the balance or with nothing due: kept aside, not applied.",
      href: "/admin/card-payments",
      cta: "Review",
    },
    {
      n: unreadConversations,
      key: "unread-conversations",
      kind: "action",
      title: cappedCountOf(unreadConversations, "unread client message"),
      text: "In the proposals' conversations.",
      href: "/admin/conversations",
      cta: "Open",
    },
    {
      n: unread,
      key: "unread-messages",
      kind: "action",
      title: countOf(unread, "unread contact message"),
      text: "From the public contact form.",
      href: "/admin/messages",
      cta: "Open",
    },
  ];
  return steps.filter((s) => s.n > 0).map(({ n: _n, ...step }) => step);
}

/**
 * #37: the invoices held back because the client could not pay them — schedule lines and
 * billing-plan cycles due on `today` or earlier (agency time zone) while neither card payments nor
 * payment instructions exist — as two unexecuted counts (their jobs issue them as soon as one does).
 *
 * @param today - the agency's date, `YYYY-MM-DD`; null when the client can pay (nothing is held
 *   back: neither count is sent).
 */
function heldBackCountQueries(db: Queryable, today: string | null) {
  if (today === null) return { heldBackLines: null, heldBackPlans: null };
  return {
    heldBackLines: db
      .select({ n: count() })
      .from(paymentScheduleLine)
      .where(and(isNull(paymentScheduleLine.issuedAt), lte(paymentScheduleLine.dueOn, today))),
    heldBackPlans: db
      .select({ n: count() })
      .from(billingPlan)
      .where(and(eq(billingPlan.status, "active"), lte(billingPlan.nextCycleOn, today))),
  };
}
