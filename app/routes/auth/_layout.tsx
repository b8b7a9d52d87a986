import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { PortalFooter, PortalHeader } from "#app/components/portal-header";
import { sessionUserContext } from "#app/lib/session.server";

export async function loader({ context }: Route.LoaderArgs) {
  return { role: context.get(sessionUserContext)?.role ?? null };
}

/** Authentication screens: the client header bar, signed in or out (spec §2 Header bars). */
export default function AuthLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PortalHeader role={loaderData.role} area="client" title="Client Portal" />
      <main id="main" className="mx-auto w-full max-w-md px-4 py-12">
        <Outlet />
      </main>
      <PortalFooter signedIn={loaderData.role !== null} />
    </>
  );
}
