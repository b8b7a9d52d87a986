import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/proposals";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, ExportCsvLink, FilterSelect, Pager, SearchBar, useActionHref, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { Toast } from "#app/components/ui/toast";
import { BreakableText } from "#app/components/ui/breakable-text";
import { PROPOSAL_STATUSES } from "#app/db/enums";
import {
  listProposalsForAdmin,
  setProposalStatus,
  undoProposalStatus,
  type AdminProposalRow,
} from "#app/features/proposals/proposals.admin.server";
import { proposalListFiltersFrom, setStatusSchema } from "#app/features/proposals/proposals.admin.schema";
import { ADMIN_PROPOSAL_STATUSES } from "#app/features/proposals/proposal-rules";
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import { formId, parseInput, runIntent, type FormReply } from "#app/lib/form-action.server";
import { useFormatMoney } from "#app/components/money";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Proposals | Admin Console" }, { name: "robots", content: "noindex" }];

/** Every proposal (docs/product.md#admin-proposals): `?status=`, `?q=` and keyset cursors, all server-side. */
export async function loader(args: Route.LoaderArgs) {
  const { page, filters } = await loadListPage(args, proposalListFiltersFrom, listProposalsForAdmin);
  return { page, status: filters.status ?? "", q: filters.q ?? "" };
}

/**
 * `set-status`: any of the five admin statuses, applied by an explicit Save (never on selection),
 * answered with an Undo offer; `undo-status`: the reverse change (docs/product.md#proposals-admin-status).
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      "set-status": async (form) => {
        const { proposalId, status } = parseInput(setStatusSchema, Object.fromEntries(form));
        const result = await setProposalStatus(db, actor, proposalId, status);
        if (!result.changed) return `Proposal #${proposalId} is already “${PROPOSAL_STATUS_LABELS[status]}”. Nothing changed.`;
        return {
          message: `Proposal #${proposalId} is now “${PROPOSAL_STATUS_LABELS[status]}” (was “${PROPOSAL_STATUS_LABELS[result.previous]}”).`,
          undo: { intent: "undo-status", fields: { eventId: String(result.eventId) } },
        };
      },
      "undo-status": async (form) => {
        const { id, status } = await undoProposalStatus(db, actor, formId(form, "eventId"));
        return `Undone: proposal #${id} is back to “${PROPOSAL_STATUS_LABELS[status]}”.`;
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
  const money = useFormatMoney();
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

/**
 * The status dropdown of one row: choosing only selects (WCAG 3.2.2); Save (or Enter on the
 * dropdown) applies it, with or without JavaScript (docs/product.md#proposals-admin-status).
 */
function StatusForm({ proposal }: { proposal: AdminProposalRow }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  const saving =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "set-status" &&
    navigation.formData?.get("proposalId") === String(proposal.id);
  const id = `status-${proposal.id}`;
  const name = proposal.projectName || `proposal #${proposal.id}`;
  const isAdminStatus = (ADMIN_PROPOSAL_STATUSES as readonly string[]).includes(proposal.status);
  return (
    <Form method="post" action={actionHref} preventScrollReset className="flex min-w-40 flex-wrap items-center gap-2">
      <input type="hidden" name="intent" value="set-status" />
      <input type="hidden" name="proposalId" value={proposal.id} />
      <label htmlFor={id} className="sr-only">
        Status of {name}
      </label>
      <select
        id={id}
        name="status"
        key={proposal.status}
        defaultValue={proposal.status}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
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
      <button type="submit" className={buttonClass("secondary")} disabled={saving} aria-label={`Save new status — ${name}`}>
        {saving ? "Saving…" : "Save"}
      </button>
    </Form>
  );
}

/** The toast after a status change: its sentence and, for a change, Undo (a real reverse change). */
function StatusToast({ reply }: { reply: FormReply | undefined }) {
  const actionHref = useActionHref();
  const navigation = useNavigation();
  const undoing = navigation.state === "submitting" && navigation.formData?.get("intent") === "undo-status";
  return (
    <Toast
      message={reply?.message || null}
      messageKey={reply ?? null}
      tone={reply?.ok === false ? "error" : "success"}
      seconds={10}
      action={
        reply?.undo ? (
          <Form method="post" action={actionHref} preventScrollReset>
            <input type="hidden" name="intent" value={reply.undo.intent} />
            {Object.entries(reply.undo.fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className={buttonClass("secondary")} disabled={undoing}>
              {undoing ? "Undoing…" : "Undo"}
            </button>
          </Form>
        ) : null
      }
    />
  );
}
