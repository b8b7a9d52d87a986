import { Link } from "react-router";
import type { Route } from "./+types/messages";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { useIsConfirming } from "#app/components/ui/confirm";
import { DataTable, Pager, SearchBar, type Column } from "#app/components/ui/data-table";
import { ActionNotice } from "#app/components/ui/notice";
import { DeleteMessagePanel, MessageActions } from "#app/features/contact/components/message-actions";
import { inboxFiltersFrom, inboxIntents, listContactMessages } from "#app/features/contact/inbox.server";
import { runIntent } from "#app/lib/form-action.server";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Contact form | Admin Console" }, { name: "robots", content: "noindex" }];

/** The contact inbox, newest first: `?q=` search and keyset pages (docs/product.md#admin-messages). */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters } = await loadListPage(args, inboxFiltersFrom, listContactMessages);
  return { page: { ...page, items: page.items.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) }, q: filters.q ?? "" };
}

/** `handled`, `unhandled` and `delete-message` (after confirmation); each audited by the use-case. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, inboxIntents(db, actor), { target: "messageId" });
}

type Row = Route.ComponentProps["loaderData"]["page"]["items"][number];

/** /admin/messages: contact messages, unread in bold with a badge, handled/unhandled and delete. */
export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { page, q } = loaderData;
  const isConfirming = useIsConfirming();
  const columns: Column<Row>[] = [
    {
      header: "From",
      cell: (m) => (
        <div className="min-w-44">
          <p className={m.read ? "" : "font-semibold"}>
            <Link to={`/admin/messages/${m.id}`} className="underline underline-offset-2 hover:text-brand-700">
              {m.userName}
            </Link>
          </p>
          <p className="text-xs break-all text-slate-600">{m.userEmail}</p>
        </div>
      ),
    },
    {
      header: "Message",
      cell: (m) => <p className={`min-w-56 ${m.read ? "text-slate-700" : "font-semibold text-slate-900"}`}>{m.preview}</p>,
    },
    {
      header: "Received",
      cell: (m) => (
        <span className="whitespace-nowrap">
          <LocalTime value={m.createdAt} />
        </span>
      ),
    },
    {
      header: "Status",
      cell: (m) => (
        <div className="flex flex-col items-start gap-1" data-testid={`message-status-${m.id}`}>
          {m.read ? null : <Badge tone="blue">Unread</Badge>}
          {m.handled ? <Badge tone="green">Handled</Badge> : <Badge tone="gray">Not handled</Badge>}
        </div>
      ),
    },
    { header: <span className="sr-only">Actions</span>, cell: (m) => <MessageActions message={m} /> },
  ];
  return (
    <>
      <PageHeading title="Contact form" lead="What visitors sent through the contact form, newest first. Open one to read it whole." />
      <SearchBar label="Search by name, e-mail or text" defaultValue={q} placeholder="e.g. Ada or website" />
      <ActionNotice result={actionData} className="mb-4" />
      <DataTable
        caption="Contact messages, newest first"
        columns={columns}
        rows={page.items}
        rowKey={(m) => m.id}
        empty={q ? "No message matches this search." : "No messages yet. They appear here when someone uses the contact form."}
        after={(m) => (isConfirming("delete-message", m.id) ? <DeleteMessagePanel message={m} /> : null)}
      />
      <Pager page={page} noun="messages" shown={page.items.length} />
    </>
  );
}
