import { Link, redirect } from "react-router";
import type { Route } from "./+types/billing-plan-new";
import { PageHeading } from "#app/components/page-heading";
import { PlanForm } from "#app/features/billing/components/plan-form";
import { createBillingPlan, organisationChoices } from "#app/features/billing/plans.server";
import { planCreateSchema, toPlanCreateInput } from "#app/features/billing/billing.schema";
import { agencyToday } from "#app/features/billing/plan-dates";
import { getSettings } from "#app/features/settings/settings.server";
import { actorAndDb } from "#app/features/users/session.server";
import { now } from "#app/lib/clock.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { currencyOf } from "#app/lib/money";

export const meta: Route.MetaFunction = () => [{ title: "New billing plan | Admin Console" }, { name: "robots", content: "noindex" }];

/** The organisations to bill and today's date in the agency's zone (the default start). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const settings = await getSettings(db);
  const organisationId = new URL(request.url).searchParams.get("organisation") ?? "";
  return {
    form: formConstraints(planCreateSchema),
    organisations: await organisationChoices(db, actor),
    today: agencyToday(now(), settings.timeZone),
    currency: currencyOf(settings),
    organisationId: /^\d{1,9}$/.test(organisationId) ? organisationId : "",
  };
}

/** Creates the plan (docs/product.md#recurring-billing); every rule is checked again by `createBillingPlan`. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return formAction(args, planCreateSchema, async (value) => {
    const plan = await createBillingPlan(db, actor, toPlanCreateInput(value));
    return redirect(`/admin/billing-plans/${plan.id}?created=1`);
  });
}

export default function NewBillingPlan({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading
        title="New billing plan"
        lead="An invoice with these items on every date of the schedule, mailed to the organisation's owners and billing people."
      >
        <Link to="/admin/billing-plans" className="text-brand-700 underline">
          ← Back to billing plans
        </Link>
      </PageHeading>
      {loaderData.organisations.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-700">
          There are no client organisations yet: a plan bills an organisation.
        </p>
      ) : (
        <PlanForm
          id="billing-plan"
          mode="create"
          constraint={loaderData.form}
          lastResult={actionData?.result}
          organisations={loaderData.organisations}
          currency={loaderData.currency}
          defaultValue={{
            organisationId: loaderData.organisationId,
            name: "",
            items: [{ description: "", amount: "" }],
            frequency: "monthly",
            startDate: loaderData.today,
            dayOfMonth: "",
            endDate: "",
            maxCycles: "",
            dueDays: "14",
            autopay: false,
          }}
        />
      )}
    </>
  );
}
