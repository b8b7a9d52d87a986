import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { PortalShell } from "#app/components/portal-header";
import { navItemsFor } from "#app/features/users/navigation";
import { sessionUserContext } from "#app/features/users/session.server";

export async function loader({ context }: Route.LoaderArgs) {
  return { role: context.get(sessionUserContext)?.role ?? null };
}

/** Authentication screens: the client header bar, signed in or out (docs/product.md#header-bars). */
export default function AuthLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell items={navItemsFor(loaderData.role, "client")} title="Client Portal" signedIn={loaderData.role !== null} width="narrow">
      <Outlet />
    </PortalShell>
  );
}
