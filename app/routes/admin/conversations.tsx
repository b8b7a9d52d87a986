import type { Route } from "./+types/conversations";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { BreakableText } from "#app/components/ui/breakable-text";
import { DataTable, ListLink, Pager, SearchBar, type Column } from "#app/components/ui/data-table";
import { UnreadBadge } from "#app/features/conversations/components/unread-badge";
import { listConversations, type InboxRow } from "#app/features/conversations/inbox.server";
import { loadListPage } from "#app/features/users/session.server";
import { searchFiltersFrom } from "#app/lib/pagination";

export const meta: Route.MetaFunction = () => [{ title: "Messages | Admin Console" }, { name: "robots", content: "noindex" }];

/** The conversation inbox (docs/product.md#conversations-inbox): unread first, newest activity first, `?q=` and keyset pages. */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters } = await loadListPage(args, searchFiltersFrom, listConversations);
  return { page, q: filters.q ?? "" };
}

/** /admin/conversations: every proposal conversation, with its unread client messages. */
export default function AdminConversations({ loaderData }: Route.ComponentProps) {
  const { page, q } = loaderData;
  const columns: Column<InboxRow>[] = [
    {
      header: "Project",
      cell: (row) => (
        <div className="min-w-48 wrap-anywhere">
          <ListLink
            to={`/admin/proposals/${row.id}#conversation`}
            className={`text-brand-700 underline ${row.unread ? "font-semibold" : ""}`}
          >
            {row.projectName}
          </ListLink>
          <UnreadBadge count={row.unread} testId={`inbox-unread-${row.id}`} />
        </div>
      ),
    },
    {
      header: "Client",
      cell: (row) => (
        <div className="min-w-40">
          <p>{row.clientName ?? "—"}</p>
          <BreakableText className="block text-xs text-slate-600" text={row.clientEmail ?? "—"} />
        </div>
      ),
    },
    {
      header: "Latest",
      cell: (row) => (
        <div className="min-w-56">
          <p className="text-xs text-slate-600">
            {row.lastAuthor} {row.lastInternal ? <Badge tone="amber">Internal note</Badge> : null}
          </p>
          <p className={row.unread ? "font-semibold text-slate-900" : "text-slate-700"}>{row.preview || <em>Message deleted</em>}</p>
        </div>
      ),
    },
    {
      header: "Activity",
      cell: (row) => (
        <span className="whitespace-nowrap">
          <LocalTime value={row.lastActivityAt} />
        </span>
      ),
    },
  ];
  return (
    <>
      <PageHeading title="Messages" lead="Conversations with clients about their proposals: unread first, then the newest activity." />
      <SearchBar label="Search by client or project" defaultValue={q} placeholder="e.g. bakery or jane@example.com" />
      <DataTable
        caption="Conversations, unread first"
        columns={columns}
        rows={page.items}
        rowKey={(row) => row.id}
        empty={
          q
            ? "No conversation matches this search."
            : "No messages yet. Conversations appear here when a client or an admin writes on a proposal."
        }
      />
      <Pager page={page} noun="conversations" shown={page.items.length} />
    </>
  );
}
