/** "Sign in with a passkey" on /login (docs/product.md#account-page). */
import { AppError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import type { AccountDeps } from "../accounts.server";
import { homeFor, roleOf } from "../actor";
import { authErrorCode, authHeaders } from "../auth-glue.server";
import { limit } from "./guards.server";
import { passkeyError, type PasskeyStep } from "./passkeys.server";

/** Passkey sign-in attempts per IP. */
const PASSKEY_SIGN_IN_LIMIT = { limit: 20, windowMs: 5 * 60_000 };

/** Sign-in options for "Sign in with a passkey" (sets the challenge cookie); throttled per IP. */
export async function passkeySignInOptions({ db, auth }: AccountDeps, meta: RequestMeta): Promise<PasskeyStep> {
  await limit(db, `passkey-signin:${meta.ip}`, PASSKEY_SIGN_IN_LIMIT);
  const result = await auth.api.generatePasskeyAuthenticationOptions({ headers: authHeaders(meta), returnHeaders: true });
  return { body: result.response, headers: result.headers };
}

/**
 * Signs in with a passkey: better-auth checks the assertion and makes the session.
 *
 * @returns the session cookie and `{ redirectTo }` (the role's home).
 * @throws {AppError} 400/401 the passkey was refused; 403 deactivated account.
 */
export async function signInWithPasskey({ auth }: AccountDeps, response: unknown, meta: RequestMeta): Promise<PasskeyStep> {
  let result;
  try {
    result = await auth.api.verifyPasskeyAuthentication({
      body: { response: response as never },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    if (authErrorCode(error) === "BANNED_USER") throw new AppError("FORBIDDEN", "This account has been deactivated.");
    passkeyError(error);
  }
  const signedIn = result.response as { user: { role?: string | null } };
  return { body: { redirectTo: homeFor(roleOf(signedIn.user.role)) }, headers: result.headers };
}
