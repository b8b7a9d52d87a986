import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { AreaErrorBoundary, AreaFrame } from "#app/features/users/components/area-frame";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { VerifyEmailBanner } from "#app/features/users/components/verify-email-banner";
import { servicesContext } from "#app/context";
import { countUnread } from "#app/features/conversations/unread.server";
import { withRequestMemo } from "#app/db/request-memo.server";

/**
 * Guard for the client area: runs before every loader and action below it (docs/product.md#access-guard).
 * A page read (GET) then gets its own view of the database, so that its loaders read the settings
 * and the unread badge once (issue #30, app/db/request-memo.server.ts); an action and the loaders
 * after it read afresh.
 */
export const middleware: Route.MiddlewareFunction[] = [
  requireRole("client"),
  ({ request, context }) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const services = context.get(servicesContext);
    context.set(servicesContext, { ...services, db: withRequestMemo(services.db) });
  },
];

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
