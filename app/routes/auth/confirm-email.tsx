import { Form, Link } from "react-router";
import type { Route } from "./+types/confirm-email";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, useIsSubmitting } from "#app/components/ui/form";
import { PortalShell } from "#app/components/portal-header";
import { servicesContext } from "#app/context";
import { confirmEmailSchema } from "#app/features/users/account.schema";
import { ACCOUNT_MESSAGES } from "#app/features/users/account.messages";
import { confirmEmailChange, findEmailChange } from "#app/features/users/account/email-change.server";
import { navItemsFor } from "#app/features/users/navigation";
import { sessionUserContext } from "#app/features/users/session.server";
import { formAction } from "#app/lib/form-action.server";
import { accountDeps } from "#app/features/users/auth-context.server";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your new e-mail | Client Portal" },
  { name: "robots", content: "noindex" },
];

/** The link of the confirmation mail (docs/product.md#account-page): shows the new address and a button (a mail scanner's GET changes nothing). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const parsed = confirmEmailSchema.safeParse({ token });
  const pending = parsed.success ? await findEmailChange(context.get(servicesContext).db, token) : null;
  return { token, newEmail: pending?.newEmail ?? null, role: context.get(sessionUserContext)?.role ?? null };
}

/** Applies the change; the old address is told. */
export async function action(args: Route.ActionArgs) {
  return formAction(args, confirmEmailSchema, async (value) => {
    const email = await confirmEmailChange(accountDeps(args.context), value.token);
    return `${ACCOUNT_MESSAGES.emailChanged} You now sign in with ${email}.`;
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsSubmitting();
  const done = actionData?.ok === true;
  return (
    <PortalShell items={navItemsFor(loaderData.role, "client")} title="Client Portal" signedIn={loaderData.role !== null} width="narrow">
      <h1 className="text-3xl font-bold tracking-tight">Confirm your new e-mail</h1>
      {done ? (
        <>
          <FormMessage success={actionData.message} />
          <p className="mt-4">
            <Link className="text-brand-700 underline" to={loaderData.role ? "/account/profile" : "/login"}>
              {loaderData.role ? "Back to your account" : "Sign in"}
            </Link>
          </p>
        </>
      ) : loaderData.newEmail ? (
        <Form method="post" className="mt-6 flex flex-col gap-4">
          <FormMessage errors={actionData && !actionData.ok ? [actionData.message] : undefined} />
          <input type="hidden" name="token" value={loaderData.token} />
          <p>
            Your account&apos;s e-mail address becomes <strong>{loaderData.newEmail}</strong>.
          </p>
          <div>
            <SubmitButton pending={pending} pendingLabel="Confirming…">
              Confirm new e-mail
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <p role="alert" className="mt-6 text-red-800">
          {ACCOUNT_MESSAGES.emailLinkInvalid}
        </p>
      )}
    </PortalShell>
  );
}
