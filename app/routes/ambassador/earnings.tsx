import type { Route } from "./+types/earnings";
import { PageHeading } from "#app/components/page-heading";
import { Pager } from "#app/components/ui/data-table";
import { servicesContext } from "#app/context";
import { LedgerTable, LedgerTotals } from "#app/features/referrals/components/ledger-table";
import { EARNINGS_PAGE_SIZE, getAmbassadorEarnings } from "#app/features/referrals/referrals.server";
import { requireUser } from "#app/features/users/session.server";
import { pageRequestFrom } from "#app/lib/pagination";
import { formatPercent } from "#app/lib/vocabulary";

export const meta: Route.MetaFunction = () => [{ title: "Earnings | Ambassador Portal" }];

/**
 * Earnings (docs/product.md#earnings, docs/product.md#commissions-ledger): the ambassador's
 * commission ledger, 25 entries per page (`?after=` / `?before=`), and its totals.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  return getAmbassadorEarnings(db, requireUser(context), pageRequestFrom(params, { size: EARNINGS_PAGE_SIZE }));
}

/** Totals (pending, payable, paid out) and the ledger, newest first. */
export default function Earnings({ loaderData }: Route.ComponentProps) {
  const { entries, totals, rateBps, holdDays } = loaderData;
  return (
    <>
      <PageHeading
        title="Earnings"
        lead={`You earn a commission on every payment your clients make on the invoice of a proposal they approved: the rate in force when they approved it (today ${formatPercent(rateBps)}). A refund takes its share back. Each commission is pending for ${holdDays} ${holdDays === 1 ? "day" : "days"}, then payable, and paid out with your next payout.`}
      />
      <LedgerTotals totals={totals} />
      <section aria-labelledby="ledger-title" className="mt-8">
        <h2 id="ledger-title" className="mb-3 text-xl font-semibold">
          Commission ledger
        </h2>
        <LedgerTable
          caption="Commission ledger"
          lines={entries.items}
          empty="No commissions yet. They appear here when a client pays an invoice of a proposal they approved."
        />
        <Pager page={entries} noun="entries" one="entry" shown={entries.items.length} />
      </section>
    </>
  );
}
