import { useBrand } from "#app/components/brand";
import { owner } from "#app/content/site";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { AUTH_MESSAGES } from "#app/features/users/accounts.messages";
import { loginSchema, safeRedirect } from "#app/features/users/accounts.schema";
import { signIn } from "#app/features/users/accounts.server";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";
import { redirectSignedIn } from "#app/features/users/session.server";
import { PasskeySignIn } from "#app/features/users/components/passkey-buttons";
import { twoFactorStepPath } from "#app/features/users/account.schema";

export const meta: Route.MetaFunction = () => [{ title: "Sign in | Client Portal" }, { name: "robots", content: "noindex" }];

export const middleware: Route.MiddlewareFunction[] = [redirectSignedIn];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return {
    form: formConstraints(loginSchema),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo")) ?? "",
    notice:
      url.searchParams.get("reset") === "done"
        ? AUTH_MESSAGES.resetDone
        : url.searchParams.get("verify") === "sent"
          ? AUTH_MESSAGES.verifySent
          : url.searchParams.get("closed") === "1"
            ? AUTH_MESSAGES.accountClosed
            : null,
  };
}

/** A throttled attempt's 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

/** Sign-in (docs/product.md#sign-in): admin → /admin, ambassador → /ambassador/dashboard, client → /client-dashboard, or a safe redirectTo. */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  return formAction(args, loginSchema, async (value) => {
    const result = await signIn(accountDeps(context), value, requestMeta(request, context));
    if (result.twoFactor) return redirect(twoFactorStepPath(value.redirectTo), { headers: result.headers });
    return redirect(safeRedirect(value.redirectTo) ?? result.home, { headers: result.headers });
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "login", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  // docs/product.md#email-verification: refused while unverified (setting on) → offer a new link.
  const mustVerify = form.errors?.includes(AUTH_MESSAGES.verifyBeforeSignIn) ?? false;
  return (
    <>
      <PortalOwner />
      <h1 className="text-3xl font-bold tracking-tight">Sign in</h1>
      <p className="mt-2 text-slate-700">Clients, ambassadors and admins sign in here.</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <FormMessage id={form.errorId} errors={form.errors} success={form.errors?.length ? null : loaderData.notice} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextInput field={fields.email} label="Email" type="email" autoComplete="email" />
        <TextInput field={fields.password} label="Password" type="password" autoComplete="current-password" />
        <SubmitButton pending={pending} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
      <PasskeySignIn redirectTo={loaderData.redirectTo} />
      {mustVerify ? (
        <Form method="post" action="/verify-email" className="mt-4">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={String(fields.email.value ?? "")} />
          <button type="submit" className="text-brand-700 underline">
            Resend the verification link
          </button>
        </Form>
      ) : null}
      <ul className="mt-6 space-y-2 text-sm">
        <li>
          <Link className="text-brand-700 underline" to="/forgot-password">
            Forgot your password?
          </Link>
        </li>
        <li>
          New client?{" "}
          <Link
            className="text-brand-700 underline"
            to={loaderData.redirectTo ? `/register?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "/register"}
          >
            Create an account
          </Link>
        </li>
        <li>
          <Link className="text-brand-700 underline" to="/register/ambassador">
            Become an Ambassador
          </Link>
        </li>
      </ul>
    </>
  );
}

/**
 * Whose portal this is (docs/product.md#sign-in): the public site's "Client Portal" button leads
 * here, so the page names the agency (Settings' company name) and the developer who runs it.
 */
function PortalOwner() {
  const brand = useBrand();
  return (
    <p className="mb-2 text-sm font-semibold text-brand-700" data-testid="portal-owner">
      {brand.name ? `${brand.name} — client portal` : "Client portal"}, run by {owner.name}
    </p>
  );
}
