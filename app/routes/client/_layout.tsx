import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { AreaErrorBoundary, AreaFrame } from "#app/features/users/components/area-frame";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { VerifyEmailBanner } from "#app/features/users/components/verify-email-banner";
import { servicesContext } from "#app/context";
import { countUnread } from "#app/features/conversations/unread.server";

/** Guard for the client area: runs before every loader and action below it (docs/product.md#access-guard). */
export const middleware: Route.MiddlewareFunction[] = [requireRole("client")];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const unreadMessages = await countUnread(context.get(servicesContext).db, user);
  return { role: user.role, email: user.email, emailVerified: user.emailVerified, unreadMessages };
}

export default function ClientLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AreaFrame area="client" role={loaderData.role} unreadMessages={loaderData.unreadMessages}>
      <VerifyEmailBanner email={loaderData.email} verified={loaderData.emailVerified} forClient />
      <Outlet />
    </AreaFrame>
  );
}

export function ErrorBoundary() {
  return <AreaErrorBoundary area="client" />;
}
