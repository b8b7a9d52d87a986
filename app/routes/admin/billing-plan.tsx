import { Form, Link } from "react-router";
import type { Route } from "./+types/billing-plan";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmAction } from "#app/components/ui/confirm";
import { FormMessage, useIsSubmitting } from "#app/components/ui/form";
import { PlanForm } from "#app/features/billing/components/plan-form";
import {
  cancelBillingPlan,
  changeBillingPlan,
  getBillingPlanForAdmin,
  pauseBillingPlan,
  resumeBillingPlan,
} from "#app/features/billing/plans.server";
import { planChangeSchema, toPlanChangeInput } from "#app/features/billing/billing.schema";
import { BILLING_MESSAGES, FREQUENCY_LABELS, PLAN_STATUS_LABELS } from "#app/features/billing/billing.messages";
import { getSettings } from "#app/features/settings/settings.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formatCalendarDate } from "#app/lib/dates";
import { conformIntent, requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { paramId } from "#app/lib/ids";
import { centsToInput, currencyOf, formatCents } from "#app/lib/money";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.plan.name ?? "Billing plan"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** `/admin/billing-plans/:planId`: the plan, its invoices, and its change, pause, resume and cancel forms. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const found = await getBillingPlanForAdmin(db, actor, paramId(params.planId, BILLING_MESSAGES.planNotFound));
  return {
    ...found,
    form: formConstraints(planChangeSchema),
    currency: currencyOf(await getSettings(db)),
    created: new URL(request.url).searchParams.get("created") === "1",
  };
}

/** The plan's writes (docs/product.md#recurring-billing), each audited by its use-case. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const planId = paramId(args.params.planId, BILLING_MESSAGES.planNotFound);
  return runIntent(args, {
    change: conformIntent(planChangeSchema, async (value) => {
      await changeBillingPlan(db, actor, planId, toPlanChangeInput(value));
      return BILLING_MESSAGES.saved;
    }),
    pause: async () => {
      await pauseBillingPlan(db, actor, planId);
      return BILLING_MESSAGES.paused;
    },
    resume: async () => {
      const plan = await resumeBillingPlan(db, actor, planId);
      return BILLING_MESSAGES.resumed(plan.nextCycleOn ? formatCalendarDate(plan.nextCycleOn) : null);
    },
    "cancel-plan": async (form) => {
      requireConfirmation(form, "Confirm the cancellation first.");
      await cancelBillingPlan(db, actor, planId);
      return BILLING_MESSAGES.cancelledDone;
    },
  });
}

export default function AdminBillingPlan({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, organisationName, status, cycles, currency } = loaderData;
  const pending = useIsSubmitting();
  const message = actionData && actionData.intent !== "change" ? actionData : null;
  return (
    <>
      <PageHeading
        title={plan.name}
        lead={`${organisationName} · ${FREQUENCY_LABELS[plan.frequency]} · ${formatCents(plan.totalCents, currency)} per invoice`}
      >
        <Link to="/admin/billing-plans" className="text-brand-700 underline">
          ← Back to billing plans
        </Link>
      </PageHeading>
      {loaderData.created ? (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
          {BILLING_MESSAGES.created(plan.name)}
        </p>
      ) : null}
      {message ? <FormMessage errors={message.ok ? undefined : [message.message]} success={message.ok ? message.message : null} /> : null}
      <dl className="my-4 grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-600">Status</dt>
        <dd data-testid="plan-status">{PLAN_STATUS_LABELS[status]}</dd>
        <dt className="font-medium text-slate-600">Next invoice</dt>
        <dd data-testid="plan-next">
          {status === "active" && plan.nextCycleOn
            ? formatCalendarDate(plan.nextCycleOn)
            : status === "paused"
              ? "None while paused"
              : "None"}
        </dd>
        <dt className="font-medium text-slate-600">Schedule</dt>
        <dd>
          {FREQUENCY_LABELS[plan.frequency]} from {formatCalendarDate(plan.startDate)}
          {plan.dayOfMonth ? `, on day ${plan.dayOfMonth} (the last day of shorter months)` : ""}
          {plan.endDate ? `, until ${formatCalendarDate(plan.endDate)}` : ""}
          {plan.maxCycles ? `, ${plan.maxCycles} invoices` : ""}
        </dd>
        <dt className="font-medium text-slate-600">Payment</dt>
        <dd data-testid="plan-payment">
          {plan.autopay
            ? `Charged to the organisation's saved card when issued (mailed with a pay link when there is none or it fails). Due ${plan.dueDays} days after issue.`
            : `Each invoice is mailed with a pay link. Due ${plan.dueDays} days after issue.`}
        </dd>
      </dl>
      {status === "active" || status === "paused" ? (
        <div className="mb-6 flex flex-wrap items-start gap-3">
          {status === "active" ? (
            <Form method="post">
              <button type="submit" name="intent" value="pause" className={buttonClass("secondary", "md")} disabled={pending}>
                Pause plan
              </button>
            </Form>
          ) : (
            <Form method="post">
              <button type="submit" name="intent" value="resume" className={buttonClass("primary", "md")} disabled={pending}>
                Resume plan
              </button>
            </Form>
          )}
          <ConfirmAction
            intent="cancel-plan"
            id={plan.id}
            label="Cancel plan"
            question="Cancel this billing plan?"
            details="No further invoices are issued. Invoices already issued stay as they are."
            confirmLabel="Yes, cancel the plan"
            pendingLabel="Cancelling…"
          />
        </div>
      ) : null}
      <h2 className="mb-2 text-xl font-semibold">Invoices issued</h2>
      {cycles.length === 0 ? (
        <p className="mb-6 text-slate-700">None yet.</p>
      ) : (
        <ul className="mb-6 divide-y divide-slate-200 rounded-xl border border-slate-200" aria-label="Invoices issued">
          {cycles.map((c) => (
            <li key={c.cycleIndex} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
              <span>{formatCalendarDate(c.cycleOn)}</span>
              {c.invoiceId ? (
                <Link to={`/admin/invoices/${c.invoiceId}/payments`} className="text-brand-700 underline">
                  {c.number}
                </Link>
              ) : (
                <span>Invoice deleted</span>
              )}
              <span>
                {c.totalCents === null ? "" : formatCents(c.totalCents, currency)} ·{" "}
                {c.status === "paid" ? "Paid" : c.invoiceId ? "Unpaid" : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      {status === "active" || status === "paused" ? (
        <section aria-labelledby="change-plan">
          <h2 id="change-plan" className="mb-2 text-xl font-semibold">
            Change the plan
          </h2>
          <p className="mb-3 text-sm text-slate-700">Changes apply from the next invoice; invoices already issued are not touched.</p>
          {actionData?.intent === "change" && actionData.ok ? <FormMessage success={actionData.message} /> : null}
          <PlanForm
            key={plan.updatedAt.toString()}
            id="change-plan-form"
            mode="change"
            intent="change"
            constraint={loaderData.form}
            lastResult={actionData?.intent === "change" ? actionData.result : undefined}
            currency={currency}
            defaultValue={{
              name: plan.name,
              items: plan.items.map((item) => ({ description: item.description, amount: centsToInput(item.amountCents) })),
              dueDays: String(plan.dueDays),
              autopay: plan.autopay,
              endDate: plan.endDate ?? "",
              maxCycles: plan.maxCycles === null ? "" : String(plan.maxCycles),
            }}
          />
        </section>
      ) : null}
    </>
  );
}
