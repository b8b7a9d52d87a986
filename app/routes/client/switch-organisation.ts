import { redirect } from "react-router";
import type { Route } from "./+types/switch-organisation";
import { switchOrganisation } from "#app/features/organisations/organisations.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formId, readForm } from "#app/lib/form-action.server";

/**
 * The header's organisation switcher (docs/product.md#organisations): posts the chosen
 * organisation's id (never in a URL), checked against the person's memberships, then goes to the
 * dashboard — a page of the previous organisation's record would be another organisation's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { actor, db } = actorAndDb(context);
  const sessionId = actor.sessionId;
  if (!sessionId) throw redirect("/login");
  await switchOrganisation(db, actor, sessionId, formId(await readForm(request), "organisationId"));
  return redirect("/client-dashboard");
}

export function loader() {
  return redirect("/client-dashboard");
}
