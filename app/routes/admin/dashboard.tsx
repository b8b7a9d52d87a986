import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { PageHeading } from "#app/components/page-heading";
import { Toast } from "#app/components/ui/toast";
import { useFormatMoney } from "#app/components/money";
import { AdminMeetingTable } from "#app/features/meetings/components/admin-meeting-table";
import { NextSteps } from "#app/features/dashboard/components/next-steps";
import { adminNextSteps } from "#app/features/dashboard/next-steps.server";
import { invoiceSummary } from "#app/features/invoices/invoices.admin.server";
import { adminMeetingIntents, listUpcomingMeetingFirstPages } from "#app/features/meetings/meetings.admin.server";
import { countProposals } from "#app/features/proposals/proposals.admin.server";
import { countUsers } from "#app/features/users/users.server";
import { runIntent } from "#app/lib/form-action.server";
import { storageUsed } from "#app/features/files/uploads.server";
import { formatBytes } from "#app/features/files/file-kinds";
import { filesContext } from "#app/features/files/files-context";
import { actorAndDb } from "#app/features/users/session.server";
import { readTallies } from "#app/db/tally.server";
import { countOf } from "#app/lib/vocabulary";
import { listCaseStudiesForAdmin } from "#app/features/portfolio/case-studies.server";
import { setupChecklist, type SetupStep } from "#app/features/dashboard/setup-checklist.server";
import { servicesContext } from "#app/context";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";

export const meta: Route.MetaFunction = () => [{ title: "Admin Dashboard | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * How many meeting requests and upcoming meetings the dashboard lists, soonest first (each list in
 * full on /admin/meetings): ten rows with their actions keep the page light at agency scale.
 */
const DASHBOARD_MEETINGS = 10;

/**
 * What waits for the agency first, then counts and money totals, the meeting requests awaiting an
 * answer and the upcoming meetings (docs/product.md#admin-dashboard).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const now = new Date();
  // The counts below come from the tallies: one statement reads them all for this request (the
  // invoices' balance due is summed apart, in invoiceSummary).
  await readTallies(db, ["invoice", "proposal", "user"]);
  // One read of the invoice totals for the next steps and the money cards.
  const invoices = await invoiceSummary(db, actor, now);
  const next = await adminNextSteps(db, actor, now, invoices, cardPaymentsEnabled(context.get(servicesContext).env));
  const proposals = await countProposals(db, actor);
  const users = await countUsers(db, actor);
  // The requests awaiting an answer and the accepted meetings: one statement for both lists.
  const { pending, accepted: upcoming } = await listUpcomingMeetingFirstPages(db, actor, DASHBOARD_MEETINGS);
  const storage = { ...(await storageUsed(db, actor)), kind: context.get(filesContext).kind };
  // Issue #40: which case studies bring proposal requests ("Start a project like this").
  const caseStudyRequests = (await listCaseStudiesForAdmin(db, actor)).filter((cs) => cs.requests > 0);
  // Issue #41: the first-run checklist, until every step is done.
  const setup = await setupChecklist(db, actor, context.get(servicesContext).env);
  return { next, proposals, users, invoices, pending, upcoming, storage, caseStudyRequests, setup };
}

/** `accept-meeting`, `decline-meeting`, `cancel-meeting` and `delete-meeting` (docs/product.md#meetings-admin). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, adminMeetingIntents(db, actor), { target: "meetingId" });
}

/** /admin: what waits, compact counts, the meeting requests and upcoming meetings (the sidebar is the navigation, issue #41). */
export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { next, proposals, users, invoices, pending, upcoming, storage, caseStudyRequests, setup } = loaderData;
  const money = useFormatMoney();
  return (
    <>
      <PageHeading title="Admin Dashboard" lead="What waits for you, then everything at a glance." />
      <SetupChecklist steps={setup} />
      <NextSteps id="waiting-heading" title="Waiting for you" items={next} empty="Nothing waits for you right now." />
      <p className="mt-6 rounded-lg border border-slate-200 px-4 py-3 text-sm" data-testid="storage-used">
        Shared files: <span className="font-semibold">{storage.files.toLocaleString("en-US")}</span> using{" "}
        <span className="font-semibold">{formatBytes(storage.bytes)}</span> ({storage.kind === "s3" ? "S3 bucket" : "database"})
      </p>
      <section aria-labelledby="counts-heading" className="mt-6">
        <h2 id="counts-heading" className="sr-only">
          Counts
        </h2>
        <dl className="grid grid-cols-2 gap-2 sm:gap-4 lg:grid-cols-4" data-testid="admin-counts">
          <Stat
            label="Proposals"
            value={proposals.total.toLocaleString("en-US")}
            detail={`${proposals.open.toLocaleString("en-US")} open`}
          />
          <Stat
            label="Users"
            value={users.total.toLocaleString("en-US")}
            detail={`${countOf(users.clients, "client")} · ${countOf(users.ambassadors, "ambassador")}`}
          />
          <Stat
            label="Invoices"
            value={invoices.count.toLocaleString("en-US")}
            detail={`${invoices.paidCount.toLocaleString("en-US")} paid · ${invoices.unpaidCount.toLocaleString("en-US")} unpaid`}
          />
          <Stat
            label="Unpaid"
            value={money(invoices.unpaidCents)}
            detail={`of which overdue ${money(invoices.overdueCents)} (${invoices.overdueCount.toLocaleString("en-US")})`}
          />
        </dl>
      </section>

      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />

      <DashboardSection id="pending-heading" title="Meeting requests awaiting an answer">
        <AdminMeetingTable
          caption="Meeting requests awaiting an answer, soonest first"
          rows={pending.items}
          empty="No meeting request awaits an answer."
        />
        {pending.total > pending.items.length ? (
          <p className="mt-2 text-sm text-slate-700">
            Showing the {pending.items.length} soonest of {pending.total.toLocaleString("en-US")}.{" "}
            <Link to="/admin/meetings?show=awaiting" className="text-brand-700 underline">
              All meeting requests
            </Link>
          </p>
        ) : null}
      </DashboardSection>

      <DashboardSection id="upcoming-heading" title="Upcoming meetings">
        <AdminMeetingTable caption="Accepted meetings still ahead, soonest first" rows={upcoming.items} empty="No upcoming meetings." />
        <p className="mt-2 text-sm">
          <Link to="/admin/meetings?show=upcoming" className="text-brand-700 underline">
            All upcoming meetings
          </Link>
          {" · "}
          <Link to="/admin/meetings?show=past" className="text-brand-700 underline">
            Past meetings
          </Link>
        </p>
      </DashboardSection>

      <DashboardSection id="case-study-requests-heading" title="Requests from case studies">
        {caseStudyRequests.length ? (
          <ul className="flex flex-col gap-1" data-testid="case-study-requests">
            {caseStudyRequests.map((cs) => (
              <li key={cs.id}>
                <Link to={`/admin/case-studies/${cs.id}`} className="text-brand-700 underline">
                  {cs.title}
                </Link>
                : {countOf(cs.requests, "proposal request")}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">No proposal request came through “Start a project like this” yet.</p>
        )}
      </DashboardSection>
    </>
  );
}

/** A count: compact on a phone (two per row), four in a row from 1024 px. */
function Stat({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 px-3 py-2 sm:p-4">
      <dt className="text-xs font-medium text-slate-600 sm:text-sm">{label}</dt>
      <dd className="text-lg font-bold tracking-tight text-slate-900 sm:mt-1 sm:text-2xl">{value}</dd>
      <dd className="text-xs text-slate-600 sm:text-sm">{detail}</dd>
    </div>
  );
}

/** One of the dashboard's lists below the counts: a section named by its h2. */
function DashboardSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="mb-3 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The first-run checklist (issue #41): each step a link to its form, ticked once the settings say
 * it is done; gone when all are.
 */
function SetupChecklist({ steps }: { steps: SetupStep[] }) {
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <section aria-labelledby="setup-heading" className="mb-8 rounded-lg border border-slate-300 p-4" data-testid="setup-checklist">
      <h2 id="setup-heading" className="text-xl font-semibold">
        Set up your agency
      </h2>
      <p className="mt-1 text-sm text-slate-700" data-testid="setup-progress">
        {done} of {steps.length} done. Each step ticks itself once it is saved.
      </p>
      <ol className="mt-3 flex flex-col gap-2">
        {steps.map((step) => (
          <li key={step.id} className="flex items-start gap-3" data-testid={`setup-${step.id}`} data-done={step.done}>
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full border text-xs font-bold ${
                step.done ? "border-green-700 bg-green-700 text-white" : "border-slate-500 text-transparent"
              }`}
            >
              ✓
            </span>
            <div className="min-w-0">
              <Link to={step.href} className={`font-medium underline ${step.done ? "text-slate-700" : "text-brand-700"}`}>
                {step.label}
              </Link>
              <span className="sr-only">{step.done ? " — done" : " — to do"}</span>
              <p className="text-sm text-slate-700">{step.why}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
