/**
 * The client's preview of their recurring billing (issue #39): per plan, what will be billed next,
 * when, and how. Shown on the dashboard and the invoices page.
 */
import { Link } from "react-router";
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

/** The saved card as the preview names it ("Visa •••• 4242"). */
export interface PlanPreviewCard {
  label: string;
}

/**
 * The organisation's plans that still bill, and a link to the saved card (docs/product.md#saved-cards).
 * A plan that charges automatically says which card it will charge, or that it is mailed while no card is saved.
 */
export function PlanPreview({ plans, currency, card }: { plans: PlanPreviewData[]; currency: string; card?: PlanPreviewCard | null }) {
  if (plans.length === 0) return null;
  const how = (plan: PlanPreviewData) =>
    plan.autopay && card
      ? `charged automatically to your ${card.label}.`
      : `an invoice mailed to you, due ${plan.dueDays === 0 ? "on receipt" : `within ${plan.dueDays} days`}.`;
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
                  {how(plan)}
                </>
              )}
            </p>
            <p className="text-slate-700">
              {plan.items.map((item) => `${item.description} ${formatCents(item.amountCents, currency)}`).join(" · ")}
            </p>
          </li>
        ))}
      </ul>
      {card === undefined ? null : (
        <p className="mt-3 text-sm">
          <Link to="/payment-method" className="font-medium text-brand-700 underline underline-offset-4">
            {card ? `Saved card: ${card.label}` : "Save a card for automatic payments"}
          </Link>
        </p>
      )}
    </section>
  );
}
