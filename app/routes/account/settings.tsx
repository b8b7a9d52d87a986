import { Form } from "react-router";
import type { Route } from "./+types/settings";
import { PortalShell } from "#app/components/portal-header";
import { navItemsFor } from "#app/features/users/navigation";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { preferencesSchema } from "#app/features/users/accounts.schema";
import { getPreferences, savePreferences } from "#app/features/users/preferences.server";
import { formAction } from "#app/lib/form-action.server";
import { requireRole, requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Account settings" }];

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { role: user.role, email: user.email, ...(await getPreferences(context.get(servicesContext).db, user)) };
}

/** Saves the signed-in user's notification preference. */
export async function action(args: Route.ActionArgs) {
  const user = requireUser(args.context);
  return formAction(args, preferencesSchema, async (value) => {
    await savePreferences(args.context.get(servicesContext).db, user, value);
    return "Preferences saved.";
  });
}

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsSubmitting();
  const area = loaderData.role === "admin" ? "admin" : loaderData.role === "ambassador" ? "ambassador" : "client";
  return (
    <PortalShell items={navItemsFor(loaderData.role, area)} title="Account" signedIn width="medium">
      <PageHeading title="Account settings" lead={`Signed in as ${loaderData.email}.`} />
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-slate-200 p-6">
        <FormMessage
          success={actionData?.ok ? actionData.message : null}
          errors={actionData && !actionData.ok ? [actionData.message] : undefined}
        />
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notifyUpdates" defaultChecked={loaderData.notifyUpdates} className="mt-1 h-4 w-4" />
          <span>
            <span className="font-medium">E-mail me about updates</span>
            <span className="block text-sm text-slate-700">
              Project status changes, accepted meetings, proposals made for you and commission payments. Invoices and password resets are
              always sent.
            </span>
          </span>
        </label>
        <div>
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save preferences
          </SubmitButton>
        </div>
      </Form>
    </PortalShell>
  );
}
