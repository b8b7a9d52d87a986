import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/ambassadors";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, ExportCsvLink, Pager, SearchBar, useActionHref, useHrefWith, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { ActionNotice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import {
  getAmbassadorCommissions,
  listAmbassadorsForAdmin,
  markCommissionPaid,
  type AdminAmbassadorRow,
  type AmbassadorProposalRow,
  type ReferredClientRow,
} from "#app/features/referrals/commissions.admin.server";
import { PROPOSAL_STATUS_LABELS } from "#app/features/proposals/proposals.admin.schema";
import { bpsToPercent } from "#app/features/settings/settings.schema";
import { unlessNotFound } from "#app/lib/errors";
import { formId, runIntent } from "#app/lib/form-action.server";
import { parseUserId } from "#app/lib/ids";
import { formatCents } from "#app/lib/money";
import { normalizeSearch, pageRequestFrom } from "#app/lib/pagination";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Ambassador Dashboard | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * Ambassadors with referral code, referred clients, proposals and commission owed and paid
 * (spec §2 /admin/ambassadors); `?ambassador=<id>` opens one ambassador's detail.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const q = normalizeSearch(params.get("q"));
  const list = await listAmbassadorsForAdmin(db, actor, { q }, pageRequestFrom(params, { size: 20 }));
  const selected = parseUserId(params.get("ambassador"));
  const detail = selected
    ? await unlessNotFound(
        getAmbassadorCommissions(db, actor, selected, {
          proposals: pageRequestFrom(params, { prefix: "p", size: 20 }),
          clients: pageRequestFrom(params, { prefix: "c", size: 20 }),
        }),
      )
    : null;
  return { list, detail, q: q ?? "" };
}

/** `mark-commission-paid` (spec §4: only client-approved proposals; refused otherwise). */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  return runIntent(
    args,
    {
      "mark-commission-paid": async (form) => {
        const id = formId(form, "proposalId");
        const { paidCents } = await markCommissionPaid(db, actor, id);
        return `Commission of ${formatCents(paidCents)} for proposal #${id} is marked paid.`;
      },
    },
    { target: "proposalId" },
  );
}

/** /admin/ambassadors: totals owed and paid, the ambassador list, and one ambassador's detail. */
export default function AdminAmbassadors({ loaderData, actionData }: Route.ComponentProps) {
  const { list, detail, q } = loaderData;
  const hrefWith = useHrefWith();
  const columns: Column<AdminAmbassadorRow>[] = [
    {
      header: "Ambassador",
      cell: (a) => (
        <div className="min-w-44">
          <p className="font-medium">{a.name}</p>
          <p className="text-xs break-all text-slate-600">{a.email}</p>
          {a.active ? null : <p className="text-xs text-red-800">Deactivated</p>}
        </div>
      ),
    },
    { header: "Referral code", cell: (a) => <span className="font-mono">{a.referralCode ?? "—"}</span> },
    { header: "Referred clients", className: "text-right", cell: (a) => a.referredClients.toLocaleString("en-US") },
    {
      header: "Proposals (approved)",
      className: "text-right whitespace-nowrap",
      cell: (a) => `${a.proposals.toLocaleString("en-US")} (${a.approvedProposals.toLocaleString("en-US")})`,
    },
    { header: "Owed", className: "text-right whitespace-nowrap", cell: (a) => formatCents(a.owedCents) },
    { header: "Paid", className: "text-right whitespace-nowrap", cell: (a) => formatCents(a.paidCents) },
    {
      header: <span className="sr-only">Details</span>,
      cell: (a) => (
        <Link
          className={buttonClass("secondary")}
          to={hrefWith({ ambassador: a.id, pAfter: null, pBefore: null, cAfter: null, cBefore: null })}
          aria-label={`Details of ${a.name}`}
        >
          Details
        </Link>
      ),
    },
  ];
  return (
    <>
      <PageHeading
        title="Ambassador Dashboard"
        lead={`Commission: ${bpsToPercent(list.rateBps)} % of the invoice total, or of the budget when there is no invoice, for client-approved proposals.`}
      >
        <ExportCsvLink to="/admin/ambassadors/export.csv" noun="commissions" />
      </PageHeading>
      <dl className="mb-6 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">Owed to ambassadors</dt>
          <dd className="text-2xl font-bold" data-testid="total-owed">
            {formatCents(list.totals.owedCents)}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">Paid to ambassadors</dt>
          <dd className="text-2xl font-bold" data-testid="total-paid">
            {formatCents(list.totals.paidCents)}
          </dd>
        </div>
      </dl>
      <ActionNotice result={actionData} className="mb-4" />
      {detail ? <AmbassadorDetail detail={detail} /> : null}
      <h2 className="mt-8 mb-3 text-xl font-semibold">Ambassadors</h2>
      <SearchBar label="Search by name, e-mail or referral code" defaultValue={q} />
      <DataTable
        caption="Ambassadors"
        columns={columns}
        rows={list.items}
        rowKey={(a) => a.id}
        empty={q ? "No ambassador matches this search." : "No ambassadors yet."}
      />
      <Pager page={list} noun="ambassadors" shown={list.items.length} />
    </>
  );
}

type Detail = NonNullable<Route.ComponentProps["loaderData"]["detail"]>;

function AmbassadorDetail({ detail }: { detail: Detail }) {
  const hrefWith = useHrefWith();
  const proposalColumns: Column<AmbassadorProposalRow>[] = [
    { header: "Project", cell: (p) => <span className="min-w-40">{p.projectName || `Proposal #${p.id}`}</span> },
    {
      header: "Client",
      cell: (p) => (
        <span className="min-w-40">
          {p.clientName ?? "—"}
          <span className="block text-xs break-all text-slate-600">{p.clientEmail}</span>
        </span>
      ),
    },
    { header: "Status", cell: (p) => PROPOSAL_STATUS_LABELS[p.status] },
    { header: "Client approved", cell: (p) => (p.clientApproved ? "Yes" : "No") },
    {
      header: "Base",
      className: "text-right whitespace-nowrap",
      cell: (p) => (p.baseCents === null ? "—" : `${formatCents(p.baseCents)}${p.invoiceTotalCents !== null ? " (invoice)" : " (budget)"}`),
    },
    {
      header: "Commission",
      className: "text-right whitespace-nowrap",
      cell: (p) => (p.clientApproved ? formatCents(p.commissionCents) : "—"),
    },
    { header: "Payment", cell: (p) => <CommissionPayment proposal={p} /> },
  ];
  const clientColumns: Column<ReferredClientRow>[] = [
    { header: "Client", cell: (c) => c.name },
    { header: "E-mail", cell: (c) => <span className="break-all">{c.email}</span> },
    { header: "Registered", cell: (c) => <LocalTime value={c.createdAt} /> },
  ];
  const { ambassador } = detail;
  return (
    <section aria-labelledby="detail-heading" className="rounded-lg border border-brand-100 bg-brand-50/40 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="detail-heading" className="text-xl font-semibold">
            {ambassador.name}
          </h2>
          <p className="text-sm text-slate-700">
            {ambassador.email} · referral code <span className="font-mono">{ambassador.referralCode ?? "—"}</span>
          </p>
        </div>
        <Link
          className="text-sm text-brand-700 underline"
          to={hrefWith({ ambassador: null, pAfter: null, pBefore: null, cAfter: null, cBefore: null })}
        >
          Close
        </Link>
      </div>
      <dl className="my-4 flex flex-wrap gap-6">
        <div>
          <dt className="text-sm text-slate-600">Owed</dt>
          <dd className="text-lg font-semibold" data-testid="ambassador-owed">
            {formatCents(detail.totals.owedCents)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Paid</dt>
          <dd className="text-lg font-semibold" data-testid="ambassador-paid">
            {formatCents(detail.totals.paidCents)}
          </dd>
        </div>
      </dl>
      <h3 className="mb-2 font-semibold">Proposals</h3>
      <DataTable
        caption={`Proposals of ${ambassador.name}`}
        columns={proposalColumns}
        rows={detail.proposals.items}
        rowKey={(p) => p.id}
        empty="No proposals submitted yet."
      />
      <Pager page={detail.proposals} noun="proposals" prefix="p" shown={detail.proposals.items.length} />
      <h3 className="mt-6 mb-2 font-semibold">Referred clients</h3>
      <DataTable
        caption={`Clients referred by ${ambassador.name}`}
        columns={clientColumns}
        rows={detail.referredClients.items}
        rowKey={(c) => c.id}
        empty="No referred clients yet."
      />
      <Pager page={detail.referredClients} noun="referred clients" prefix="c" shown={detail.referredClients.items.length} />
    </section>
  );
}

/** Paid date, or Mark as Paid for an approved, unpaid commission (the server checks again). */
function CommissionPayment({ proposal }: { proposal: AmbassadorProposalRow }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  if (proposal.commissionPaidAt) {
    return (
      <span className="text-green-800">
        Paid <LocalTime value={proposal.commissionPaidAt} />
      </span>
    );
  }
  if (!proposal.clientApproved) return <span className="text-slate-600">Awaiting client approval</span>;
  const pending = navigation.state === "submitting" && navigation.formData?.get("proposalId") === String(proposal.id);
  return (
    <Form method="post" action={actionHref} preventScrollReset>
      <input type="hidden" name="intent" value="mark-commission-paid" />
      <input type="hidden" name="proposalId" value={proposal.id} />
      <button
        type="submit"
        className={buttonClass("secondary")}
        disabled={pending}
        aria-label={`Mark the commission of ${proposal.projectName || `proposal #${proposal.id}`} as paid`}
      >
        {pending ? "Saving…" : "Mark as Paid"}
      </button>
    </Form>
  );
}
