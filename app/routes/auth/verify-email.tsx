import { Form, Link } from "react-router";
import type { Route } from "./+types/verify-email";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { Notice } from "#app/components/ui/notice";
import { AUTH_MESSAGES } from "#app/features/users/accounts.messages";
import { resendVerificationSchema } from "#app/features/users/accounts.schema";
import { resendVerificationEmail, verifyEmailAddress } from "#app/features/users/accounts.server";
import { homeFor } from "#app/features/users/actor";
import { sessionUserContext } from "#app/features/users/session.server";
import { fieldError } from "#app/lib/errors";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps, requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Verify your e-mail address | Client Portal" },
  { name: "robots", content: "noindex" },
];

/** A verification token is a signed JWT of a few hundred characters; anything longer is not one. */
const MAX_TOKEN_LENGTH = 2_048;

/**
 * /verify-email?token=… (docs/product.md#email-verification): the link of the verification
 * mail. Verifies the address (better-auth checks the signed token) and says so; an invalid or
 * expired link offers a new one. Without a token, only the form to ask for a new link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const current = context.get(sessionUserContext);
  const outcome = !token ? null : token.length <= MAX_TOKEN_LENGTH && (await verifyEmailAddress(accountDeps(context), token));
  return {
    form: formConstraints(resendVerificationSchema),
    outcome: outcome === null ? ("none" as const) : outcome ? ("verified" as const) : ("invalid" as const),
    signedInAs: current?.email ?? null,
    home: current ? homeFor(current.role) : "/login",
  };
}

/**
 * Resend link (the portal banner, the sign-in page): mails a new link to the signed-in user's
 * address, or to the address typed when signed out. The answer never says whether that address
 * has an account; throttled per address and IP (`resendVerificationEmail`).
 */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const current = context.get(sessionUserContext);
  return formAction(args, resendVerificationSchema, async (value) => {
    const email = current?.email ?? value.email;
    if (!email) throw fieldError("email", "Email is required.");
    await resendVerificationEmail(accountDeps(context), email, requestMeta(request, context));
    return current
      ? `We e-mailed a new verification link to ${current.email}, unless it is verified already.`
      : AUTH_MESSAGES.verificationResent;
  });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ id: "resend-verification", constraint: loaderData.form, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  const { outcome, signedInAs, home } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Verify your e-mail address</h1>
      {outcome === "verified" && !actionData ? (
        <div className="mt-6 flex flex-col gap-4">
          <Notice tone="success">{AUTH_MESSAGES.verified}</Notice>
          <p>
            <Link className="text-brand-700 underline" to={home}>
              {signedInAs ? "Go to your dashboard" : "Sign in"}
            </Link>
          </p>
        </div>
      ) : (
        <>
          {outcome === "invalid" && !actionData ? (
            <Notice tone="error" className="mt-6">
              {AUTH_MESSAGES.verifyLinkInvalid}
            </Notice>
          ) : null}
          <p className="mt-4 text-slate-700">
            {signedInAs
              ? `We will e-mail a new link to ${signedInAs}. It works for 3 days.`
              : "Enter the e-mail address of your account and we will send it a new link. It works for 3 days."}
          </p>
          <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
            <FormMessage id={form.errorId} errors={form.errors} success={actionData?.ok ? actionData.message : null} />
            {signedInAs ? null : <TextInput field={fields.email} label="Email" type="email" autoComplete="email" />}
            <SubmitButton pending={pending} pendingLabel="Sending…">
              Send a new link
            </SubmitButton>
          </Form>
          <p className="mt-6 text-sm">
            <Link className="text-brand-700 underline" to={home}>
              {signedInAs ? "Back to your dashboard" : "Back to sign in"}
            </Link>
          </p>
        </>
      )}
    </>
  );
}
