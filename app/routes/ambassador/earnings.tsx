import type { Route } from "./+types/earnings";
import { LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { servicesContext } from "#app/context";
import { CommissionStatusBadge } from "#app/features/referrals/components/commission-status-badge";
import { getAmbassadorEarnings } from "#app/features/referrals/referrals.server";
import { formatPercent } from "#app/lib/vocabulary";
import { formatCents } from "#app/lib/money";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Earnings | Ambassador Portal" }];

/** Earnings (docs/product.md#earnings, docs/product.md#commissions): commission per client-approved proposal and totals. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  return getAmbassadorEarnings(db, requireUser(context));
}

/** Totals (earned, pending payment, paid) and one line per approved proposal. */
export default function Earnings({ loaderData }: Route.ComponentProps) {
  const { rows, totals, rateBps, currency } = loaderData;
  const rate = formatPercent(rateBps);
  return (
    <>
      <PageHeading
        title="Earnings"
        lead={`Your commission is ${rate} of each proposal your client approved: of the invoice total once there is one, else of the budget.`}
      />
      <dl className="grid gap-4 sm:grid-cols-3">
        {[
          ["Total earned", totals.earnedCents],
          ["Unpaid", totals.pendingCents],
          ["Paid", totals.paidCents],
        ].map(([label, cents]) => (
          <div key={label} className="rounded-xl border border-slate-200 p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums">{formatCents(cents as number, currency)}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="lines-title" className="mt-8">
        <h2 id="lines-title" className="text-xl font-semibold">
          Approved proposals
        </h2>
        {rows.length === 0 ? (
          <p className="mt-3 text-slate-600">No approved proposals yet. Commissions appear here once a client approves your proposal.</p>
        ) : (
          <ul className="mt-3 space-y-3" aria-label="Commissions">
            {rows.map((row) => (
              <li
                key={row.proposalId}
                className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
              >
                <div className="min-w-0">
                  <p className="font-medium wrap-anywhere">{row.projectName ?? "Untitled project"}</p>
                  <p className="text-sm wrap-anywhere text-slate-600">
                    {row.clientName} · approved <LocalDateTime value={row.approvedAt} style="date" /> ·{" "}
                    {row.baseCents === null
                      ? "no amount yet"
                      : `${formatCents(row.baseCents, currency)} ${row.baseSource === "invoice" ? "invoice total" : "budget"}`}
                  </p>
                </div>
                <div className="flex items-center gap-3 sm:justify-end">
                  <span className="text-lg font-semibold tabular-nums">{formatCents(row.commissionCents, currency)}</span>
                  <CommissionStatusBadge clientApproved paid={Boolean(row.paidAt)} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
