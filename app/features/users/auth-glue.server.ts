/**
 * The glue between our use-cases and better-auth's server API, in one place: the headers a
 * call carries (the client IP for better-auth's own records) and the error code of a refusal.
 */
import { APIError } from "better-auth/api";
import { AppError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "./account.schema";
import { AUTH_MESSAGES } from "./accounts.schema";

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

/** Our hooks' error codes (auth.server.ts): the session hook's refusal of an unverified address. */
export const EMAIL_NOT_VERIFIED = "EMAIL_NOT_VERIFIED";
/** A passkey assertion or registration without the user-verification flag. */
export const PASSKEY_USER_NOT_VERIFIED = "PASSKEY_USER_NOT_VERIFIED";
/** A passkey registered before user verification was required (`passkey.user_verified` false). */
export const PASSKEY_ADD_AGAIN = "PASSKEY_ADD_AGAIN";

/** Sentences for the refusals of the moment a session is made, whichever way in (password, code, passkey). */
const SESSION_REFUSALS: Record<string, () => AppError> = {
  BANNED_USER: () => new AppError("FORBIDDEN", AUTH_MESSAGES.deactivated),
  [EMAIL_NOT_VERIFIED]: () => new AppError("FORBIDDEN", AUTH_MESSAGES.verifyBeforeSignIn),
  [PASSKEY_USER_NOT_VERIFIED]: () => new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.passkeyNeedsVerification),
  [PASSKEY_ADD_AGAIN]: () => new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.passkeyAddAgain),
};

/**
 * The {@link AppError} for a refusal better-auth raised while making a session: a deactivated
 * account (403), an unverified address while verification is required (403), a passkey without
 * user verification (400).
 *
 * @returns null for any other error.
 */
export function sessionRefusal(error: unknown): AppError | null {
  const code = authErrorCode(error);
  return code ? (SESSION_REFUSALS[code]?.() ?? null) : null;
}
