/**
 * Request facts a use-case needs (account rate limits, sessions), taken from the request
 * and the router context.
 */
import type { RouterContextProvider } from "react-router";
import { requestInfoContext } from "./request-info";

/** Request facts use-cases need (account rate limits, sessions). */
export interface RequestMeta {
  /** Incoming request headers (cookies, user agent); the client IP header is added. */
  headers: Headers;
  /** Client IP as express resolved it (`trust proxy` aware): the rate-limit key. */
  ip: string;
}

/** Request headers and the client IP (rate-limit key). */
export function requestMeta(request: Request, context: Readonly<RouterContextProvider>): RequestMeta {
  return { headers: request.headers, ip: context.get(requestInfoContext).ip };
}
