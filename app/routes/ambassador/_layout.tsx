import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { errorMeta } from "#app/lib/meta";
import { AREAS } from "#app/features/users/navigation";
import { AreaErrorBoundary, AreaFrame } from "#app/features/users/components/area-frame";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { VerifyEmailBanner } from "#app/features/users/components/verify-email-banner";

/** Guard for the ambassador area: runs before every loader and action below it (docs/product.md#access-guard). */
export const middleware: Route.MiddlewareFunction[] = [requireRole("ambassador")];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { role: user.role, email: user.email, emailVerified: user.emailVerified };
}

export default function AmbassadorLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AreaFrame area="ambassador" role={loaderData.role}>
      <VerifyEmailBanner email={loaderData.email} verified={loaderData.emailVerified} forClient={false} />
      <Outlet />
    </AreaFrame>
  );
}

/** The title of the area's error page (a record not found, a refusal): the message and the area's name. */
export const meta: Route.MetaFunction = ({ error }) => errorMeta(error, AREAS.ambassador.title);

export function ErrorBoundary() {
  return <AreaErrorBoundary area="ambassador" />;
}
