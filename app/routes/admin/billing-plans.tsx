import { Link } from "react-router";
import type { Route } from "./+types/billing-plans";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { listBillingPlans } from "#app/features/billing/plans.server";
import { FREQUENCY_LABELS, PLAN_STATUS_LABELS } from "#app/features/billing/billing.messages";
import { getSettings } from "#app/features/settings/settings.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formatCalendarDate } from "#app/lib/dates";
import { currencyOf, formatCents } from "#app/lib/money";

export const meta: Route.MetaFunction = () => [{ title: "Billing plans | Admin Console" }, { name: "robots", content: "noindex" }];

/** `/admin/billing-plans` (docs/product.md#recurring-billing): every recurring plan, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const created = new URL(request.url).searchParams.get("created");
  return { plans: await listBillingPlans(db, actor), currency: currencyOf(await getSettings(db)), created: created?.slice(0, 120) ?? null };
}

export default function AdminBillingPlans({ loaderData }: Route.ComponentProps) {
  const { plans, currency, created } = loaderData;
  return (
    <>
      <PageHeading
        title="Billing plans"
        lead="Retainers and other recurring invoices: each plan issues an invoice on its dates, in the agency's time zone."
      >
        <Link to="/admin/billing-plans/new" className={buttonClass("primary", "md")}>
          New billing plan
        </Link>
      </PageHeading>
      {created ? (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
          Billing plan “{created}” created.
        </p>
      ) : null}
      {plans.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-700">
          No billing plans yet. A plan invoices a client organisation weekly, monthly, quarterly or yearly.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200" aria-label="Billing plans">
          {plans.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <Link to={`/admin/billing-plans/${p.id}`} className="font-medium break-words text-brand-700 underline">
                  {p.name}
                </Link>
                <p className="text-sm text-slate-700">
                  {p.organisationName} · {FREQUENCY_LABELS[p.frequency]} · {formatCents(p.totalCents, currency)}
                </p>
              </div>
              <p className="text-sm text-slate-700">
                <span className="font-medium">{PLAN_STATUS_LABELS[p.status]}</span>
                {p.status === "active" && p.nextCycleOn ? ` · next invoice ${formatCalendarDate(p.nextCycleOn)}` : ""} · {p.issued} issued
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
