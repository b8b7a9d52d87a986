/**
 * /account/my-data/:token (docs/product.md#download-my-data): the ZIP a mailed link names, for its
 * signed-in owner only, while the link lasts (24 hours).
 */
import type { Route } from "./+types/my-data";
import { servicesContext } from "#app/context";
import { downloadDataExport, exportResponse } from "#app/features/privacy/data-export.server";
import { requireRole, requireUser } from "#app/features/users/session.server";

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const file = await downloadDataExport(context.get(servicesContext).db, requireUser(context), params.token);
  return exportResponse(file);
}
