import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/reset-password";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { resetPasswordSchema } from "#app/features/users/accounts.schema";
import { resetPassword } from "#app/features/users/accounts.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";

export const meta: Route.MetaFunction = () => [{ title: "Choose a new password | Client Portal" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  return {
    form: formConstraints(resetPasswordSchema(env.PASSWORD_MIN_LENGTH)),
    token: new URL(request.url).searchParams.get("token") ?? "",
    minPassword: env.PASSWORD_MIN_LENGTH,
  };
}

/** Sets the new password (token single use, 1 hour), then sends the user to sign in. */
export async function action(args: Route.ActionArgs) {
  const { context } = args;
  const { env } = context.get(servicesContext);
  return formAction(args, resetPasswordSchema(env.PASSWORD_MIN_LENGTH), async (value) => {
    await resetPassword(accountDeps(context), value);
    return redirect("/login?reset=done");
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "reset-password", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  if (!loaderData.token) {
    return (
      <>
        <h1 className="text-3xl font-bold tracking-tight">Choose a new password</h1>
        <p role="alert" className="mt-6 text-red-800">
          This reset link is incomplete.{" "}
          <Link className="underline" to="/forgot-password">
            Ask for a new one.
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Choose a new password</h1>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <FormMessage id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={loaderData.token} />
        <TextInput
          field={fields.password}
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${loaderData.minPassword} characters.`}
        />
        <TextInput field={fields.confirmPassword} label="Repeat the new password" type="password" autoComplete="new-password" />
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Set new password
        </SubmitButton>
      </Form>
    </>
  );
}
