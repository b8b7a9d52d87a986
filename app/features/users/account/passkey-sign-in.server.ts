/**
 * "Sign in with a passkey" on /login (docs/product.md#account-page). A passkey must verify its
 * user (fingerprint, face or device PIN): it is then something the person has and something
 * they are or know — two factors — so no password or code follows.
 */
import { undoRateLimitHit } from "#app/lib/rate-limit.server";
import type { RequestMeta } from "#app/lib/request.server";
import type { AccountDeps } from "../accounts.server";
import { homeFor, roleOf } from "../actor";
import { authHeaders, sessionRefusal } from "../auth-glue.server";
import { beginCountedAttempt } from "./guards.server";
import { passkeyError, type PasskeyStep } from "./passkeys.server";

/** Passkey sign-ins started per client IP that did not end signed in (a sign-in takes its start back). */
export const PASSKEY_SIGN_IN_LIMIT = { limit: 20, windowMs: 5 * 60_000 };

const limitKey = (meta: RequestMeta) => `passkey-signin:${meta.ip}`;

/**
 * Sign-in options for "Sign in with a passkey" (sets the challenge cookie), asking the browser
 * for user verification.
 *
 * @throws {AppError} 429 (with Retry-After) after {@link PASSKEY_SIGN_IN_LIMIT} starts from this IP that did not sign in.
 */
export async function passkeySignInOptions({ db, auth }: AccountDeps, meta: RequestMeta): Promise<PasskeyStep> {
  await beginCountedAttempt(db, limitKey(meta), PASSKEY_SIGN_IN_LIMIT);
  const result = await auth.api.generatePasskeyAuthenticationOptions({ headers: authHeaders(meta), returnHeaders: true });
  // better-auth asks for "preferred"; the server refuses an assertion without it (auth.server.ts).
  return { body: { ...result.response, userVerification: "required" }, headers: result.headers };
}

/**
 * Signs in with a passkey: better-auth checks the assertion (and our hook its user-verification
 * flag and that the passkey was added with it) and makes the session.
 *
 * @returns the session cookie and `{ redirectTo }` (the role's home).
 * @throws {AppError} 400 no user verification, or a passkey to add again; 400/401 the passkey
 *   was refused; 403 deactivated account, or the address is not verified while that is required.
 */
export async function signInWithPasskey({ db, auth }: AccountDeps, response: unknown, meta: RequestMeta): Promise<PasskeyStep> {
  let result;
  try {
    result = await auth.api.verifyPasskeyAuthentication({
      body: { response: response as never },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    const refusal = sessionRefusal(error);
    if (refusal) throw refusal;
    passkeyError(error);
  }
  // The start this sign-in began with is not a failure.
  await undoRateLimitHit(db, limitKey(meta));
  const signedIn = result.response as { user: { role?: string | null } };
  return { body: { redirectTo: homeFor(roleOf(signedIn.user.role)) }, headers: result.headers };
}
