import { Link } from "react-router";
import type { Route } from "./+types/invoices";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { DetailItem } from "#app/components/ui/detail-item";
import { PageNav } from "#app/components/ui/page-nav";
import { servicesContext } from "#app/context";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { listClientInvoices } from "#app/features/invoices/invoices.server";
import { getSettings } from "#app/features/settings/settings.server";
import { requireUser } from "#app/features/users/session.server";
import { currencyOf, formatCents } from "#app/lib/money";
import { upcomingPayments } from "#app/features/agreements/payment-schedule.server";
import { DASHBOARD_OPEN_ROWS, listClientProposalRows } from "#app/features/proposals/proposals.server";
import { parsePageParam } from "#app/lib/pagination";
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { requireOrganisationRoles } from "#app/features/users/session.server";
import { clientPlanPreviews } from "#app/features/billing/client-plans.server";
import { PlanPreview } from "#app/features/billing/components/plan-preview";
import { cardLabel, getSavedCard } from "#app/features/payments/saved-cards.server";

export const meta: Route.MetaFunction = () => [{ title: "Invoices | Client Portal" }, { name: "robots", content: "noindex" }];

/** Only for the roles whose area this is (docs/product.md#organisations: invoices and payments). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(MONEY_ROLES)];

/** `/invoices` (docs/product.md#client-invoices): every invoice of the client, newest first, 20 per page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const page = parsePageParam(new URL(request.url).searchParams.get("page"));
  const actor = requireUser(context);
  const [list, settings, plans, card] = await Promise.all([
    listClientInvoices(db, actor, { page }),
    getSettings(db),
    // #39: the organisation's recurring billing, what comes next, and the card automatic payments use.
    clientPlanPreviews(db, actor),
    getSavedCard(db, actor),
  ]);
  // #37: what comes next on the payment schedules of the client's open projects.
  const upcoming = await upcomingPayments(
    db,
    await listClientProposalRows(db, actor, { includeCompleted: false, limit: DASHBOARD_OPEN_ROWS }),
    currencyOf(settings),
  );
  return { list, currency: settings.currency, plans, upcoming, card: card ? { ...card, label: cardLabel(card) } : null };
}

/** The client's invoices: number, project, issue and due dates, total, status, page and PDF links. */
export default function ClientInvoices({ loaderData }: Route.ComponentProps) {
  const { list, currency } = loaderData;
  const pageLink = (page: number) => (page > 1 ? `?page=${page}` : "?");
  return (
    <>
      <PageHeading title="Invoices" lead="All of your invoices, newest first, whatever the state of their project." />
      <PlanPreview plans={loaderData.plans} currency={currency} card={loaderData.card} />
      {loaderData.upcoming.length > 0 ? (
        <section aria-labelledby="upcoming-title" className="mb-6 rounded-xl border border-brand-200 p-4" data-testid="upcoming-payments">
          <h2 id="upcoming-title" className="text-lg font-semibold">
            What comes next
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {loaderData.upcoming.map((next) => (
              <li key={next.proposalId} className="wrap-anywhere">
                <Link to={`/proposals/${next.proposalId}`} className="font-medium text-brand-700 underline">
                  {next.projectName ?? "Website project"}
                </Link>
                : {next.text}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {list.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-700">No invoices yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Invoices">
          {list.items.map((inv) => (
            <li key={inv.id} className="rounded-xl border border-slate-200 p-4 shadow-sm" aria-labelledby={`invoice-${inv.id}`}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <h2 id={`invoice-${inv.id}`} className="text-lg font-semibold">
                    <Link to={`/view-invoice/${inv.id}`} className="underline-offset-4 hover:underline">
                      {inv.number}
                    </Link>
                  </h2>
                  <p className="text-sm wrap-anywhere text-slate-700">{inv.projectName ?? "Website project"}</p>
                </div>
                <InvoiceStatusBadge status={inv.displayStatus} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
                <DetailItem label="Issued">
                  <LocalDateTime value={inv.createdAt} style="date" />
                </DetailItem>
                <DetailItem label="Due">
                  <LocalDate value={inv.dueDate} />
                </DetailItem>
                <DetailItem label="Total" className="font-semibold tabular-nums" data-testid="invoice-total">
                  {formatCents(inv.totalCents, currency)}
                </DetailItem>
              </dl>
              <p className="mt-3 flex flex-wrap gap-2 text-sm">
                <Link to={`/view-invoice/${inv.id}`} className="btn btn-secondary btn-sm">
                  View<span className="sr-only"> invoice {inv.number}</span>
                </Link>
                <a href={`/view-invoice/${inv.id}/pdf`} className="btn btn-secondary btn-sm">
                  PDF<span className="sr-only"> of invoice {inv.number}</span>
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
      <PageNav page={list.page} pageCount={list.pageCount} href={pageLink} linkClassName="btn btn-secondary btn-md" />
    </>
  );
}
