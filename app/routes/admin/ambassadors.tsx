import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/ambassadors";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import {
  DataTable,
  ExportCsvLink,
  ListLink,
  Pager,
  SearchBar,
  useActionHref,
  useHrefWith,
  type Column,
} from "#app/components/ui/data-table";
import { LocalTime } from "#app/components/local-time";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, SelectInput, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import {
  createPayout,
  getAmbassadorCommissions,
  listAmbassadorsForAdmin,
  type AdminAmbassadorRow,
  type PayoutRow,
  type ReferredClientRow,
} from "#app/features/referrals/commissions.admin.server";
import { LedgerTable, LedgerTotals } from "#app/features/referrals/components/ledger-table";
import { PAYOUT_MESSAGES, PAYOUT_METHOD_LABELS } from "#app/features/referrals/payouts.messages";
import { payoutSchema } from "#app/features/referrals/payouts.schema";
import { PAYOUT_METHODS } from "#app/db/enums";
import { formatMoney, formatPercent } from "#app/lib/vocabulary";
import { useFormatMoney } from "#app/components/money";
import { ConfirmLink, useIsConfirming } from "#app/components/ui/confirm";
import { Toast } from "#app/components/ui/toast";
import { BreakableText } from "#app/components/ui/breakable-text";
import { unlessNotFound } from "#app/lib/errors";
import { conformIntent, runIntent } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { parseUserId } from "#app/lib/ids";
import { now } from "#app/lib/clock.server";
import { pageRequestFrom, searchFiltersFrom } from "#app/lib/pagination";
import { actorAndDb, loadListPage } from "#app/features/users/session.server";
import { businessDay, getSettings } from "#app/features/settings/settings.server";

export const meta: Route.MetaFunction = () => [{ title: "Commissions | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * Ambassadors with referral code, referred clients, proposals and commission balances (pending,
 * payable, paid out; docs/product.md#admin-ambassadors); `?ambassador=<id>` opens one
 * ambassador's ledger, payouts and referred clients, where a payout is created.
 */
export async function loader(args: Route.LoaderArgs) {
  const { page: list, filters, actor, db, params } = await loadListPage(args, searchFiltersFrom, listAmbassadorsForAdmin, { size: 20 });
  const selected = parseUserId(params.get("ambassador"));
  const detail = selected
    ? await unlessNotFound(
        getAmbassadorCommissions(db, actor, selected, {
          entries: pageRequestFrom(params, { prefix: "e", size: 20 }),
          payouts: pageRequestFrom(params, { prefix: "o", size: 10 }),
          clients: pageRequestFrom(params, { prefix: "c", size: 20 }),
        }),
      )
    : null;
  return { list, detail, q: filters.q ?? "", payoutForm: formConstraints(payoutSchema), today: (await businessDay(db, now())).today };
}

/**
 * `create-payout` (docs/product.md#commissions-payouts): posted from the confirmation that names
 * the amount, with the reference, method and date; every payable entry of the ambassador goes
 * into one payout (refused when the payable balance is not positive).
 */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(
    args,
    {
      "create-payout": conformIntent(payoutSchema, async ({ ambassadorId, reference, method, paidAt }) => {
        const made = await createPayout(db, actor, ambassadorId, { reference, method, paidAt });
        const { currency } = await getSettings(db);
        return PAYOUT_MESSAGES.created(formatMoney(made.totalCents, currency), made.ambassadorName);
      }),
    },
    { target: "ambassadorId" },
  );
}

/** /admin/ambassadors: grand totals, the ambassador list, and one ambassador's detail. */
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
    { header: "Pending", className: "text-right whitespace-nowrap", cell: (a) => money(a.pendingCents) },
    { header: "Payable", className: "text-right whitespace-nowrap font-semibold", cell: (a) => money(a.payableCents) },
    { header: "Paid out", className: "text-right whitespace-nowrap", cell: (a) => money(a.paidOutCents) },
    {
      header: <span className="sr-only">Details</span>,
      label: "Details",
      cell: (a) => (
        <ListLink
          className={buttonClass("secondary")}
          to={hrefWith({ ambassador: a.id, eAfter: null, eBefore: null, oAfter: null, oBefore: null, cAfter: null, cBefore: null })}
          aria-label={`Details of ${a.name}`}
        >
          Details
        </ListLink>
      ),
    },
  ];
  return (
    <>
      <PageHeading
        title="Commissions"
        lead={`Commission: ${formatPercent(list.rateBps)} of each payment on the invoice of a proposal its client approved (the rate frozen at approval), payable ${list.holdDays} days after the payment.`}
      >
        <ExportCsvLink to="/admin/ambassadors/export.csv" noun="commissions" />
        <ExportCsvLink to="/admin/ambassadors/payouts.csv" noun="payouts" />
      </PageHeading>
      <div className="mb-6">
        <LedgerTotals totals={list.totals} testIdPrefix="total" />
      </div>
      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />
      {detail ? <AmbassadorDetail detail={detail} reply={actionData} /> : null}
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
type Reply = Route.ComponentProps["actionData"];

function AmbassadorDetail({ detail, reply }: { detail: Detail; reply: Reply }) {
  const money = useFormatMoney();
  const hrefWith = useHrefWith();
  const isConfirming = useIsConfirming();
  const { ambassador } = detail;
  const payoutColumns: Column<PayoutRow>[] = [
    { header: "Paid", cell: (p) => <LocalTime value={p.paidAt} /> },
    { header: "Total", className: "text-right whitespace-nowrap tabular-nums", cell: (p) => money(p.totalCents) },
    { header: "Method", cell: (p) => PAYOUT_METHOD_LABELS[p.method] },
    { header: "Reference", cell: (p) => <BreakableText text={p.reference} /> },
    { header: "Entries", className: "text-right", cell: (p) => p.entries.toLocaleString("en-US") },
    {
      header: <span className="sr-only">CSV</span>,
      label: "CSV",
      cell: (p) => (
        <a className="text-brand-700 underline" href={`/admin/ambassadors/payouts/${p.id}/export.csv`} download>
          CSV<span className="sr-only"> of payout #{p.id}</span>
        </a>
      ),
    },
  ];
  const clientColumns: Column<ReferredClientRow>[] = [
    { header: "Client", cell: (c) => c.name },
    { header: "E-mail", cell: (c) => <BreakableText text={c.email} /> },
    { header: "Registered", cell: (c) => <LocalTime value={c.createdAt} /> },
  ];
  const failedPayout = reply && "intent" in reply && reply.intent === "create-payout" && !reply.ok && reply.target === ambassador.id;
  const showPayout = isConfirming("create-payout", ambassador.id) || failedPayout;
  return (
    <section aria-labelledby="detail-heading" className="rounded-lg border border-brand-100 bg-brand-50/40 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="detail-heading" className="text-xl font-semibold">
            {ambassador.name}
          </h2>
          <p className="text-sm text-slate-700">
            <BreakableText text={ambassador.email} /> · referral code <span className="font-mono">{ambassador.referralCode ?? "—"}</span>
          </p>
        </div>
        <Link
          className="text-sm text-brand-700 underline"
          to={hrefWith({ ambassador: null, eAfter: null, eBefore: null, oAfter: null, oBefore: null, cAfter: null, cBefore: null })}
        >
          Close
        </Link>
      </div>
      <div className="my-4">
        <LedgerTotals totals={detail.totals} testIdPrefix="ambassador" />
      </div>
      {showPayout ? (
        <PayoutPanel
          ambassadorId={ambassador.id}
          name={ambassador.name}
          payoutCents={detail.payoutCents}
          reply={failedPayout ? reply : undefined}
        />
      ) : detail.payoutCents !== null ? (
        <ConfirmLink
          kind="create-payout"
          target={ambassador.id}
          className={buttonClass("primary")}
          label={`Create payout for ${ambassador.name}`}
        >
          Create payout
        </ConfirmLink>
      ) : (
        <p className="text-sm text-slate-700">
          {detail.totals.payableCents < 0
            ? `Nothing to pay out: the payable balance is ${money(detail.totals.payableCents)} (a refund after a payout). It is netted against the next commissions.`
            : "Nothing to pay out yet: no commission is payable."}
        </p>
      )}
      <h3 className="mt-6 mb-2 font-semibold">Commission ledger</h3>
      <LedgerTable caption={`Commission ledger of ${ambassador.name}`} lines={detail.entries.items} empty="No commission entries yet." />
      <Pager page={detail.entries} noun="entries" one="entry" prefix="e" shown={detail.entries.items.length} />
      <h3 className="mt-6 mb-2 font-semibold">Payouts</h3>
      <DataTable
        caption={`Payouts to ${ambassador.name}`}
        columns={payoutColumns}
        rows={detail.payouts.items}
        rowKey={(p) => p.id}
        empty="No payouts yet."
      />
      <Pager page={detail.payouts} noun="payouts" prefix="o" shown={detail.payouts.items.length} />
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

/**
 * The confirmation of "Create payout" (docs/product.md#confirmations): it names the amount and
 * asks for the reference, method and date; the server takes what is payable at that moment.
 */
function PayoutPanel({
  ambassadorId,
  name,
  payoutCents,
  reply,
}: {
  ambassadorId: string;
  name: string;
  payoutCents: number | null;
  reply: Reply | undefined;
}) {
  const money = useFormatMoney();
  const hrefWith = useHrefWith();
  const actionHref = useActionHref();
  const { payoutForm, today } = useLoaderDataOf();
  const [form, fields] = useAppForm({
    id: "create-payout",
    constraint: payoutForm,
    lastResult: reply && "result" in reply ? reply.result : undefined,
    defaultValue: { method: "bank_transfer", paidAt: today },
  });
  const pending = useIsSubmitting();
  return (
    <div id="confirm" tabIndex={-1} className="scroll-mt-20 rounded-lg border border-slate-300 bg-white p-4 outline-none">
      <h3 className="font-semibold text-slate-900" id="payout-title">
        {payoutCents !== null ? `Pay out ${money(payoutCents)} to ${name}?` : `Create a payout for ${name}?`}
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Every payable commission (refunds included) goes into this payout and is marked paid out; {name} is e-mailed a statement. Record it
        once the money is sent.
      </p>
      <Form
        method="post"
        action={actionHref}
        {...getFormProps(form)}
        aria-labelledby="payout-title"
        className="mt-3 flex flex-col gap-3"
        preventScrollReset
      >
        <input type="hidden" name="intent" value="create-payout" />
        <input type="hidden" name="ambassadorId" value={ambassadorId} />
        <input type="hidden" name="confirm" value="yes" />
        <FormMessage id={form.errorId} errors={form.errors ?? (reply && !reply.ok ? [reply.message] : undefined)} />
        <TextInput field={fields.reference} label="Reference" placeholder="e.g. the bank transfer's reference" />
        <SelectInput
          field={fields.method}
          label="Method"
          options={PAYOUT_METHODS.map((m) => ({ value: m, label: PAYOUT_METHOD_LABELS[m] }))}
        />
        <TextInput field={fields.paidAt} label="Date sent" type="date" max={today} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton pending={pending} pendingLabel="Creating payout…">
            Yes, create payout
          </SubmitButton>
          <Link className={buttonClass("secondary")} to={hrefWith({})} preventScrollReset>
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}

/** The route's loader data (the payout form's constraints and today's date). */
function useLoaderDataOf() {
  return useLoaderData<typeof loader>();
}
