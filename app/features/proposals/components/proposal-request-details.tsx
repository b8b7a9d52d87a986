/**
 * Everything a client (or the ambassador for them) asked for in a proposal request, in full
 * (docs/product.md#proposal-pages): no field cut short, long text wrapped, the inspiration URL a
 * link only when it is http(s).
 */
import { DetailItem } from "#app/components/ui/detail-item";
import { useFormatMoney } from "#app/components/money";
import type { WebsiteGoal } from "#app/db/enums";

/** The request's fields as stored (money in cents). */
export interface ProposalRequestFields {
  projectName: string | null;
  projectDetails: string;
  timeline: string | null;
  budgetCents: number | null;
  targetAudience: string | null;
  designInspiration: string | null;
  numberOfPages: number | null;
  websiteGoal: WebsiteGoal | null;
  revisionComment: string | null;
  declineReason: string | null;
}

const NOT_GIVEN = "Not given";

/** @param headingId - the id of the heading that names this section (for `aria-labelledby`). */
export function ProposalRequestDetails({
  request: r,
  headingId,
  title,
}: {
  request: ProposalRequestFields;
  headingId: string;
  title: string;
}) {
  const money = useFormatMoney();
  const inspiration = r.designInspiration && /^https?:\/\//i.test(r.designInspiration) ? r.designInspiration : null;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      <h3 className="mt-3 text-sm font-medium text-slate-600">Project details</h3>
      <p className="mt-1 wrap-anywhere whitespace-pre-line text-slate-900" data-testid="project-details">
        {r.projectDetails}
      </p>
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <DetailItem label="Budget">{r.budgetCents !== null ? money(r.budgetCents) : NOT_GIVEN}</DetailItem>
        <DetailItem label="Timeline">{r.timeline || NOT_GIVEN}</DetailItem>
        <DetailItem label="Number of pages">{r.numberOfPages ?? NOT_GIVEN}</DetailItem>
        <DetailItem label="Website goal">{r.websiteGoal ?? NOT_GIVEN}</DetailItem>
        <DetailItem label="Target audience" className="font-medium wrap-anywhere whitespace-pre-line">
          {r.targetAudience || NOT_GIVEN}
        </DetailItem>
        <DetailItem label="Design inspiration" className="font-medium wrap-anywhere">
          {inspiration ? (
            <a href={inspiration} rel="noopener noreferrer nofollow" target="_blank" className="text-brand-700 underline">
              {inspiration}
            </a>
          ) : (
            r.designInspiration || NOT_GIVEN
          )}
        </DetailItem>
      </dl>
      {r.revisionComment ? (
        <div className="mt-4 text-sm">
          <h3 className="font-medium text-slate-600">Revision requested</h3>
          <p className="mt-1 wrap-anywhere whitespace-pre-line">{r.revisionComment}</p>
        </div>
      ) : null}
      {r.declineReason ? (
        <div className="mt-4 text-sm">
          <h3 className="font-medium text-slate-600">Declined by the client</h3>
          <p className="mt-1 wrap-anywhere whitespace-pre-line">{r.declineReason}</p>
        </div>
      ) : null}
    </section>
  );
}
