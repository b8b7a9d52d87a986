import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/proposals";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, ExportCsvLink, FilterSelect, Pager, SearchBar, useActionHref, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { ActionNotice } from "#app/components/ui/notice";
import { useHydrated } from "#app/lib/use-hydrated";
import { servicesContext } from "#app/context";
import { PROPOSAL_STATUSES } from "#app/db/enums";
import { listProposalsForAdmin, setProposalStatus, type AdminProposalRow } from "#app/features/proposals/proposals.admin.server";
import {
  ADMIN_PROPOSAL_STATUSES,
  PROPOSAL_STATUS_LABELS,
  proposalListFiltersFrom,
  setStatusSchema,
} from "#app/features/proposals/proposals.admin.schema";
import { parseInput, runIntent } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";
import { pageRequestFrom } from "#app/lib/pagination";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Proposals | Admin Console" }, { name: "robots", content: "noindex" }];

/** Every proposal (spec §2 /admin/proposals): `?status=`, `?q=` and keyset cursors, all server-side. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const { status, q } = proposalListFiltersFrom(params);
  const page = await listProposalsForAdmin(db, actor, { status, q }, pageRequestFrom(params));
  return { page, status: status ?? "", q: q ?? "" };
}

/** `set-status`: any of the five admin statuses, saved at once (spec §4). */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  return runIntent(
    args,
    {
      "set-status": async (form) => {
        const { proposalId, status } = parseInput(setStatusSchema, Object.fromEntries(form));
        await setProposalStatus(db, actor, proposalId, status);
        return `Proposal #${proposalId} is now “${PROPOSAL_STATUS_LABELS[status]}”.`;
      },
    },
    { target: "proposalId" },
  );
}

const statusOptions = [
  { value: "", label: "All statuses" },
  ...PROPOSAL_STATUSES.map((s) => ({ value: s, label: PROPOSAL_STATUS_LABELS[s] })),
];

/** /admin/proposals: search, status filter, and per row the status dropdown and the invoice link. */
export default function AdminProposals({ loaderData, actionData }: Route.ComponentProps) {
  const { page, q, status } = loaderData;
  const columns: Column<AdminProposalRow>[] = [
    {
      header: "Project",
      cell: (p) => (
        <div className="min-w-48">
          <p className="font-medium text-slate-900">{p.projectName || `Proposal #${p.id}`}</p>
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
          <p className="text-xs break-all text-slate-600">{p.clientEmail ?? "—"}</p>
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
    { header: "Budget", className: "text-right whitespace-nowrap", cell: (p) => formatCents(p.budgetCents) },
    { header: "Status", cell: (p) => <StatusForm proposal={p} /> },
    {
      header: "Invoice",
      cell: (p) =>
        p.invoiceId ? (
          <Link className="whitespace-nowrap text-brand-700 underline" to={`/admin/invoices/edit/${p.invoiceId}`}>
            {p.invoiceNumber}
          </Link>
        ) : p.clientHasAccount ? (
          <Link className={buttonClass("secondary")} to={`/admin/generate-invoice/${p.id}`}>
            Generate Invoice
          </Link>
        ) : (
          <span className="text-xs text-slate-600">After the client registers</span>
        ),
    },
  ];
  return (
    <>
      <PageHeading title="Proposals" lead="Every proposal, newest first. Status changes are saved at once.">
        <ExportCsvLink to="/admin/proposals/export.csv" noun="proposals" />
      </PageHeading>
      <SearchBar label="Search by client, project or e-mail" defaultValue={q} placeholder="e.g. bakery or jane@example.com">
        <FilterSelect name="status" label="Status" value={status} options={statusOptions} />
      </SearchBar>
      <ActionNotice result={actionData} className="mb-4" />
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

/**
 * The status dropdown of one row: with JavaScript a change is saved at once by a fetcher
 * (pending "Saving…", then "Saved"); without it, a Save button posts the form.
 */
function StatusForm({ proposal }: { proposal: AdminProposalRow }) {
  const fetcher = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const actionHref = useActionHref();
  const busy = fetcher.state !== "idle";
  const shown = busy ? String(fetcher.formData?.get("status") ?? proposal.status) : proposal.status;
  const result = fetcher.data;
  const id = `status-${proposal.id}`;
  const isAdminStatus = (ADMIN_PROPOSAL_STATUSES as readonly string[]).includes(proposal.status);
  return (
    <fetcher.Form method="post" action={actionHref} className="flex min-w-44 flex-wrap items-center gap-2">
      <input type="hidden" name="intent" value="set-status" />
      <input type="hidden" name="proposalId" value={proposal.id} />
      <label htmlFor={id} className="sr-only">
        Status of {proposal.projectName || `proposal #${proposal.id}`}
      </label>
      <select
        id={id}
        name="status"
        value={shown}
        onChange={(event) => fetcher.submit(event.currentTarget.form)}
        disabled={busy}
        className="rounded-md border border-slate-400 bg-white px-2 py-1 text-sm"
      >
        {isAdminStatus ? null : (
          <option value={proposal.status} disabled>
            {PROPOSAL_STATUS_LABELS[proposal.status]}
          </option>
        )}
        {ADMIN_PROPOSAL_STATUSES.map((s) => (
          <option key={s} value={s}>
            {PROPOSAL_STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className={buttonClass("secondary")}>
          Save
        </button>
      )}
      <span role="status" className={`text-xs ${result && !result.ok && !busy ? "text-red-700" : "text-green-800"}`}>
        {busy ? "Saving…" : result ? (result.ok ? "Saved" : result.message) : ""}
      </span>
    </fetcher.Form>
  );
}
