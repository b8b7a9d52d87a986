import type { Route } from "./+types/proposals";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, ExportCsvLink, FilterSelect, ListLink, Pager, SearchBar, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { BreakableText } from "#app/components/ui/breakable-text";
import { PROPOSAL_STATUSES } from "#app/db/enums";
import { listProposalsForAdmin, type AdminProposalRow } from "#app/features/proposals/proposals.admin.server";
import { proposalListFiltersFrom } from "#app/features/proposals/proposals.admin.schema";
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import { StatusForm, StatusToast } from "#app/features/proposals/components/proposal-status-form";
import { proposalStatusIntents } from "#app/features/proposals/proposal-status-intents.server";
import { runIntent } from "#app/lib/form-action.server";
import { useFormatMoney } from "#app/components/money";
import { UnreadBadge } from "#app/features/conversations/components/unread-badge";
import { unreadByProposal } from "#app/features/conversations/unread.server";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Proposals | Admin Console" }, { name: "robots", content: "noindex" }];

/** Every proposal (docs/product.md#admin-proposals): `?status=`, `?q=` and keyset cursors, all server-side. */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters, actor, db } = await loadListPage(args, proposalListFiltersFrom, listProposalsForAdmin);
  const unread = await unreadByProposal(
    db,
    actor,
    page.items.map((p) => p.id),
  );
  return { page, status: filters.status ?? "", q: filters.q ?? "", unread };
}

/**
 * `set-status`: any of the five admin statuses, applied by an explicit Save (never on selection),
 * answered with an Undo offer; `undo-status`: the reverse change (docs/product.md#proposals-admin-status).
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, proposalStatusIntents(db, actor), { target: "proposalId" });
}

const statusOptions = [
  { value: "", label: "All statuses" },
  ...PROPOSAL_STATUSES.map((s) => ({ value: s, label: PROPOSAL_STATUS_LABELS[s] })),
];

/** /admin/proposals: search, status filter, and per row the status dropdown and the invoice link. */
export default function AdminProposals({ loaderData, actionData }: Route.ComponentProps) {
  const { page, q, status, unread } = loaderData;
  const money = useFormatMoney();
  const columns: Column<AdminProposalRow>[] = [
    {
      header: "Project",
      cell: (p) => (
        <div className="min-w-48">
          <ListLink to={`/admin/proposals/${p.id}`} className="font-medium text-brand-700 underline">
            {p.projectName || `Proposal #${p.id}`}
          </ListLink>
          <UnreadBadge count={unread[p.id] ?? 0} testId={`proposal-unread-${p.id}`} />
          <p className="line-clamp-2 text-xs text-slate-600">{p.projectDetails}</p>
          <p className="text-xs text-slate-500">
            #{p.id} · <LocalTime value={p.createdAt} />
          </p>
        </div>
      ),
    },
    {
      header: "Client",
      cell: (p) => (
        <div className="min-w-40">
          <p>{p.clientName ?? "—"}</p>
          <BreakableText className="block text-xs text-slate-600" text={p.clientEmail ?? "—"} />
          {p.clientHasAccount ? null : <p className="text-xs text-amber-800">Not registered yet</p>}
        </div>
      ),
    },
    {
      header: "Source",
      cell: (p) =>
        p.source === "ambassador" ? (
          <span>
            Ambassador
            {p.ambassadorName ? <span className="block text-xs text-slate-600">{p.ambassadorName}</span> : null}
          </span>
        ) : (
          "Client"
        ),
    },
    { header: "Budget", className: "text-right whitespace-nowrap", cell: (p) => money(p.budgetCents) },
    { header: "Status", cell: (p) => <StatusForm proposal={p} /> },
    {
      header: "Invoice",
      cell: (p) =>
        p.invoiceId ? (
          <ListLink className="whitespace-nowrap text-brand-700 underline" to={`/admin/invoices/edit/${p.invoiceId}`}>
            {p.invoiceNumber}
          </ListLink>
        ) : p.clientHasAccount ? (
          <ListLink className={buttonClass("secondary")} to={`/admin/generate-invoice/${p.id}`}>
            Generate Invoice
          </ListLink>
        ) : (
          <span className="text-xs text-slate-600">After the client registers</span>
        ),
    },
  ];
  return (
    <>
      <PageHeading
        title="Proposals"
        lead="Every proposal, newest first. Choose a status, then Save; a change can be undone for a few seconds."
      >
        <ExportCsvLink to="/admin/proposals/export.csv" noun="proposals" />
      </PageHeading>
      <SearchBar label="Search by client, project or e-mail" defaultValue={q} placeholder="e.g. bakery or jane@example.com">
        <FilterSelect name="status" label="Status" value={status} options={statusOptions} />
      </SearchBar>
      <StatusToast reply={actionData} />
      <DataTable
        caption="Proposals"
        columns={columns}
        rows={page.items}
        rowKey={(p) => p.id}
        empty={q || status ? "No proposal matches this search." : "No proposals yet."}
      />
      <Pager page={page} noun="proposals" shown={page.items.length} />
    </>
  );
}
