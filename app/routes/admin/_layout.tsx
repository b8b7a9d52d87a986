import { Outlet } from "react-router";
import type { Route } from "./+types/_layout";
import { errorMeta } from "#app/lib/meta";
import { AREAS } from "#app/features/users/navigation";
import { AreaErrorBoundary, AreaFrame } from "#app/features/users/components/area-frame";
import { requireAdminTwoFactor, requireRole, requireUser } from "#app/features/users/session.server";
import { servicesContext } from "#app/context";
import { getSettings } from "#app/features/settings/settings.server";
import { countUnread } from "#app/features/conversations/unread.server";
import { currencyOf } from "#app/lib/money";

/**
 * Guard for the admin area: runs before every loader and action below it (docs/product.md#roles
 * guard); with "Require two-factor for admins" on, an admin without it goes to set it up.
 */
export const middleware: Route.MiddlewareFunction[] = [requireRole("admin"), requireAdminTwoFactor];

/** The role, and the settings' currency every admin page writes amounts in (docs/product.md#money). */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const user = requireUser(context);
  return { role: user.role, currency: currencyOf(await getSettings(db)), unreadMessages: await countUnread(db, user) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AreaFrame area="admin" role={loaderData.role} unreadMessages={loaderData.unreadMessages}>
      <Outlet />
    </AreaFrame>
  );
}

/** The title of the area's error page (a record not found, a refusal): the message and the area's name. */
export const meta: Route.MetaFunction = ({ error }) => errorMeta(error, AREAS.admin.title);

export function ErrorBoundary() {
  return <AreaErrorBoundary area="admin" />;
}
