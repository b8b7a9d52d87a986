import { Form, Link } from "react-router";
import type { Route } from "./+types/proposal-request";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { ProposalFields } from "#app/features/proposals/components/proposal-fields";
import { proposalRequestSchema } from "#app/features/proposals/proposals.schema";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { requestProposal } from "#app/features/proposals/proposals.server";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { useFocusOnArrival } from "#app/lib/use-focus-result";
import { PROJECT_ROLES } from "#app/features/organisations/access.server";
import { findPublishedCaseStudy } from "#app/features/portfolio/case-studies.server";
import { z } from "zod";
import { requireOrganisationRoles } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Proposal Request | Client Portal" }];

/** Only for the roles whose area this is (docs/product.md#organisations: projects, conversations and meetings). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(PROJECT_ROLES)];

/** A refused request (too many in an hour) answers 429 with Retry-After. */
export const headers = retryAfterHeaders;

/** The request as this form posts it: the fields, and the case study it starts from (issue #40). */
const requestFormSchema = proposalRequestSchema.extend({ caseStudy: z.string().max(100).optional() });

/**
 * The form's checks; it starts empty, or — from a case study's "Start a project like this"
 * (`?caseStudy=<slug>`, issue #40) — prefilled with a reference to that case study.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const slug = new URL(request.url).searchParams.get("caseStudy");
  const found = slug ? await findPublishedCaseStudy(context.get(servicesContext).db, slug) : null;
  const reference = found ? { slug: found.content.slug, title: found.content.title } : null;
  return {
    form: formConstraints(proposalRequestSchema),
    reference,
    defaultValue: reference
      ? {
          projectName: `A project like ${reference.title}`,
          projectDetails: `I would like a project like your case study “${reference.title}” (/${reference.slug}).\n\nWhat I need: `,
        }
      : undefined,
  };
}

/**
 * Proposal request (docs/product.md#proposals-request). The use-case itself refuses a
 * signed-out post ("User not logged in"); the area guard redirects those to /login first.
 */
export async function action(args: Route.ActionArgs) {
  const { db } = args.context.get(servicesContext);
  return formAction(args, requestFormSchema, async ({ caseStudy, ...value }) => {
    // The source is recorded only for a published case study (a stale or made-up slug is ignored).
    const source = caseStudy ? await findPublishedCaseStudy(db, caseStudy) : null;
    await requestProposal(db, args.context.get(sessionUserContext), value, { sourceCaseStudyId: source?.id ?? null });
    return PROPOSAL_MESSAGES.requestSubmitted;
  });
}

/** The request form, reset after success. */
export default function ProposalRequest({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({
    id: "proposal-request",
    constraint: loaderData.form,
    lastResult: actionData?.result,
    defaultValue: loaderData.defaultValue,
  });
  const pending = useIsSubmitting();
  const succeeded = actionData?.ok === true && !form.dirty;
  const resultRef = useFocusOnArrival<HTMLDivElement>(succeeded ? actionData : null);
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeading title="Proposal Request" lead="Tell us about the website you need. Only the project details are required." />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        {/* The result is shown where the user is: scrolled into view and focused (a phone's screen
            would otherwise show the emptied form below it). */}
        <div ref={resultRef} tabIndex={-1} className="flex flex-col gap-2 outline-none" data-testid="request-result">
          <FormMessage id={form.errorId} errors={form.errors} success={succeeded ? PROPOSAL_MESSAGES.requestSubmitted : null} />
          {succeeded ? (
            <p className="text-sm">
              Follow it on{" "}
              <Link className="text-brand-700 underline" to="/project-status">
                Project Status
              </Link>
              .
            </p>
          ) : null}
        </div>
        {loaderData.reference ? (
          <p
            className="rounded-control border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-slate-800"
            data-testid="case-study-reference"
          >
            Starting from the case study{" "}
            <a className="font-semibold text-brand-700 underline" href={`/${loaderData.reference.slug}`}>
              {loaderData.reference.title}
            </a>
            .
            <input type="hidden" name="caseStudy" value={loaderData.reference.slug} />
          </p>
        ) : null}
        <ProposalFields fields={fields} />
        <div>
          <SubmitButton pending={pending} pendingLabel="Submitting…">
            Submit request
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
