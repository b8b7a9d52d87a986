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
import { requireOrganisationRoles } from "#app/features/users/session.server";
import { newSubmissionKey, parseSubmissionKey } from "#app/features/submissions/submission-key.server";
import { SUBMISSION_KEY_FIELD } from "#app/features/submissions/submission-key";

export const meta: Route.MetaFunction = () => [{ title: "Proposal Request | Client Portal" }];

/** Only for the roles whose area this is (docs/product.md#organisations: projects, conversations and meetings). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(PROJECT_ROLES)];

/** A refused request (too many in an hour) answers 429 with Retry-After. */
export const headers = retryAfterHeaders;

/** The form's checks (it starts empty). */
export function loader() {
  // Issue #36: the form's idempotency key, new for every rendering (and after every request sent).
  return { form: formConstraints(proposalRequestSchema), submissionKey: newSubmissionKey() };
}

/**
 * Proposal request (docs/product.md#proposals-request). The use-case itself refuses a
 * signed-out post ("User not logged in"); the area guard redirects those to /login first.
 */
export async function action(args: Route.ActionArgs) {
  const { db } = args.context.get(servicesContext);
  return formAction(args, proposalRequestSchema, async (value, form) => {
    await requestProposal(db, args.context.get(sessionUserContext), value, parseSubmissionKey(form.get(SUBMISSION_KEY_FIELD)));
    return PROPOSAL_MESSAGES.requestSubmitted;
  });
}

/** The request form, reset after success. */
export default function ProposalRequest({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "proposal-request", constraint: loaderData.form, lastResult: actionData?.result });
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
        <input type="hidden" name={SUBMISSION_KEY_FIELD} value={loaderData.submissionKey} />
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
