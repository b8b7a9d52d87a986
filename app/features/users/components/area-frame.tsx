/**
 * The frame of a role area's pages (admin, ambassador, client): the area's header bar, main
 * column and footer — for its pages, and for its error boundary, so that a refusal (404, 409 …)
 * or a failure is shown inside the area with its header.
 */
import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { PortalShell } from "#app/components/portal-header";
import { RouteErrorMessage } from "#app/components/route-error";
import type { OrganisationRole, Role } from "#app/db/enums";
import { LiveUpdates } from "#app/features/live/components/live-updates";
import { SidebarShell } from "#app/components/sidebar-shell";
import { GlobalSearch } from "#app/features/search/components/global-search";
import { adminNavGroups, AREAS, navItemsFor, type PortalArea } from "../navigation";

/**
 * An area page: header bar of `area` for a user of `role`, then `children`; for a signed-in user
 * the page's live updates (docs/product.md#live-updates).
 */
export function AreaFrame({
  area,
  role,
  unreadMessages = 0,
  organisationRole,
  children,
}: {
  area: PortalArea;
  role: Role | null;
  /** A client's role in their current organisation (which links the header shows). */
  organisationRole?: OrganisationRole | null;
  /** The conversations' unread count (the "Messages" badge). */
  unreadMessages?: number;
  children: ReactNode;
}) {
  if (area === "admin" && role === "admin") {
    return (
      <SidebarShell groups={adminNavGroups(unreadMessages)} title={AREAS.admin.title} search={<GlobalSearch />}>
        {children}
        <LiveUpdates />
      </SidebarShell>
    );
  }
  return (
    <PortalShell items={navItemsFor(role, area, unreadMessages, organisationRole)} title={AREAS[area].title} signedIn={role !== null}>
      {children}
      {role !== null ? <LiveUpdates /> : null}
    </PortalShell>
  );
}

/** The area layout's ErrorBoundary: the error message in the area's frame, with a way home. */
export function AreaErrorBoundary({ area }: { area: PortalArea }) {
  const layout = useRouteLoaderData<{ role: Role; unreadMessages?: number; organisationRole?: OrganisationRole | null }>(
    `routes/${area}/_layout`,
  );
  return (
    <AreaFrame area={area} role={layout?.role ?? null} unreadMessages={layout?.unreadMessages} organisationRole={layout?.organisationRole}>
      <RouteErrorMessage backTo={AREAS[area].home} backLabel="Back to the dashboard" />
    </AreaFrame>
  );
}
