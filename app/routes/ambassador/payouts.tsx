import type { Route } from "./+types/payouts";
import { LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { DataTable, Pager, type Column } from "#app/components/ui/data-table";
import { servicesContext } from "#app/context";
import { PAYOUT_METHOD_LABELS } from "#app/features/referrals/payouts.messages";
import { getAmbassadorPayouts, PAYOUTS_PAGE_SIZE, type AmbassadorPayout } from "#app/features/referrals/referrals.server";
import { requireUser } from "#app/features/users/session.server";
import { pageRequestFrom } from "#app/lib/pagination";
import { formatMoney } from "#app/lib/vocabulary";

export const meta: Route.MetaFunction = () => [{ title: "Payouts | Ambassador Portal" }];

/**
 * Payouts (docs/product.md#commissions-ledger, issue #41): the acting ambassador's commission
 * payouts, newest first, 25 per page (`?after=` / `?before=`), each with what it covered.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  return { payouts: await getAmbassadorPayouts(db, requireUser(context), pageRequestFrom(params, { size: PAYOUTS_PAGE_SIZE })) };
}

/** What a payout covered: each proposal (or billing plan), its invoices, entries and amount. */
function Covered({ payout }: { payout: AmbassadorPayout }) {
  if (!payout.covered.length) return <span>—</span>;
  return (
    <ul className="flex min-w-48 flex-col gap-1" aria-label={`What payout #${payout.id} covered`}>
      {payout.covered.map((c) => (
        <li key={`${c.proposalId ?? "none"}-${c.projectName ?? ""}`} className="wrap-anywhere">
          <span className="font-medium">{c.projectName ?? "Other commissions"}</span>
          <span className="block text-xs text-slate-600">
            {c.invoiceNumbers.length ? `${c.invoiceNumbers.join(", ")} · ` : ""}
            {c.entries} {c.entries === 1 ? "commission" : "commissions"} · {formatMoney(c.amountCents, payout.currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The payouts table (stacked into cards on a phone) and its pager. */
export default function Payouts({ loaderData }: Route.ComponentProps) {
  const { payouts } = loaderData;
  const columns: Column<AmbassadorPayout>[] = [
    { header: "Paid on", cell: (p) => <LocalDateTime value={p.paidAt} fixedZone="UTC" style="date" /> },
    {
      header: "Amount",
      className: "text-right whitespace-nowrap tabular-nums",
      cell: (p) => <span data-testid="payout-amount">{formatMoney(p.totalCents, p.currency)}</span>,
    },
    { header: "Method", cell: (p) => PAYOUT_METHOD_LABELS[p.method] },
    { header: "Reference", cell: (p) => <span className="wrap-anywhere">{p.reference}</span> },
    { header: "Covers", cell: (p) => <Covered payout={p} /> },
  ];
  return (
    <>
      <PageHeading
        title="Payouts"
        lead="Each payout pays your payable commissions at once. Here is when it was sent, how much, and which proposals' commissions it covered."
      />
      <section aria-labelledby="payouts-title" className="mt-6">
        <h2 id="payouts-title" className="mb-3 text-xl font-semibold">
          Your payouts
        </h2>
        <DataTable
          caption="Your payouts"
          columns={columns}
          rows={payouts.items}
          rowKey={(p) => p.id}
          empty="No payouts yet. When your commissions are payable, the agency pays them out and the payout appears here."
        />
        <Pager page={payouts} noun="payouts" shown={payouts.items.length} />
      </section>
    </>
  );
}
