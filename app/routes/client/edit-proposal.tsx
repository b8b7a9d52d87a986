import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/edit-proposal";
import { PageHeading } from "#app/components/page-heading";
import { RouteErrorMessage } from "#app/components/route-error";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { ProposalFields } from "#app/features/proposals/components/proposal-fields";
import { editProposalSchema } from "#app/features/proposals/proposals.schema";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { getProposalForEdit, updateProposal } from "#app/features/proposals/proposals.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { paramId } from "#app/lib/ids";
import { centsToInput } from "#app/lib/money";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit Proposal | Client Portal" }];

/**
 * Edit proposal (docs/product.md#proposals-editing): 404 "Proposal not found" for an
 * unknown id or another client's, 409 with the reason when it is no longer editable,
 * "Failed to fetch proposal" when reading fails unexpectedly.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const proposalId = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  return { form: formConstraints(editProposalSchema), proposal: await getProposalForEdit(db, requireUser(context), proposalId) };
}

/** Saves the edit, then goes back to Project Status; "Update failed. Try again." on an unexpected failure. */
export async function action(args: Route.ActionArgs) {
  const { db } = args.context.get(servicesContext);
  const proposalId = paramId(args.params.proposalId, PROPOSAL_MESSAGES.notFound);
  return formAction(
    args,
    editProposalSchema,
    async (value) => {
      await updateProposal(db, requireUser(args.context), proposalId, value);
      return redirect("/project-status?notice=updated");
    },
    { failureMessage: PROPOSAL_MESSAGES.updateFailed },
  );
}

/** The edit form, prefilled (budget as a plain amount). */
export default function EditProposal({ loaderData, actionData }: Route.ComponentProps) {
  const { proposal } = loaderData;
  const [form, fields] = useAppForm({
    id: `edit-proposal-${proposal.id}`,
    constraint: loaderData.form,
    lastResult: actionData?.result,
    defaultValue: {
      projectName: proposal.projectName ?? "",
      projectDetails: proposal.projectDetails,
      timeline: proposal.timeline ?? "",
      budget: centsToInput(proposal.budgetCents),
      targetAudience: proposal.targetAudience ?? "",
      designInspiration: proposal.designInspiration ?? "",
      numberOfPages: proposal.numberOfPages === null ? "" : String(proposal.numberOfPages),
      websiteGoal: proposal.websiteGoal ?? "",
    },
  });
  const pending = useIsSubmitting();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeading title="Edit Proposal" lead="You can change a proposal while it is pending." />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        <FormMessage id={form.errorId} errors={form.errors} />
        <ProposalFields fields={fields} />
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save changes
          </SubmitButton>
          <Link to="/project-status" className="text-brand-700 underline">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}

/** Shows "Proposal not found", the edit refusal, or "Failed to fetch proposal". */
export function ErrorBoundary() {
  return <RouteErrorMessage backTo="/project-status" backLabel="Back to Project Status" failureMessage={PROPOSAL_MESSAGES.fetchFailed} />;
}
