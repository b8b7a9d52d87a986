import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { errorMeta } from "#app/lib/meta";
import { AREAS } from "#app/features/users/navigation";
import { AreaErrorBoundary, AreaFrame } from "#app/features/users/components/area-frame";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { VerifyEmailBanner } from "#app/features/users/components/verify-email-banner";
import { servicesContext } from "#app/context";
import { countUnread } from "#app/features/conversations/unread.server";
import { OrganisationSwitcher } from "#app/features/organisations/components/organisation-switcher";
import { listMyOrganisations } from "#app/features/organisations/organisations.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { AppError } from "#app/lib/errors";

/** Guard for the client area: runs before every loader and action below it (docs/product.md#access-guard). */
export const middleware: Route.MiddlewareFunction[] = [
  requireRole("client"),
  // A person in no organisation (removed from their last one) reaches nothing here (docs/product.md#organisations).
  async ({ context }) => {
    if (requireUser(context).organisationId === null) throw new AppError("FORBIDDEN", ORGANISATION_MESSAGES.noOrganisation);
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = context.get(servicesContext);
  const [unreadMessages, organisations] = await Promise.all([countUnread(db, user), listMyOrganisations(db, user)]);
  return {
    role: user.role,
    email: user.email,
    emailVerified: user.emailVerified,
    unreadMessages,
    organisationRole: user.organisationRole ?? null,
    organisationId: user.organisationId ?? null,
    organisations,
  };
}

export default function ClientLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AreaFrame
      area="client"
      role={loaderData.role}
      unreadMessages={loaderData.unreadMessages}
      organisationRole={loaderData.organisationRole}
    >
      <OrganisationSwitcher current={loaderData.organisationId} organisations={loaderData.organisations} />
      <VerifyEmailBanner email={loaderData.email} verified={loaderData.emailVerified} forClient />
      <Outlet />
    </AreaFrame>
  );
}

/** The title of the area's error page (a record not found, a refusal): the message and the area's name. */
export const meta: Route.MetaFunction = ({ error }) => errorMeta(error, AREAS.client.title);

export function ErrorBoundary() {
  return <AreaErrorBoundary area="client" />;
}
