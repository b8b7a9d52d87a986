import { Link } from "react-router";
import type { Route } from "./+types/ambassadors";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { DataTable, ExportCsvLink, Pager, SearchBar, useHrefWith, type Column } from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import {
  getAmbassadorCommissions,
  listAmbassadorsForAdmin,
  markCommissionPaid,
  markCommissionUnpaid,
  type AdminAmbassadorRow,
  type AmbassadorProposalRow,
  type ReferredClientRow,
} from "#app/features/referrals/commissions.admin.server";
import { getSettings } from "#app/features/settings/settings.server";
import { formatMoney, formatPercent } from "#app/lib/vocabulary";
import { useFormatMoney } from "#app/components/money";
import { ConfirmLink, ConfirmPanel, useIsConfirming } from "#app/components/ui/confirm";
import { Toast } from "#app/components/ui/toast";
import { BreakableText } from "#app/components/ui/breakable-text";
import { ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { CommissionStatusBadge } from "#app/features/referrals/components/commission-status-badge";
import { unlessNotFound } from "#app/lib/errors";
import { formId, runIntent } from "#app/lib/form-action.server";
import { parseUserId } from "#app/lib/ids";
import { pageRequestFrom, searchFiltersFrom } from "#app/lib/pagination";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Ambassador Dashboard | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * Ambassadors with referral code, referred clients, proposals and commission owed and paid
 * (docs/product.md#commissions); `?ambassador=<id>` opens one ambassador's detail.
 */
export async function loader(args: Route.LoaderArgs) {
  const { page: list, filters, actor, db, params } = await loadListPage(args, searchFiltersFrom, listAmbassadorsForAdmin, { size: 20 });
  const selected = parseUserId(params.get("ambassador"));
  const detail = selected
    ? await unlessNotFound(
        getAmbassadorCommissions(db, actor, selected, {
          proposals: pageRequestFrom(params, { prefix: "p", size: 20 }),
          clients: pageRequestFrom(params, { prefix: "c", size: 20 }),
        }),
      )
    : null;
  return { list, detail, q: filters.q ?? "" };
}

/**
 * `mark-commission-paid` (only client-approved proposals; refused otherwise) and its reversal
 * `mark-commission-unpaid`, each after a confirmation naming the commission and its amount
 * (docs/product.md#commissions-paying). The row lock makes a double submission pay once.
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      "mark-commission-paid": async (form) => {
        const id = formId(form, "proposalId");
        const { paidCents } = await markCommissionPaid(db, actor, id);
        return `Commission of ${formatMoney(paidCents, (await getSettings(db)).currency)} for proposal #${id} is marked paid.`;
      },
      "mark-commission-unpaid": async (form) => {
        const id = formId(form, "proposalId");
        const { changed, paidCents } = await markCommissionUnpaid(db, actor, id);
        return changed
          ? `The payment of ${formatMoney(paidCents, (await getSettings(db)).currency)} for proposal #${id} is removed; the commission is unpaid again.`
          : `The commission for proposal #${id} was not paid. Nothing changed.`;
      },
    },
    { target: "proposalId" },
  );
}

/** /admin/ambassadors: totals owed and paid, the ambassador list, and one ambassador's detail. */
export default function AdminAmbassadors({ loaderData, actionData }: Route.ComponentProps) {
  const { list, detail, q } = loaderData;
  const money = useFormatMoney();
  const hrefWith = useHrefWith();
  const columns: Column<AdminAmbassadorRow>[] = [
    {
      header: "Ambassador",
      cell: (a) => (
        <div className="min-w-44">
          <p className="font-medium">{a.name}</p>
          <p className="text-xs wrap-text text-slate-600">{a.email}</p>
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
    { header: "Owed", className: "text-right whitespace-nowrap", cell: (a) => money(a.owedCents) },
    { header: "Paid", className: "text-right whitespace-nowrap", cell: (a) => money(a.paidCents) },
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
        lead={`Commission: ${formatPercent(list.rateBps)} of the invoice total, or of the budget when there is no invoice, for client-approved proposals.`}
      >
        <ExportCsvLink to="/admin/ambassadors/export.csv" noun="commissions" />
      </PageHeading>
      <dl className="mb-6 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">Owed to ambassadors</dt>
          <dd className="text-2xl font-bold" data-testid="total-owed">
            {money(list.totals.owedCents)}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">Paid to ambassadors</dt>
          <dd className="text-2xl font-bold" data-testid="total-paid">
            {money(list.totals.paidCents)}
          </dd>
        </div>
      </dl>
      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />
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
  const money = useFormatMoney();
  const hrefWith = useHrefWith();
  const proposalColumns: Column<AmbassadorProposalRow>[] = [
    { header: "Project", cell: (p) => <span className="wrap-text block max-w-xs min-w-32">{p.projectName || `Proposal #${p.id}`}</span> },
    {
      header: "Client",
      cell: (p) => (
        <span className="min-w-40">
          {p.clientName ?? "—"}
          <BreakableText className="block text-xs text-slate-600" text={p.clientEmail ?? ""} />
        </span>
      ),
    },
    { header: "Status", cell: (p) => <ProposalStatusBadge status={p.status} /> },
    { header: "Client approved", cell: (p) => (p.clientApproved ? "Yes" : "No") },
    {
      header: "Base",
      className: "text-right whitespace-nowrap",
      cell: (p) => (p.baseCents === null ? "—" : `${money(p.baseCents)}${p.invoiceTotalCents !== null ? " (invoice)" : " (budget)"}`),
    },
    {
      header: "Commission",
      className: "text-right whitespace-nowrap",
      cell: (p) => (p.clientApproved ? money(p.commissionCents) : "—"),
    },
    { header: "Payment", cell: (p) => <CommissionPayment proposal={p} /> },
  ];
  const clientColumns: Column<ReferredClientRow>[] = [
    { header: "Client", cell: (c) => c.name },
    { header: "E-mail", cell: (c) => <BreakableText text={c.email} /> },
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
            <BreakableText text={ambassador.email} /> · referral code <span className="font-mono">{ambassador.referralCode ?? "—"}</span>
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
            {money(detail.totals.owedCents)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Paid</dt>
          <dd className="text-lg font-semibold" data-testid="ambassador-paid">
            {money(detail.totals.paidCents)}
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
        after={(p) => <CommissionConfirm proposal={p} />}
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

/** The confirmation of Mark as paid / Mark unpaid for one commission, naming it and its amount. */
function CommissionConfirm({ proposal }: { proposal: AmbassadorProposalRow }) {
  const isConfirming = useIsConfirming();
  const money = useFormatMoney();
  const name = proposal.projectName || `proposal #${proposal.id}`;
  if (isConfirming("mark-commission-paid", proposal.id) && !proposal.commissionPaidAt && proposal.clientApproved) {
    return (
      <ConfirmPanel
        title={`Mark the commission for ${name} as paid?`}
        intent="mark-commission-paid"
        fields={{ proposalId: proposal.id }}
        confirmLabel="Yes, mark as paid"
        pendingLabel="Saving…"
        tone="primary"
      >
        {money(proposal.commissionCents)} to the ambassador. The ambassador is notified. It can be marked unpaid again if this was a
        mistake.
      </ConfirmPanel>
    );
  }
  if (isConfirming("mark-commission-unpaid", proposal.id) && proposal.commissionPaidAt) {
    return (
      <ConfirmPanel
        title={`Mark the commission for ${name} unpaid?`}
        intent="mark-commission-unpaid"
        fields={{ proposalId: proposal.id }}
        confirmLabel="Yes, mark unpaid"
        pendingLabel="Saving…"
        tone="primary"
      >
        The payment of {money(proposal.commissionCents)} recorded is removed; the commission follows today&apos;s rate and base again.
      </ConfirmPanel>
    );
  }
  return null;
}

/** Paid date and Mark unpaid, or Mark as paid for an approved, unpaid commission (both confirmed; the server checks again). */
function CommissionPayment({ proposal }: { proposal: AmbassadorProposalRow }) {
  const name = proposal.projectName || `proposal #${proposal.id}`;
  if (proposal.commissionPaidAt) {
    return (
      <span className="flex flex-wrap items-center gap-2">
        <CommissionStatusBadge clientApproved paid />
        <LocalTime value={proposal.commissionPaidAt} />
        <ConfirmLink kind="mark-commission-unpaid" target={proposal.id} className={buttonClass("secondary")} label={`Mark unpaid: ${name}`}>
          Mark unpaid
        </ConfirmLink>
      </span>
    );
  }
  if (!proposal.clientApproved) return <CommissionStatusBadge clientApproved={false} paid={false} />;
  return (
    <ConfirmLink kind="mark-commission-paid" target={proposal.id} className={buttonClass("secondary")} label={`Mark as paid: ${name}`}>
      Mark as paid
    </ConfirmLink>
  );
}
