import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, ConfirmPanel, useConfirmTarget } from "#app/components/ui/confirm";
import { DataTable, Pager, useActionHref, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { ActionNotice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { invoiceSummary } from "#app/features/invoices/invoices.admin.server";
import { acceptMeeting, deleteMeeting, listMeetingRequests, type AdminMeetingRow } from "#app/features/meetings/meetings.admin.server";
import { countProposals } from "#app/features/proposals/proposals.admin.server";
import { countUsers } from "#app/features/users/users.server";
import { countUnreadMessages } from "#app/features/contact/inbox.server";
import { formatDateTime } from "#app/lib/dates";
import { formId, runIntent } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";
import { pageRequestFrom } from "#app/lib/pagination";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Admin Dashboard | Admin Console" }, { name: "robots", content: "noindex" }];

/** Counts, money totals and the meeting requests, newest first (spec §2 /admin). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const proposals = await countProposals(db, actor);
  const users = await countUsers(db, actor);
  const invoices = await invoiceSummary(db, actor);
  const meetings = await listMeetingRequests(db, actor, pageRequestFrom(params, { size: 10 }));
  const unreadMessages = await countUnreadMessages(db, actor);
  return { proposals, users, invoices, meetings, unreadMessages };
}

/** `accept-meeting` and `delete-meeting` (spec §4 Meeting status). */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  return runIntent(
    args,
    {
      "accept-meeting": async (form) => {
        await acceptMeeting(db, actor, formId(form, "meetingId"));
        return "Meeting accepted.";
      },
      "delete-meeting": async (form) => {
        await deleteMeeting(db, actor, formId(form, "meetingId"));
        return "Meeting deleted.";
      },
    },
    { target: "meetingId" },
  );
}

/** Every admin screen (spec §2 /admin "a tools list"). */
const TOOLS = [
  { to: "/admin/proposals", label: "Proposals", text: "Every proposal, status changes, invoices to generate." },
  { to: "/admin/invoices", label: "Invoices", text: "Paid, pending and overdue invoices; edit, mark paid, delete." },
  { to: "/admin/ambassadors", label: "Ambassador Dashboard", text: "Referrals and commissions owed and paid." },
  { to: "/admin/users", label: "Users", text: "Search, deactivate, reactivate or delete accounts." },
  { to: "/admin/messages", label: "Messages", text: "Contact-form messages: read, reply, mark handled, delete." },
  { to: "/admin/settings", label: "Settings", text: "Company details, new clients, commission rate." },
  { to: "/admin/audit", label: "Audit trail", text: "Who changed what and when, with the values before and after." },
  { to: "/admin/outbox", label: "Mail outbox", text: "Failed and pending e-mails; retry a failed one." },
] as const;

const STATUS_STYLES: Record<AdminMeetingRow["status"], string> = {
  pending: "bg-amber-100 text-amber-900",
  accepted: "bg-green-100 text-green-900",
  declined: "bg-red-100 text-red-900",
};

/** /admin: counts and money totals (cents formatted in USD), meeting requests, tools. */
export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { proposals, users, invoices, meetings, unreadMessages } = loaderData;
  const confirming = useConfirmTarget();
  const columns: Column<AdminMeetingRow>[] = [
    {
      header: "Requested time",
      cell: (m) => (
        <span className="whitespace-nowrap">
          {formatDateTime(m.startsAt, m.timeZone)}
          <span className="block text-xs text-slate-600">{m.timeZone}</span>
        </span>
      ),
    },
    {
      header: "Client",
      cell: (m) => (
        <span>
          {m.clientName}
          <span className="block text-xs break-all text-slate-600">{m.clientEmail}</span>
        </span>
      ),
    },
    { header: "Notes", cell: (m) => <span className="line-clamp-3 min-w-40">{m.notes || "—"}</span> },
    {
      header: "Status",
      cell: (m) => (
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[m.status]}`}>
          {m.status[0]!.toUpperCase() + m.status.slice(1)}
        </span>
      ),
    },
    { header: "Requested", cell: (m) => <LocalTime value={m.createdAt} /> },
    { header: <span className="sr-only">Actions</span>, cell: (m) => <MeetingActions meeting={m} /> },
  ];
  return (
    <>
      <PageHeading title="Admin Dashboard" lead="Everything at a glance." />
      <p
        className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 px-4 py-3"
        data-testid="unread-messages"
      >
        <span>
          <span className="text-lg font-bold">{unreadMessages.toLocaleString("en-US")}</span>{" "}
          {unreadMessages === 1 ? "unread contact message" : "unread contact messages"}
        </span>
        <Link to="/admin/messages" className="text-brand-700 underline">
          Open messages
        </Link>
      </p>
      <section aria-labelledby="counts-heading">
        <h2 id="counts-heading" className="sr-only">
          Counts
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Stat
            label="Proposals"
            value={proposals.total.toLocaleString("en-US")}
            detail={`${proposals.open.toLocaleString("en-US")} open`}
          />
          <Stat
            label="Users"
            value={users.total.toLocaleString("en-US")}
            detail={`${users.clients.toLocaleString("en-US")} clients · ${users.ambassadors.toLocaleString("en-US")} ambassadors`}
          />
          <Stat
            label="Invoices"
            value={invoices.count.toLocaleString("en-US")}
            detail={`${invoices.paidCount.toLocaleString("en-US")} paid · ${invoices.unpaidCount.toLocaleString("en-US")} unpaid`}
          />
          <Stat
            label="Unpaid"
            value={formatCents(invoices.unpaidCents)}
            detail={`of which overdue ${formatCents(invoices.overdueCents)} (${invoices.overdueCount.toLocaleString("en-US")})`}
          />
        </dl>
      </section>

      <section aria-labelledby="meetings-heading" className="mt-10">
        <h2 id="meetings-heading" className="mb-3 text-xl font-semibold">
          Meeting requests
        </h2>
        <ActionNotice result={actionData} className="mb-3" />
        <DataTable
          caption="Meeting requests, newest first"
          columns={columns}
          rows={meetings.items}
          rowKey={(m) => m.id}
          empty="No meeting requests yet."
          after={(m) =>
            confirming?.kind === "delete-meeting" && confirming.target === String(m.id) ? (
              <ConfirmPanel
                title={`Delete the meeting request of ${m.clientName}?`}
                intent="delete-meeting"
                fields={{ meetingId: m.id }}
                confirmLabel="Yes, delete meeting"
              >
                {formatDateTime(m.startsAt, m.timeZone)}. The client will no longer see it. This cannot be undone.
              </ConfirmPanel>
            ) : null
          }
        />
        <Pager page={meetings} noun="meeting requests" shown={meetings.items.length} />
      </section>

      <section aria-labelledby="tools-heading" className="mt-10">
        <h2 id="tools-heading" className="mb-3 text-xl font-semibold">
          Tools
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {TOOLS.map((tool) => (
            <li key={tool.to}>
              <Link
                to={tool.to}
                prefetch="intent"
                className="block h-full rounded-lg border border-slate-200 p-4 hover:border-brand-600 hover:bg-brand-50"
              >
                <span className="font-semibold text-brand-700">{tool.label}</span>
                <span className="mt-1 block text-sm text-slate-700">{tool.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900">{value}</dd>
      <dd className="text-sm text-slate-600">{detail}</dd>
    </div>
  );
}

/** Accept (one click) and Delete (after confirmation) for one meeting. */
function MeetingActions({ meeting }: { meeting: AdminMeetingRow }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  const accepting =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "accept-meeting" &&
    navigation.formData?.get("meetingId") === String(meeting.id);
  return (
    <div className="flex gap-2">
      {meeting.status === "accepted" ? null : (
        <Form method="post" action={actionHref} preventScrollReset>
          <input type="hidden" name="intent" value="accept-meeting" />
          <input type="hidden" name="meetingId" value={meeting.id} />
          <button
            type="submit"
            className={buttonClass("secondary")}
            disabled={accepting}
            aria-label={`Accept the meeting request of ${meeting.clientName}`}
          >
            {accepting ? "Accepting…" : "Accept"}
          </button>
        </Form>
      )}
      <ConfirmLink kind="delete-meeting" target={meeting.id} label={`Delete the meeting request of ${meeting.clientName}`}>
        Delete
      </ConfirmLink>
    </div>
  );
}
