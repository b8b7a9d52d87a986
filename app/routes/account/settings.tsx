import { data, Form } from "react-router";
import type { Route } from "./+types/settings";
import { PortalFooter, PortalHeader } from "#app/components/portal-header";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { getPreferences, savePreferences } from "#app/features/users/preferences.server";
import { requireRole, requireUser } from "#app/lib/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Account settings" }];

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { role: user.role, email: user.email, ...(await getPreferences(context.get(servicesContext).db, user)) };
}

/** Saves the signed-in user's notification preference. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await request.formData();
  await savePreferences(context.get(servicesContext).db, user, { notifyUpdates: form.get("notifyUpdates") === "on" });
  return data({ saved: true });
}

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsSubmitting();
  const area = loaderData.role === "admin" ? "admin" : loaderData.role === "ambassador" ? "ambassador" : "client";
  return (
    <>
      <PortalHeader role={loaderData.role} area={area} title="Account" />
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8">
        <PageHeading title="Account settings" lead={`Signed in as ${loaderData.email}.`} />
        <Form method="post" className="flex flex-col gap-4 rounded-xl border border-slate-200 p-6">
          <FormMessage success={actionData?.saved ? "Preferences saved." : null} />
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
      </main>
      <PortalFooter signedIn />
    </>
  );
}
