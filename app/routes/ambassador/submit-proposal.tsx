import { useEffect } from "react";
import { Form, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/submit-proposal";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextArea, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { ambassadorProposalSchema } from "#app/features/proposals/proposals.schema";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { submitAmbassadorProposal } from "#app/features/proposals/proposals.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { requireUser, sessionUserContext } from "#app/features/users/session.server";
import { getProposalClientForAmbassador } from "#app/features/referrals/referrals.server";
import { paramId } from "#app/lib/ids";
import { useHydrated } from "#app/lib/use-hydrated";

export const meta: Route.MetaFunction = () => [{ title: "Submit Proposal | Ambassador Portal" }];

/** docs/product.md#form-messages: the redirect to the dashboard follows the success message after 1.5 s. */
const REDIRECT_DELAY_MS = 1_500;

/**
 * The form is empty, or — with `?from=<proposalId>` ("Submit another proposal for this client",
 * docs/product.md#ambassador-dashboard) — prefilled with the client of that earlier proposal of the
 * ambassador's (404 for anyone else's).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get("from");
  const form = formConstraints(ambassadorProposalSchema);
  if (!from) return { form, prefill: null };
  const { db } = context.get(servicesContext);
  const proposalId = paramId(from, "Proposal not found");
  return { form, prefill: await getProposalClientForAmbassador(db, requireUser(context), proposalId) };
}

/**
 * Ambassador proposal (docs/product.md#ambassador-proposals). With JavaScript (`enhanced=1`) the action answers with
 * the success message and the page moves to the dashboard after 1.5 s; without, it
 * redirects at once to /ambassador/dashboard?submitted=1, which shows the message.
 */
export async function action(args: Route.ActionArgs) {
  const { db } = args.context.get(servicesContext);
  return formAction(args, ambassadorProposalSchema, async ({ enhanced, ...input }) => {
    await submitAmbassadorProposal(db, args.context.get(sessionUserContext), input);
    return enhanced === "1" ? PROPOSAL_MESSAGES.ambassadorSubmitted : redirect("/ambassador/dashboard?submitted=1");
  });
}

/** The form; after success it shows the message and moves to the dashboard after 1.5 s. */
export default function SubmitProposal({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({
    id: "ambassador-proposal",
    constraint: loaderData.form,
    lastResult: actionData?.result,
    defaultValue: loaderData.prefill ?? undefined,
  });
  const pending = useIsSubmitting();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const succeeded = actionData?.ok === true;
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => navigate("/ambassador/dashboard"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded, actionData, navigate]);
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeading title="Submit Proposal" lead="Propose a website project on behalf of a client you referred." />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6">
        <FormMessage id={form.errorId} errors={form.errors} success={succeeded ? PROPOSAL_MESSAGES.ambassadorSubmitted : null} />
        {succeeded ? <p className="text-sm text-slate-700">Taking you to your dashboard…</p> : null}
        <input type="hidden" name="enhanced" value={hydrated ? "1" : ""} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.clientName} label="Client name" autoComplete="off" />
          <TextInput
            field={fields.clientEmail}
            label="Client email"
            type="email"
            autoComplete="off"
            hint="The client approves the proposal from their account with this email."
          />
        </div>
        <TextInput field={fields.projectName} label="Project name (optional)" />
        <TextArea field={fields.projectDetails} label="Project details" rows={6} />
        <TextInput field={fields.budget} label="Budget (optional)" inputMode="decimal" placeholder="e.g. $5,000" hint="In US dollars." />
        <div>
          <SubmitButton pending={pending || succeeded} pendingLabel={succeeded ? "Submitted" : "Submitting…"}>
            Submit proposal
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
