import { Form, Link } from "react-router";
import type { Route } from "./+types/forgot-password";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { AUTH_MESSAGES } from "#app/features/users/accounts.messages";
import { forgotPasswordSchema } from "#app/features/users/accounts.schema";
import { requestPasswordReset } from "#app/features/users/accounts.server";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Forgot password | Client Portal" }];

/** A throttled attempt's 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

export function loader() {
  return { form: formConstraints(forgotPasswordSchema) };
}

/** Sends a reset e-mail through the outbox; always answers the same (no account enumeration). */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  return formAction(args, forgotPasswordSchema, async (value) => {
    await requestPasswordReset(accountDeps(context), value.email, requestMeta(request, context));
    return AUTH_MESSAGES.resetSent;
  });
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "forgot-password", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Forgot your password?</h1>
      <p className="mt-2 text-slate-700">Enter your account's email and we'll send you a link to choose a new password.</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <FormMessage id={form.errorId} errors={form.errors} success={actionData?.ok ? AUTH_MESSAGES.resetSent : null} />
        <TextInput field={fields.email} label="Email" type="email" autoComplete="email" />
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send reset link
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm">
        <Link className="text-brand-700 underline" to="/login">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
