/**
 * The glue between our use-cases and better-auth's server API, in one place: the headers a
 * call carries (the client IP for better-auth's own records) and the error code of a refusal.
 */
import { APIError } from "better-auth/api";
import type { RequestMeta } from "#app/lib/request.server";

/** The header better-auth reads the client IP from (`advanced.ipAddress` in auth.server.ts). */
export const CLIENT_IP_HEADER = "x-portal-client-ip";

/**
 * The request's headers (cookies, user agent) plus the client IP as express resolved it, for a
 * `auth.api.*` call.
 */
export function authHeaders(meta: RequestMeta): Headers {
  const headers = new Headers(meta.headers);
  headers.set(CLIENT_IP_HEADER, meta.ip);
  return headers;
}

/**
 * better-auth's error code of a refusal (`INVALID_PASSWORD`, `BANNED_USER` …).
 *
 * @returns the code, "" for a better-auth error without one, null for anything else.
 */
export function authErrorCode(error: unknown): string | null {
  return error instanceof APIError ? String((error.body as { code?: string } | undefined)?.code ?? "") : null;
}
