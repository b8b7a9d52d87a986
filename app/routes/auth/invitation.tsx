import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/invitation";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { ActionNotice, Notice } from "#app/components/ui/notice";
import { useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { acceptInvitation, readInvitation, ROLE_LABELS } from "#app/features/organisations/organisations.server";
import { passwordField } from "#app/features/users/accounts.schema";
import { registerInvited } from "#app/features/users/accounts.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { AppError } from "#app/lib/errors";
import { parseInput, retryAfterHeaders, runIntent } from "#app/lib/form-action.server";
import { requestMeta } from "#app/lib/request.server";
import { requiredText } from "#app/lib/text-fields";

export const meta: Route.MetaFunction = () => [{ title: "Invitation | Client Portal" }, { name: "robots", content: "noindex" }];

/**
 * `/invitations/<token>` (docs/product.md#invitations): who invites whom, with which role; then
 * "Accept" for the signed-in invited person (verified address), "Sign in to accept" when an account
 * with that address exists, or a short form that creates the account. An invalid, expired, revoked
 * or used link is a 404 with a clear sentence.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const me = context.get(sessionUserContext);
  try {
    const invitation = await readInvitation(db, params.token);
    return {
      invitation: { ...invitation, roleLabel: ROLE_LABELS[invitation.role], expiresAt: invitation.expiresAt.toISOString() },
      me: me ? { email: me.email, verified: me.emailVerified, role: me.role } : null,
      minPassword: context.get(servicesContext).env.PASSWORD_MIN_LENGTH,
      invalid: null,
    };
  } catch (error) {
    if (error instanceof AppError && error.status === 404)
      return data({ invitation: null, me: null, minPassword: 0, invalid: error.message }, 404);
    throw error;
  }
}

export const headers = retryAfterHeaders;

export async function action(args: Route.ActionArgs) {
  const { params, context, request } = args;
  const { db, env } = context.get(servicesContext);
  const me = context.get(sessionUserContext);
  return runIntent(args, {
    accept: async () => {
      if (!me) throw new AppError("UNAUTHORIZED", "Sign in to accept the invitation.");
      await acceptInvitation(db, me.id, params.token, me.sessionId);
      return redirect("/client-dashboard");
    },
    "create-account": async (form) => {
      const value = parseInput(z.object({ name: requiredText("Your name", 120), password: passwordField(env.PASSWORD_MIN_LENGTH) }), {
        name: form.get("name"),
        password: form.get("password"),
      });
      const result = await registerInvited(accountDeps(context), params.token, value, requestMeta(request, context));
      return redirect(result.home, { headers: result.headers });
    },
  });
}

export default function Invitation({ loaderData, actionData, params }: Route.ComponentProps) {
  const pending = useIsSubmitting();
  const { invitation, me, invalid } = loaderData;
  if (!invitation) {
    return (
      <>
        <h1 className="text-3xl font-bold tracking-tight">Invitation</h1>
        <Notice tone="error" className="mt-6">
          {invalid}
        </Notice>
        <p className="mt-4 text-slate-700">
          <Link to="/login" className="text-brand-700 underline">
            Sign in
          </Link>{" "}
          or go to the{" "}
          <Link to="/" className="text-brand-700 underline">
            public site
          </Link>
          .
        </p>
      </>
    );
  }
  const redirectTo = `/invitations/${params.token}`;
  const errors = (field: string) => (actionData && "fieldErrors" in actionData ? actionData.fieldErrors?.[field] : undefined);
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Join {invitation.organisationName}</h1>
      <p className="mt-2 text-slate-700">
        You are invited to <strong>{invitation.organisationName}</strong> as {invitation.roleLabel}, with the address{" "}
        <strong className="break-all">{invitation.email}</strong>. The invitation expires on {invitation.expiresAt.slice(0, 10)}.
      </p>
      <ActionNotice result={actionData} className="mt-4" />
      {me ? (
        me.email.toLowerCase() !== invitation.email ? (
          <Notice tone="info" className="mt-6">
            You are signed in as {me.email}. Sign out, then sign in with {invitation.email} to accept.
          </Notice>
        ) : !me.verified ? (
          <Notice tone="info" className="mt-6">
            Verify your e-mail address first (the link in the verification mail), then come back to this page.
          </Notice>
        ) : (
          <Form method="post" className="mt-6">
            <input type="hidden" name="intent" value="accept" />
            <SubmitButton pending={pending} pendingLabel="Joining…">
              Accept and join {invitation.organisationName}
            </SubmitButton>
          </Form>
        )
      ) : invitation.accountExists ? (
        <p className="mt-6">
          <Link to={`/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="font-semibold text-brand-700 underline">
            Sign in to accept the invitation
          </Link>
        </p>
      ) : (
        <Form method="post" className="mt-6 flex flex-col gap-4">
          <input type="hidden" name="intent" value="create-account" />
          <p className="text-slate-700">Create your login: your e-mail address is the invited one.</p>
          <InputField id="name" name="name" label="Your name" required maxLength={120} autoComplete="name" errors={errors("name")} />
          <InputField
            id="password"
            name="password"
            type="password"
            label="Password"
            required
            minLength={loaderData.minPassword}
            maxLength={128}
            autoComplete="new-password"
            hint={`At least ${loaderData.minPassword} characters.`}
            errors={errors("password")}
          />
          <div>
            <SubmitButton pending={pending} pendingLabel="Creating your account…">
              Create account and join
            </SubmitButton>
          </div>
        </Form>
      )}
    </>
  );
}
