import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/two-factor";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { signInCodeSchema } from "#app/features/users/account.schema";
import { verifySignInCode } from "#app/features/users/account/two-factor-sign-in.server";
import { safeRedirect } from "#app/features/users/accounts.schema";
import { redirectSignedIn } from "#app/features/users/session.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Two-factor sign-in | Client Portal" }, { name: "robots", content: "noindex" }];

export const middleware: Route.MiddlewareFunction[] = [redirectSignedIn];

/** Without a pending sign-in (better-auth's two-factor cookie) there is nothing to confirm: back to /login. */
export async function loader({ request }: Route.LoaderArgs) {
  if (!request.headers.get("cookie")?.includes("two_factor=")) throw redirect("/login");
  return { form: formConstraints(signInCodeSchema), redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo")) ?? "" };
}

/** The sign-in second step (docs/product.md#account-page): a code from the app or a backup code; works without JavaScript. */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  return formAction(args, signInCodeSchema, async (value) => {
    const result = await verifySignInCode(accountDeps(context), value, requestMeta(request, context));
    return redirect(safeRedirect(value.redirectTo) ?? result.home, { headers: result.headers });
  });
}

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "two-factor", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Two-factor sign-in</h1>
      <p className="mt-2 text-slate-700">Enter the 6-digit code from your authenticator app, or one of your backup codes.</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <FormMessage id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextInput
          field={fields.code}
          label="Code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          hint="A backup code looks like abcde-12345 and works once."
        />
        <SubmitButton pending={pending} pendingLabel="Checking…">
          Verify
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm">
        <Link className="text-brand-700 underline" to="/login">
          Start again
        </Link>
      </p>
    </>
  );
}
