import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard";
import { PageHeading } from "#app/components/page-heading";
import { ConfirmLink, ConfirmPanel, useConfirmTarget } from "#app/components/ui/confirm";
import { DataTable, Pager, useActionHref, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { Toast } from "#app/components/ui/toast";
import { RowMenu, ROW_MENU_ITEM } from "#app/components/ui/row-menu";
import { BreakableText } from "#app/components/ui/breakable-text";
import { useFormatMoney } from "#app/components/money";
import { MeetingStatusBadge } from "#app/features/meetings/components/meeting-status-badge";
import { invoiceSummary } from "#app/features/invoices/invoices.admin.server";
import {
  acceptMeeting,
  declineMeeting,
  deleteMeeting,
  listMeetingRequests,
  listPendingMeetingRequests,
  type AdminMeetingRow,
} from "#app/features/meetings/meetings.admin.server";
import { countProposals } from "#app/features/proposals/proposals.admin.server";
import { countUsers } from "#app/features/users/users.server";
import { countUnreadMessages } from "#app/features/contact/inbox.server";
import { storageUsed } from "#app/features/files/uploads.server";
import { formatBytes } from "#app/features/files/file-kinds";
import { servicesContext } from "#app/context";
import { formId, runIntent } from "#app/lib/form-action.server";
import { pageRequestFrom } from "#app/lib/pagination";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Admin Dashboard | Admin Console" }, { name: "robots", content: "noindex" }];

/** Counts, money totals and the meeting requests, newest first (docs/product.md#admin-dashboard). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const params = new URL(request.url).searchParams;
  const proposals = await countProposals(db, actor);
  const users = await countUsers(db, actor);
  const invoices = await invoiceSummary(db, actor);
  const pending = await listPendingMeetingRequests(db, actor);
  const meetings = await listMeetingRequests(db, actor, pageRequestFrom(params, { size: 10 }));
  const unreadMessages = await countUnreadMessages(db, actor);
  const storage = { ...(await storageUsed(db, actor)), kind: context.get(servicesContext).files.kind };
  return { proposals, users, invoices, pending, meetings, unreadMessages, storage };
}

/** `accept-meeting`, `decline-meeting` (pending requests still ahead only) and `delete-meeting` (docs/product.md#meetings-admin). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      "accept-meeting": async (form) => {
        await acceptMeeting(db, actor, formId(form, "meetingId"));
        return "Meeting accepted.";
      },
      "decline-meeting": async (form) => {
        await declineMeeting(db, actor, formId(form, "meetingId"));
        return "Meeting declined.";
      },
      "delete-meeting": async (form) => {
        await deleteMeeting(db, actor, formId(form, "meetingId"));
        return "Meeting deleted.";
      },
    },
    { target: "meetingId" },
  );
}

/** Every admin screen (docs/product.md#admin-dashboard). */
const TOOLS = [
  { to: "/admin/proposals", label: "Proposals", text: "Every proposal, status changes, invoices to generate." },
  { to: "/admin/invoices", label: "Invoices", text: "Paid, pending and overdue invoices; edit, mark paid, delete." },
  { to: "/admin/ambassadors", label: "Ambassador Dashboard", text: "Referrals and commissions owed and paid." },
  { to: "/admin/users", label: "Users", text: "Search, deactivate, reactivate or delete accounts." },
  { to: "/admin/conversations", label: "Messages", text: "Conversations with clients about their proposals, unread first." },
  { to: "/admin/messages", label: "Contact form", text: "Contact-form messages: read, reply, mark handled, delete." },
  { to: "/admin/settings", label: "Settings", text: "Company details, new clients, commission rate." },
  { to: "/admin/audit", label: "Audit trail", text: "Who changed what and when, with the values before and after." },
  { to: "/admin/outbox", label: "Mail outbox", text: "Failed and pending e-mails; retry a failed one." },
] as const;

/** /admin: counts and money totals (in the settings' currency), meeting requests (awaiting an answer first), tools. */
export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { proposals, users, invoices, pending, meetings, unreadMessages, storage } = loaderData;
  const money = useFormatMoney();
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
      <p className="mb-4 rounded-lg border border-slate-200 px-4 py-3 text-sm" data-testid="storage-used">
        Shared files: <span className="font-semibold">{storage.files.toLocaleString("en-US")}</span> using{" "}
        <span className="font-semibold">{formatBytes(storage.bytes)}</span> ({storage.kind === "s3" ? "S3 bucket" : "database"})
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
            value={money(invoices.unpaidCents)}
            detail={`of which overdue ${money(invoices.overdueCents)} (${invoices.overdueCount.toLocaleString("en-US")})`}
          />
        </dl>
      </section>

      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />

      <DashboardSection id="pending-heading" title="Meeting requests awaiting an answer">
        <MeetingTable
          caption="Meeting requests awaiting an answer, soonest first"
          rows={pending.items}
          empty="No meeting request awaits an answer."
          answerable
        />
        {pending.total > pending.items.length ? (
          <p className="mt-2 text-sm text-slate-700">
            Showing the {pending.items.length} soonest of {pending.total.toLocaleString("en-US")}.
          </p>
        ) : null}
      </DashboardSection>

      <DashboardSection id="meetings-heading" title="Answered and past meeting requests">
        <MeetingTable
          caption="Answered and past meeting requests, newest first"
          rows={meetings.items}
          empty="No other meeting requests yet."
        />
        <Pager page={meetings} noun="meeting requests" shown={meetings.items.length} />
      </DashboardSection>

      <DashboardSection id="tools-heading" title="Tools">
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
      </DashboardSection>
    </>
  );
}

/** @returns true when the meeting's time has passed (or cannot be shown). */
function isPast(meeting: AdminMeetingRow): boolean {
  return !meeting.startsAt || new Date(meeting.startsAt).getTime() <= Date.now();
}

/**
 * One meeting list: time in the viewer's zone (and the client's, when it differs), client, notes,
 * status (with "Past" once the time has gone by) and the actions.
 */
function MeetingTable({
  caption,
  rows,
  empty,
  answerable = false,
}: {
  caption: string;
  rows: AdminMeetingRow[];
  empty: string;
  answerable?: boolean;
}) {
  const confirming = useConfirmTarget();
  const columns: Column<AdminMeetingRow>[] = [
    {
      header: "Requested time",
      cell: (m) => (
        <span>
          <LocalTime value={m.startsAt} />
          <span className="block text-xs text-slate-600">
            Client&apos;s time: <LocalTime value={m.startsAt} timeZone={m.timeZone} /> ({m.timeZone})
          </span>
        </span>
      ),
    },
    {
      header: "Client",
      cell: (m) => (
        <span className="wrap-text block max-w-xs">
          {m.clientName}
          <BreakableText className="block text-xs text-slate-600" text={m.clientEmail} />
        </span>
      ),
    },
    { header: "Notes", cell: (m) => <span className="wrap-text line-clamp-3 max-w-xs">{m.notes || "—"}</span> },
    { header: "Status", cell: (m) => <MeetingStatusBadge status={m.status} past={isPast(m)} /> },
    { header: "Requested", cell: (m) => <LocalTime value={m.createdAt} /> },
    { header: <span className="sr-only">Actions</span>, label: "", cell: (m) => <MeetingActions meeting={m} answerable={answerable} /> },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(m) => m.id}
      empty={empty}
      after={(m) =>
        confirming?.kind === "delete-meeting" && confirming.target === String(m.id) ? (
          <ConfirmPanel
            title={`Delete the meeting request of ${m.clientName}?`}
            intent="delete-meeting"
            fields={{ meetingId: m.id }}
            confirmLabel="Yes, delete meeting"
          >
            <LocalTime value={m.startsAt} />. The client will no longer see it. This cannot be undone.
          </ConfirmPanel>
        ) : null
      }
    />
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

/**
 * Accept and Decline (one click each, pending requests still ahead only) and Delete (after a
 * confirmation); three actions fold into one Actions menu.
 */
function MeetingActions({ meeting, answerable }: { meeting: AdminMeetingRow; answerable: boolean }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  const busy = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("meetingId") === String(meeting.id);
  const deleteLink = (className?: string) => (
    <ConfirmLink
      kind="delete-meeting"
      target={meeting.id}
      className={className}
      label={`Delete the meeting request of ${meeting.clientName}`}
    >
      Delete
    </ConfirmLink>
  );
  if (!answerable || meeting.status !== "pending" || isPast(meeting)) return deleteLink();
  const answer = (intent: "accept-meeting" | "decline-meeting", label: string, pendingLabel: string) => (
    <Form method="post" action={actionHref} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="meetingId" value={meeting.id} />
      <button type="submit" className={ROW_MENU_ITEM} disabled={busy(intent)}>
        {busy(intent) ? pendingLabel : label}
      </button>
    </Form>
  );
  return (
    <RowMenu name={`the meeting request of ${meeting.clientName}`}>
      <li>{answer("accept-meeting", "Accept", "Accepting…")}</li>
      <li>{answer("decline-meeting", "Decline", "Declining…")}</li>
      <li>{deleteLink(`${ROW_MENU_ITEM} text-red-800`)}</li>
    </RowMenu>
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
