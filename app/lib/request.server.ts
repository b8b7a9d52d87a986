/**
 * Shortcuts for route modules: the services and request facts a use-case needs.
 */
import type { RouterContextProvider } from "react-router";
import { requestInfoContext, servicesContext } from "#app/context";

type Ctx = Readonly<RouterContextProvider>;

/** Request facts use-cases need (account rate limits, sessions). */
export interface RequestMeta {
  /** Incoming request headers (cookies, user agent); the client IP header is added. */
  headers: Headers;
  /** Client IP as express resolved it (`trust proxy` aware): the rate-limit key. */
  ip: string;
}

/** `{ db, auth }` for account use-cases. */
export function accountDeps(context: Ctx) {
  const { db, auth } = context.get(servicesContext);
  return { db, auth };
}

/** Request headers and the client IP (rate-limit key). */
export function requestMeta(request: Request, context: Ctx): RequestMeta {
  return { headers: request.headers, ip: context.get(requestInfoContext).ip };
}
