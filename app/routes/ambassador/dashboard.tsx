import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { LocalDateTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { CardSection } from "#app/components/ui/card-section";
import { Notice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { ApprovalBadge, ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { CopyLink } from "#app/features/referrals/components/copy-link";
import { referralLink } from "#app/features/referrals/referral-link";
import { getAmbassadorCommissionTotals, getAmbassadorDashboard } from "#app/features/referrals/referrals.server";
import { useFormatMoney } from "#app/components/money";
import { buttonClass } from "#app/components/ui/button";
import { PROPOSAL_STATUSES } from "#app/db/enums";
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Ambassador Dashboard | Ambassador Portal" }];

/**
 * Ambassador dashboard (docs/product.md#ambassador-dashboard): a summary (referred clients,
 * proposals by status, commission payable, pending and paid out), the link, the clients who registered through it, and the
 * ambassador's proposals, 10 per page (`?page=`), each with "Submit another proposal for this client". `?submitted=1` shows the
 * success message after a proposal was submitted without JavaScript.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const actor = requireUser(context);
  const pageParam = new URL(request.url).searchParams.get("page");
  const page = pageParam && /^\d{1,5}$/.test(pageParam) ? Number(pageParam) : 1;
  const dashboard = await getAmbassadorDashboard(db, actor, page);
  const commissions = await getAmbassadorCommissionTotals(db, actor);
  return {
    ...dashboard,
    commissions,
    currency: commissions.currency,
    link: dashboard.referralCode ? referralLink(env.origin, dashboard.referralCode) : null,
    submitted: new URL(request.url).searchParams.get("submitted") === "1",
  };
}

/** Referral link with copy button, referred clients, proposals. */
export default function AmbassadorDashboard({ loaderData }: Route.ComponentProps) {
  const { link, referredClients, proposals, submitted, summary, page, commissions } = loaderData;
  const money = useFormatMoney();
  return (
    <>
      <PageHeading title="Ambassador Dashboard" lead="Share your link, follow your clients and proposals.">
        <Link to="/ambassador/submit-proposal" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
          Submit a proposal
        </Link>
      </PageHeading>
      {submitted ? (
        <div className="mb-4">
          <Notice tone="success">{PROPOSAL_MESSAGES.ambassadorSubmitted}</Notice>
        </div>
      ) : null}

      <section aria-labelledby="summary-title" className="mb-6">
        <h2 id="summary-title" className="sr-only">
          Summary
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <SummaryStat label="Referred clients" value={summary.referredClients.toLocaleString("en-US")} />
          <SummaryStat
            label="Proposals"
            value={summary.proposals.toLocaleString("en-US")}
            detail={PROPOSAL_STATUSES.filter((s) => summary.byStatus[s])
              .map((s) => `${summary.byStatus[s]} ${PROPOSAL_STATUS_LABELS[s].toLowerCase()}`)
              .join(" · ")}
          />
          <SummaryStat label="Commission pending" value={money(commissions.pendingCents)} />
          <SummaryStat label="Commission payable" value={money(commissions.payableCents)} />
          <SummaryStat label="Commission paid out" value={money(commissions.paidOutCents)} />
        </dl>
      </section>

      <CardSection id="link-title" title="Your referral link">
        <p className="mt-1 text-sm text-slate-700">Clients who register through this link are linked to you.</p>
        <div className="mt-3">
          {link ? <CopyLink value={link} label="Referral link" /> : <Notice tone="error">{PROPOSAL_MESSAGES.referralMissing}</Notice>}
        </div>
      </CardSection>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)]">
        <CardSection id="clients-title" title="Referred clients" className="min-w-0">
          {referredClients.length === 0 ? (
            <p className="mt-3 text-slate-600">No one has registered through your link yet.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200" aria-label="Referred clients">
              {referredClients.map((c) => (
                <li key={c.id} className="py-2">
                  <p className="font-medium wrap-anywhere">{c.businessName ?? c.name}</p>
                  <p className="text-sm wrap-anywhere text-slate-600">
                    {c.email} · joined <LocalDateTime value={c.createdAt} style="date" />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </CardSection>

        <CardSection id="proposals-title" title="Your proposals" className="min-w-0">
          {proposals.length === 0 ? (
            <p className="mt-3 text-slate-600">
              No proposals yet.{" "}
              <Link className="text-brand-700 underline" to="/ambassador/submit-proposal">
                Submit one
              </Link>{" "}
              for a client.
            </p>
          ) : (
            <ul className="mt-3 space-y-3" aria-label="Your proposals">
              {proposals.map((p) => (
                <li key={p.id} className="rounded-lg border border-slate-200 p-3">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium wrap-anywhere">
                        <Link to={`/ambassador/proposals/${p.id}`} className="text-brand-700 underline">
                          {p.projectName ?? "Untitled project"}
                        </Link>
                      </p>
                      <p className="text-sm wrap-anywhere text-slate-600">
                        {p.clientName} ({p.clientEmail}) · <LocalDateTime value={p.createdAt} style="date" />
                        {p.budgetCents !== null ? ` · ${money(p.budgetCents)}` : ""}
                      </p>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <ProposalStatusBadge status={p.status} />
                      <ApprovalBadge approvedAt={p.clientApprovedAt} declinedAt={p.clientDeclinedAt} />
                    </div>
                  </div>
                  {!p.clientRegistered ? (
                    <p className="mt-1 text-xs text-slate-600">The client has no account yet: send them your referral link.</p>
                  ) : null}
                  {p.declineReason ? <p className="mt-1 text-sm text-slate-700">Reason: {p.declineReason}</p> : null}
                  {p.clientEmail ? (
                    <Link className="mt-2 inline-block text-sm text-brand-700 underline" to={`/ambassador/submit-proposal?from=${p.id}`}>
                      Submit another proposal for this client
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {page.pages > 1 ? (
            <nav
              aria-label="Pages of your proposals"
              className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700"
            >
              <p>
                Page {page.number} of {page.pages}
              </p>
              <div className="flex gap-2">
                {page.number > 1 ? (
                  <Link className={buttonClass("secondary")} to={`?page=${page.number - 1}`} preventScrollReset>
                    ← Newer
                  </Link>
                ) : null}
                {page.number < page.pages ? (
                  <Link className={buttonClass("secondary")} to={`?page=${page.number + 1}`} preventScrollReset>
                    Older →
                  </Link>
                ) : null}
              </div>
            </nav>
          ) : null}
        </CardSection>
      </div>
    </>
  );
}

function SummaryStat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-xl font-bold tracking-tight text-slate-900">{value}</dd>
      {detail ? <dd className="text-xs text-slate-600">{detail}</dd> : null}
    </div>
  );
}
