import type { Route } from "./+types/organisation";
import { PageHeading } from "#app/components/page-heading";
import { OrganisationPanel } from "#app/features/organisations/components/organisation-panel";
import { organisationIntents } from "#app/features/organisations/organisation-intents.server";
import { getOrganisationPage } from "#app/features/organisations/organisations.server";
import { actorAndDb } from "#app/features/users/session.server";
import { retryAfterHeaders, runIntent } from "#app/lib/form-action.server";

export const meta: Route.MetaFunction = () => [{ title: "Organisation | Client Portal" }, { name: "robots", content: "noindex" }];

/** `/organisation` (docs/product.md#organisations): the current organisation, its people and invitations. */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return { org: await getOrganisationPage(db, actor), me: actor.id };
}

export const headers = retryAfterHeaders;

/** The owner's forms (details, invite, revoke, role, remove) and anyone's "leave": see `organisationIntents`. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, organisationIntents(db, actor));
}

export default function ClientOrganisation({ loaderData, actionData }: Route.ComponentProps) {
  const { org, me } = loaderData;
  return (
    <>
      <PageHeading
        title={org.name}
        lead={
          org.canManage
            ? "Your organisation: invite the people you work with, each with their own login and role."
            : "Your organisation and its people."
        }
      />
      <OrganisationPanel org={org} reply={actionData} me={me} />
    </>
  );
}
