import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { PortalFooter, PortalHeader } from "#app/components/portal-header";
import { requireRole, requireUser } from "#app/lib/session.server";

/** Guard for the client area: runs before every loader and action below it (spec §2 Access guard). */
export const middleware: Route.MiddlewareFunction[] = [requireRole("client")];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { role: user.role, name: user.businessName ?? user.name };
}

export default function ClientLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PortalHeader role={loaderData.role} area="client" title="Client Portal" />
      <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8">
        <Outlet />
      </main>
      <PortalFooter signedIn />
    </>
  );
}
