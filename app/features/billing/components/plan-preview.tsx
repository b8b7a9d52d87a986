/**
 * The client's preview of their recurring billing (issue #39): per plan, what will be billed next,
 * when, and how. Shown on the dashboard and the invoices page.
 */
import { formatCalendarDate } from "#app/lib/dates";
import { formatCents } from "#app/lib/money";
import { FREQUENCY_LABELS } from "../billing.messages";
import type { BillingFrequency } from "../plan-dates";

/** A plan as the preview needs it (see `clientPlanPreviews`). */
export interface PlanPreviewData {
  id: number;
  name: string;
  frequency: BillingFrequency;
  totalCents: number;
  items: { description: string; amountCents: number }[];
  nextOn: string | null;
  paused: boolean;
  autopay: boolean;
  dueDays: number;
}

/** The organisation's plans that still bill (nothing when there are none). */
export function PlanPreview({ plans, currency }: { plans: PlanPreviewData[]; currency: string }) {
  if (plans.length === 0) return null;
  return (
    <section aria-labelledby="recurring-billing" className="mb-6 rounded-xl border border-slate-200 p-4 shadow-sm">
      <h2 id="recurring-billing" className="mb-2 text-lg font-semibold">
        Recurring billing
      </h2>
      <ul className="space-y-3">
        {plans.map((plan) => (
          <li key={plan.id} data-testid="plan-preview" className="text-sm">
            <p className="font-medium">
              {plan.name} · {FREQUENCY_LABELS[plan.frequency]}
            </p>
            <p>
              {plan.paused || !plan.nextOn ? (
                "Paused: nothing will be billed until the agency resumes it."
              ) : (
                <>
                  Next: <strong className="tabular-nums">{formatCents(plan.totalCents, currency)}</strong> on{" "}
                  <strong>{formatCalendarDate(plan.nextOn)}</strong>
                  {" — "}
                  {`an invoice mailed to you, due ${plan.dueDays === 0 ? "on receipt" : `within ${plan.dueDays} days`}.`}
                </>
              )}
            </p>
            <p className="text-slate-700">
              {plan.items.map((item) => `${item.description} ${formatCents(item.amountCents, currency)}`).join(" · ")}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
