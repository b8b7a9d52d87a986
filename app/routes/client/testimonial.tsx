import { Form } from "react-router";
import type { Route } from "./+types/testimonial";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextArea, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { ActionNotice } from "#app/components/ui/notice";
import { OWNER_ROLES } from "#app/features/organisations/access.server";
import { CONSENT_LABELS, testimonialSchema } from "#app/features/portfolio/case-study.schema";
import { getMyTestimonial, submitTestimonial, withdrawTestimonial } from "#app/features/portfolio/testimonials.server";
import { actorAndDb, requireOrganisationRoles } from "#app/features/users/session.server";
import { notFound } from "#app/lib/errors";
import { conformIntent, requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { parseId } from "#app/lib/ids";

export const meta: Route.MetaFunction = () => [{ title: "Your testimonial | Client Portal" }];

/** Owners of the organisation only (docs/product.md#testimonials); the use-cases check it again. */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(OWNER_ROLES, "Testimonial not found")];

function testimonialId(params: { testimonialId?: string }): number {
  const id = parseId(params.testimonialId);
  if (id === null) throw notFound("Testimonial not found");
  return id;
}

/** The request (or the testimonial written so far). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const t = await getMyTestimonial(db, actor, testimonialId(params));
  return {
    testimonial: { ...t, submittedAt: t.submittedAt?.toISOString() ?? null },
    form: formConstraints(testimonialSchema),
  };
}

/** `save` (write or change: it waits for the agency's approval again) and `withdraw` (after confirmation). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const id = testimonialId(args.params);
  return runIntent(args, {
    save: conformIntent(testimonialSchema, async (value) => {
      await submitTestimonial(db, actor, id, value);
      return value.consent === "none"
        ? "Thank you! Your testimonial is saved for the agency only; it is not published."
        : "Thank you! Your testimonial is saved. It appears on the site once the agency approves it.";
    }),
    withdraw: async (form) => {
      requireConfirmation(form, "Confirm that you withdraw your testimonial.");
      await withdrawTestimonial(db, actor, id);
      return "Your testimonial is withdrawn: it is no longer on the site.";
    },
  });
}

/** /testimonials/:testimonialId (issue #40): a short testimonial and a rating, with the consent to publish; change or withdraw later. */
export default function ClientTestimonial({ loaderData, actionData }: Route.ComponentProps) {
  const t = loaderData.testimonial;
  const saveResult = actionData && actionData.intent === "save" ? actionData : null;
  const [form, fields] = useAppForm({
    id: "testimonial",
    constraint: loaderData.form,
    lastResult: saveResult?.result,
    defaultValue: { text: t.text ?? "", rating: t.rating ? String(t.rating) : "", consent: t.withdrawn ? "" : (t.consent ?? "") },
  });
  const pending = useIsSubmitting();
  const state = t.withdrawn
    ? "You withdrew this testimonial: it is not on the site. You can write it again below."
    : !t.submittedAt
      ? null
      : t.consent === "none"
        ? "Saved for the agency only: it is not published."
        : t.approved
          ? "Approved and shown on the site."
          : "Waiting for the agency's approval before it appears on the site.";
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeading title="Your testimonial" lead={`How did ${t.projectName} go? A few words and a rating help others choose us.`} />
      {state ? (
        <p className="mb-4 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-slate-800" data-testid="testimonial-state">
          {state}
        </p>
      ) : null}
      {actionData && actionData.intent === "withdraw" ? <ActionNotice result={actionData} className="mb-4" /> : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 sm:p-6">
        <input type="hidden" name="intent" value="save" />
        <FormMessage id={form.errorId} errors={form.errors} success={saveResult?.ok ? saveResult.message : null} />
        <TextArea field={fields.text} label="Your testimonial" rows={4} hint="Up to 1,000 characters." />
        <fieldset aria-describedby={fields.rating.errors?.length ? fields.rating.errorId : undefined}>
          <legend className="text-sm font-medium text-slate-800">Rating</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {[5, 4, 3, 2, 1].map((n) => (
              <label key={n} className="flex items-center gap-1">
                <input type="radio" name="rating" value={n} required defaultChecked={t.rating === n} /> {n} {n === 1 ? "star" : "stars"}
              </label>
            ))}
          </div>
          {fields.rating.errors?.length ? (
            <p id={fields.rating.errorId} className="text-sm text-red-700">
              {fields.rating.errors.join(" ")}
            </p>
          ) : null}
        </fieldset>
        <fieldset aria-describedby={fields.consent.errors?.length ? fields.consent.errorId : undefined}>
          <legend className="text-sm font-medium text-slate-800">May we publish it?</legend>
          <div className="mt-1 flex flex-col gap-2">
            {(Object.keys(CONSENT_LABELS) as (keyof typeof CONSENT_LABELS)[]).map((consent) => (
              <label key={consent} className="flex items-center gap-2">
                <input type="radio" name="consent" value={consent} required defaultChecked={!t.withdrawn && t.consent === consent} />{" "}
                {CONSENT_LABELS[consent]}
              </label>
            ))}
          </div>
          {fields.consent.errors?.length ? (
            <p id={fields.consent.errorId} className="text-sm text-red-700">
              {fields.consent.errors.join(" ")}
            </p>
          ) : null}
        </fieldset>
        <div>
          <SubmitButton pending={pending} pendingLabel="Saving…">
            {t.submittedAt ? "Save changes" : "Send testimonial"}
          </SubmitButton>
        </div>
      </Form>
      {t.submittedAt && !t.withdrawn ? (
        <Form method="post" className="mt-6 flex flex-wrap items-center gap-3 rounded-xl border border-red-200 p-4">
          <input type="hidden" name="intent" value="withdraw" />
          <label className="flex items-center gap-2">
            <input type="checkbox" name="confirm" value="yes" required /> Remove my testimonial from the site
          </label>
          <button type="submit" className={buttonClass("danger", "md")}>
            Withdraw
          </button>
        </Form>
      ) : null}
    </div>
  );
}
