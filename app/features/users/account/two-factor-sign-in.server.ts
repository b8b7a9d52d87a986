/** The sign-in second step (docs/product.md#account-page): a TOTP code or a backup code. */
import { eq } from "drizzle-orm";
import { session } from "#app/db/schema";
import { AppError, fieldError, rateLimited } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import { homeFor, roleOf } from "../actor";
import { authErrorCode, authHeaders } from "../auth-glue.server";
import { limit, markCodeUsed } from "./guards.server";

/** The second step of a sign-in: the session cookie to set and where to go. */
export interface SecondStepResult {
  headers: Headers;
  home: string;
}

/**
 * The sign-in second step (docs/product.md#account-page): a 6-digit code from the app or a
 * backup code (each backup code works once). better-auth checks it against the pending
 * sign-in (its signed cookie, 10 minutes) and counts wrong codes: after 5 the sign-in must
 * start again and the account waits 15 minutes. A TOTP code is accepted once only.
 *
 * @throws {AppError} 400 wrong or reused code (`code`); 401 no pending sign-in (expired);
 *   429 the account waits.
 */
export async function verifySignInCode({ db, auth }: AccountDeps, input: { code: string }, meta: RequestMeta): Promise<SecondStepResult> {
  await limit(db, `2fa-signin:${meta.ip}`, { limit: 30, windowMs: 15 * 60_000 });
  const code = input.code.replace(/\s+/g, "");
  const totp = /^\d{6}$/.test(code);
  let result;
  try {
    result = totp
      ? await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(meta), returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code: input.code.trim() }, headers: authHeaders(meta), returnHeaders: true });
  } catch (error) {
    const apiCode = authErrorCode(error);
    if (apiCode === "INVALID_CODE" || apiCode === "INVALID_BACKUP_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
    if (apiCode === "ACCOUNT_TEMPORARILY_LOCKED") throw rateLimited(ACCOUNT_MESSAGES.tooManyCodes, 15 * 60);
    if (apiCode === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") throw rateLimited(ACCOUNT_MESSAGES.tooManyCodes, 15 * 60);
    if (apiCode === "INVALID_TWO_FACTOR_COOKIE" || apiCode === "TOTP_NOT_ENABLED")
      throw new AppError("UNAUTHORIZED", ACCOUNT_MESSAGES.signInExpired);
    throw error;
  }
  const signedIn = result.response as { token: string; user: { id: string; role?: string | null } };
  if (totp && !(await markCodeUsed(db, signedIn.user.id, code))) {
    // A replayed code: the session better-auth just made ends at once.
    await db.delete(session).where(eq(session.token, signedIn.token));
    throw new AppError("UNAUTHORIZED", `${ACCOUNT_MESSAGES.codeUsed} Sign in again.`);
  }
  return { headers: result.headers, home: homeFor(roleOf(signedIn.user.role)) };
}
