import { Form, Link } from "react-router";
import type { Route } from "./+types/verify-email";
import { ConfirmLink, ConfirmPanel, useIsConfirming } from "#app/components/ui/confirm";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { Notice } from "#app/components/ui/notice";
import { AUTH_MESSAGES } from "#app/features/users/accounts.messages";
import { resendVerificationSchema } from "#app/features/users/accounts.schema";
import { homeFor } from "#app/features/users/actor";
import {
  readVerificationLink,
  releaseUnverifiedAddress,
  resendVerificationEmail,
  verifyEmailAddress,
} from "#app/features/users/email-verification.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { AppError, fieldError } from "#app/lib/errors";
import { conformIntent, requireConfirmation, runIntent, type FormReply } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Verify your e-mail address | Client Portal" },
  { name: "robots", content: "noindex" },
];

/**
 * /verify-email?token=… (docs/product.md#email-verification): the link of the verification
 * mail. It only reads the link — which address it is for, and whether it is verified — so a mail
 * provider's link scanner fetching it changes nothing; the page's buttons verify it or say "This
 * was not me". Without a token, only the form to ask for a new link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const current = context.get(sessionUserContext);
  const link = token ? await readVerificationLink(accountDeps(context), token) : null;
  return {
    form: formConstraints(resendVerificationSchema),
    token: link ? token : null,
    link: link ? { email: link.email, verified: link.verified } : null,
    invalid: Boolean(token) && !link,
    signedInAs: current?.email ?? null,
    home: current ? homeFor(current.role) : "/login",
  };
}

/**
 * `verify` and `not-me` (the link's page, with its token) and `resend` (the portal banner, the
 * sign-in page and this page: mails a new link to the signed-in user's address, or to the
 * address typed when signed out; the answer never says whether that address has an account).
 */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const deps = accountDeps(context);
  const current = context.get(sessionUserContext);
  const token = (form: FormData) => String(form.get("token") ?? "");
  return runIntent(args, {
    verify: async (form) => {
      if (!(await verifyEmailAddress(deps, token(form)))) throw new AppError("INVALID_INPUT", AUTH_MESSAGES.verifyLinkInvalid);
      return AUTH_MESSAGES.verified;
    },
    "not-me": async (form) => {
      requireConfirmation(form);
      await releaseUnverifiedAddress(deps, token(form));
      return AUTH_MESSAGES.notMeDone;
    },
    resend: conformIntent(resendVerificationSchema, async (value) => {
      const email = current?.email ?? value.email;
      if (!email) throw fieldError("email", "Email is required.");
      await resendVerificationEmail(deps, email, requestMeta(request, context));
      return current
        ? `We e-mailed a new verification link to ${current.email}, unless it is verified already.`
        : AUTH_MESSAGES.verificationResent;
    }),
  });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData as FormReply | undefined;
  const { link, signedInAs, home } = loaderData;
  const done = reply?.ok && (reply.intent === "verify" || reply.intent === "not-me") ? reply : null;
  const refused = reply && !reply.ok && reply.intent !== "resend" ? reply : null;
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Verify your e-mail address</h1>
      {done ? (
        <div className="mt-6 flex flex-col gap-4">
          <Notice tone="success">{done.message}</Notice>
          <p>
            <Link className="text-brand-700 underline" to={home}>
              {signedInAs ? "Go to your dashboard" : "Sign in"}
            </Link>
          </p>
        </div>
      ) : link && !refused ? (
        <LinkQuestion
          email={link.email}
          verified={link.verified}
          token={loaderData.token ?? ""}
          home={home}
          signedIn={Boolean(signedInAs)}
        />
      ) : (
        <ResendForm
          constraint={loaderData.form}
          invalid={loaderData.invalid || Boolean(refused)}
          refusal={refused?.message ?? null}
          signedInAs={signedInAs}
          home={home}
          reply={reply?.intent === "resend" ? reply : undefined}
        />
      )}
    </>
  );
}

/** The link's address, "Verify" and "This was not me" (behind its own confirmation). */
function LinkQuestion({
  email,
  verified,
  token,
  home,
  signedIn,
}: {
  email: string;
  verified: boolean;
  token: string;
  home: string;
  signedIn: boolean;
}) {
  const pending = useIsSubmitting();
  const isConfirming = useIsConfirming();
  if (verified) {
    return (
      <div className="mt-6 flex flex-col gap-4">
        <Notice tone="success">{`${email} is verified already. Nothing else is needed.`}</Notice>
        <p>
          <Link className="text-brand-700 underline" to={home}>
            {signedIn ? "Go to your dashboard" : "Sign in"}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="mt-6 flex flex-col gap-6">
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="token" value={token} />
        <p>
          Someone created an account with <strong className="break-all">{email}</strong>. If it was you, confirm that this address is yours.
        </p>
        <div>
          <SubmitButton pending={pending} pendingLabel="Verifying…">
            Yes, verify {email}
          </SubmitButton>
        </div>
      </Form>
      <section aria-labelledby="not-me-title" className="rounded-lg border border-slate-200 p-4">
        <h2 id="not-me-title" className="font-semibold">
          Not you?
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          If you did not create an account with this address, someone else used it. We close that account, sign it out everywhere and free
          your address. Nothing addressed to you is shown to them.
        </p>
        <div className="mt-3">
          {isConfirming("not-me", "account") ? (
            <ConfirmPanel
              title={`Close the account that used ${email}?`}
              intent="not-me"
              fields={{ token }}
              confirmLabel="Yes, close it"
              pendingLabel="Closing…"
            >
              It is signed out at once and cannot be used again.
            </ConfirmPanel>
          ) : (
            <ConfirmLink kind="not-me" target="account">
              This was not me
            </ConfirmLink>
          )}
        </div>
      </section>
    </div>
  );
}

/** An invalid link's message, and the form that mails a new link. */
function ResendForm({
  constraint,
  invalid,
  refusal,
  signedInAs,
  home,
  reply,
}: {
  constraint: Parameters<typeof useAppForm>[0]["constraint"];
  invalid: boolean;
  refusal: string | null;
  signedInAs: string | null;
  home: string;
  reply: FormReply | undefined;
}) {
  const [form, fields] = useAppForm({ id: "resend-verification", constraint, lastResult: reply?.result });
  const pending = useIsSubmitting();
  return (
    <>
      {invalid && !reply ? (
        <Notice tone="error" className="mt-6">
          {refusal ?? AUTH_MESSAGES.verifyLinkInvalid}
        </Notice>
      ) : null}
      <p className="mt-4 text-slate-700">
        {signedInAs
          ? `We will e-mail a new link to ${signedInAs}. It works for 3 days.`
          : "Enter the e-mail address of your account and we will send it a new link. It works for 3 days."}
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
        <input type="hidden" name="intent" value="resend" />
        <FormMessage id={form.errorId} errors={form.errors} success={reply?.ok ? reply.message : null} />
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
  );
}
