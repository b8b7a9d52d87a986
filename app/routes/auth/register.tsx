import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/register";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { getSettings } from "#app/features/settings/settings.server";
import { AUTH_MESSAGES } from "#app/features/users/accounts.messages";
import { clientRegistrationSchema, safeRedirect } from "#app/features/users/accounts.schema";
import { registerClient } from "#app/features/users/accounts.server";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";
import { redirectSignedIn } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Create a client account | Client Portal" }];

export const middleware: Route.MiddlewareFunction[] = [redirectSignedIn];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const settings = await getSettings(db);
  return {
    form: formConstraints(clientRegistrationSchema(env.PASSWORD_MIN_LENGTH, settings.requireClientPhone)),
    referralCode: new URL(request.url).searchParams.get("ref")?.slice(0, 64) ?? "",
    // Where to go once registered (e.g. a case study's "Start a project like this", issue #40): a path of this site only.
    redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo")) ?? "",
    minPassword: env.PASSWORD_MIN_LENGTH,
    open: settings.allowNewClients,
    requirePhone: settings.requireClientPhone,
  };
}

/** A throttled attempt's 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

/** Client registration (docs/product.md#registration): see `registerClient` for the rules. */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { env, db } = context.get(servicesContext);
  const { requireClientPhone } = await getSettings(db);
  return formAction(args, clientRegistrationSchema(env.PASSWORD_MIN_LENGTH, requireClientPhone), async (value, form) => {
    const result = await registerClient(accountDeps(context), value, requestMeta(request, context));
    return redirect(safeRedirect(form.get("redirectTo")) ?? result.home, { headers: result.headers });
  });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({
    id: "register",
    constraint: loaderData.form,
    lastResult: actionData?.result,
    defaultValue: { referralCode: loaderData.referralCode },
  });
  const pending = useIsSubmitting();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Create a client account</h1>
      {loaderData.open ? (
        <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
          <FormMessage id={form.errorId} errors={form.errors} />
          {loaderData.redirectTo ? <input type="hidden" name="redirectTo" value={loaderData.redirectTo} /> : null}
          <TextInput field={fields.businessName} label="Business name" autoComplete="organization" />
          <TextInput field={fields.email} label="Email" type="email" autoComplete="email" />
          <TextInput field={fields.phone} label={loaderData.requirePhone ? "Phone" : "Phone (optional)"} type="tel" autoComplete="tel" />
          <TextInput
            field={fields.password}
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${loaderData.minPassword} characters.`}
          />
          <TextInput field={fields.website} label="Website (optional)" type="url" placeholder="https://" autoComplete="url" />
          <TextInput field={fields.referralCode} label="Referral code (optional)" autoCapitalize="none" />
          <SubmitButton pending={pending} pendingLabel="Creating your account…">
            Register
          </SubmitButton>
        </Form>
      ) : (
        <p role="alert" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {AUTH_MESSAGES.registrationClosed}
        </p>
      )}
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link
          className="text-brand-700 underline"
          to={loaderData.redirectTo ? `/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "/login"}
        >
          Sign in
        </Link>
      </p>
    </>
  );
}
