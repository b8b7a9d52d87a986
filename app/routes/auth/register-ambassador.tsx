import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/register-ambassador";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { ambassadorRegistrationSchema } from "#app/features/users/accounts.schema";
import { registerAmbassador } from "#app/features/users/accounts.server";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";
import { redirectSignedIn } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Become an Ambassador | Client Portal" }];

export const middleware: Route.MiddlewareFunction[] = [redirectSignedIn];

export async function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  return {
    form: formConstraints(ambassadorRegistrationSchema(env.PASSWORD_MIN_LENGTH)),
    minPassword: env.PASSWORD_MIN_LENGTH,
    origin: env.origin,
  };
}

/** A throttled attempt's 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

/** Ambassador sign-up (docs/product.md#ambassador-signup): see `registerAmbassador` for the rules. */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { env } = context.get(servicesContext);
  return formAction(args, ambassadorRegistrationSchema(env.PASSWORD_MIN_LENGTH), async (value) => {
    const result = await registerAmbassador(accountDeps(context), value, requestMeta(request, context));
    return redirect(result.home, { headers: result.headers });
  });
}

export default function RegisterAmbassador({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "register-ambassador", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Become an Ambassador</h1>
      <p className="mt-2 text-slate-700">Refer clients with your own link and earn a commission on the projects they approve.</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <FormMessage id={form.errorId} errors={form.errors} />
        <TextInput field={fields.name} label="Name" autoComplete="name" />
        <TextInput field={fields.email} label="Email" type="email" autoComplete="email" />
        <TextInput field={fields.phone} label="Phone" type="tel" autoComplete="tel" />
        <TextInput
          field={fields.password}
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${loaderData.minPassword} characters.`}
        />
        <TextInput
          field={fields.referralCode}
          label="Referral link ID"
          autoCapitalize="none"
          hint={`Letters, numbers, hyphens and underscores. Your link: ${loaderData.origin}/register?ref=your-id`}
        />
        <SubmitButton pending={pending} pendingLabel="Creating your account…">
          Sign up
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link className="text-brand-700 underline" to="/login">
          Sign in
        </Link>
      </p>
    </>
  );
}
