/** The sign-in second step (docs/product.md#account-page): a TOTP code or a backup code. */
import { constantTimeEqual, makeSignature } from "better-auth/crypto";
import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { session, verification } from "#app/db/schema";
import { AppError, fieldError, rateLimited } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import { homeFor, roleOf } from "../actor";
import { authErrorCode, authHeaders, sessionRefusal } from "../auth-glue.server";
import { beginCountedAttempt, markCodeUsed } from "./guards.server";

/** Wrong second-step attempts per client IP (a good code takes its hit back: an office never reaches it). */
export const TWO_FACTOR_SIGN_IN_LIMIT = { limit: 30, windowMs: 15 * 60_000 };

/** The second step of a sign-in: the session cookie to set and where to go. */
export interface SecondStepResult {
  headers: Headers;
  home: string;
}

/** A backup code as typed: any case, spaces and dashes ignored. */
export function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]+/g, "").toLowerCase();
}

/**
 * The user of the request's pending sign-in: better-auth's signed `two_factor` cookie names a
 * verification row whose value is the user id.
 *
 * @returns null when there is no pending sign-in or its signature is wrong.
 */
async function pendingSignInUserId({ db, auth }: AccountDeps, meta: RequestMeta): Promise<string | null> {
  const ctx = await auth.$context;
  const name = ctx.createAuthCookie("two_factor").name;
  const raw = meta.headers
    .get("cookie")
    ?.split(/;\s*/)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const identifier = value.slice(0, dot);
  if (!constantTimeEqual(await makeSignature(identifier, ctx.secret), value.slice(dot + 1))) return null;
  const [row] = await db.select({ value: verification.value }).from(verification).where(eq(verification.identifier, identifier));
  return row?.value ?? null;
}

/**
 * The stored backup code the user meant (case, spaces and dashes aside), for better-auth's exact
 * comparison; the input unchanged when none matches (it is then refused as a wrong code).
 */
export async function storedBackupCode({ auth }: AccountDeps, userId: string | null, typed: string): Promise<string> {
  if (!userId) return typed.trim();
  const wanted = normalizeBackupCode(typed);
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } }).catch(() => ({ backupCodes: [] as string[] }));
  return backupCodes.find((code) => normalizeBackupCode(code) === wanted) ?? typed.trim();
}

/**
 * The sign-in second step (docs/product.md#account-page): a 6-digit code from the app or a
 * backup code (each backup code works once; case, spaces and dashes do not matter).
 * better-auth checks it against the pending sign-in (its signed cookie, 10 minutes) and counts
 * wrong codes: after 5 the sign-in must start again and the account waits 15 minutes. A TOTP
 * code is accepted once only. The session is made here, so the refusals of that moment apply:
 * a deactivated account, an unverified address while verification is required.
 *
 * @throws {AppError} 400 wrong or reused code (`code`), or a backup code another sign-in used
 *   at the same moment; 401 no pending sign-in (expired); 403 deactivated, or the address is
 *   not verified while that is required; 429 the account waits, or too many wrong codes from this IP.
 */
export async function verifySignInCode(deps: AccountDeps, input: { code: string }, meta: RequestMeta): Promise<SecondStepResult> {
  const { db, auth } = deps;
  const attempt = await beginCountedAttempt(db, `2fa-signin:${meta.ip}`, TWO_FACTOR_SIGN_IN_LIMIT);
  const code = input.code.replace(/\s+/g, "");
  const totp = /^\d{6}$/.test(code);
  let result;
  try {
    result = totp
      ? await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(meta), returnHeaders: true })
      : await auth.api.verifyBackupCode({
          body: { code: await storedBackupCode(deps, await pendingSignInUserId(deps, meta), input.code) },
          headers: authHeaders(meta),
          returnHeaders: true,
        });
  } catch (error) {
    const refusal = sessionRefusal(error);
    if (refusal) throw refusal;
    const apiCode = authErrorCode(error);
    if (apiCode === "INVALID_CODE" || apiCode === "INVALID_BACKUP_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
    // Another sign-in used the same backup code at the same moment (better-auth's guarded update lost).
    if (error instanceof APIError && error.statusCode === 409) throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
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
  await attempt.succeeded();
  return { headers: result.headers, home: homeFor(roleOf(signedIn.user.role)) };
}
