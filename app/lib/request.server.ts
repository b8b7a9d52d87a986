/**
 * Shortcuts for route modules: the services and request facts a use-case needs.
 */
import type { RouterContextProvider } from "react-router";
import { requestInfoContext, servicesContext } from "#app/context";
import type { RequestMeta } from "#app/features/users/accounts.server";

type Ctx = Readonly<RouterContextProvider>;

/** `{ db, auth }` for account use-cases. */
export function accountDeps(context: Ctx) {
  const { db, auth } = context.get(servicesContext);
  return { db, auth };
}

/** Request headers and the client IP (rate-limit key). */
export function requestMeta(request: Request, context: Ctx): RequestMeta {
  return { headers: request.headers, ip: context.get(requestInfoContext).ip };
}
