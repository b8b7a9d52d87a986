import { Link } from "react-router";
import type { Route } from "./+types/organisation";
import { PageHeading } from "#app/components/page-heading";
import { OrganisationPanel } from "#app/features/organisations/components/organisation-panel";
import { organisationIntents } from "#app/features/organisations/organisation-intents.server";
import { getOrganisationPage } from "#app/features/organisations/organisations.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { actorAndDb } from "#app/features/users/session.server";
import { retryAfterHeaders, runIntent } from "#app/lib/form-action.server";
import { paramId } from "#app/lib/ids";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.org.name ?? "Organisation"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** `/admin/organisations/:organisationId` (docs/product.md#admin-organisations): one organisation's people and invitations. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return { org: await getOrganisationPage(db, actor, paramId(params.organisationId, ORGANISATION_MESSAGES.notFound)) };
}

export const headers = retryAfterHeaders;

/** The same forms as the owner's page, on the client's behalf (the audit trail names the admin). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, organisationIntents(db, actor, paramId(args.params.organisationId, ORGANISATION_MESSAGES.notFound)));
}

export default function AdminOrganisation({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/organisations" className="text-brand-700 underline">
          ← Organisations
        </Link>
      </p>
      <PageHeading title={loaderData.org.name} lead="Its people and their roles; invitations sent on the client's behalf." />
      <OrganisationPanel org={loaderData.org} reply={actionData} />
    </>
  );
}
