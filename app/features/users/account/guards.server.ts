/**
 * Checks shared by the account page's use-cases (docs/product.md#account-page): per-user
 * throttles, the current-password check, and "each TOTP code works once".
 */
import type { Database } from "#app/db/client.server";
import { fieldError, rateLimited } from "#app/lib/errors";
import { hitRateLimit, undoRateLimitHit } from "#app/lib/rate-limit.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import { AUTH_MESSAGES } from "../accounts.messages";
import type { AccountDeps } from "../accounts.server";

/** How long a used TOTP code stays refused: longer than the ±1 step (30 s) it is valid for. */
const USED_CODE_WINDOW_MS = 3 * 60_000;
/** Code checks on the account page (setup, turning off) per user. */
export const MANAGE_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
/** Password checks on the account page per user. */
export const PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 };

/** Counts one hit on `key`. @throws {AppError} 429 (with Retry-After) beyond `rule`. */
export async function limit(
  db: Database,
  key: string,
  rule: { limit: number; windowMs: number },
  message: string = AUTH_MESSAGES.tooManyAttempts,
): Promise<void> {
  const result = await hitRateLimit(db, key, rule);
  if (!result.allowed) throw rateLimited(message, result.retryAfterSeconds);
}

/**
 * A limit that counts failures only (docs/product.md#throttling): the attempt is counted at once
 * (so parallel attempts cannot slip past) and taken back when it succeeds.
 *
 * @throws {AppError} 429 (with Retry-After) when `key` already has `rule.limit` attempts that did not succeed.
 */
export async function beginCountedAttempt(
  db: Database,
  key: string,
  rule: { limit: number; windowMs: number },
  message: string = AUTH_MESSAGES.tooManyAttempts,
): Promise<{ succeeded(): Promise<void> }> {
  const result = await hitRateLimit(db, key, rule);
  if (!result.allowed) {
    await undoRateLimitHit(db, key);
    throw rateLimited(message, result.retryAfterSeconds);
  }
  return { succeeded: () => undoRateLimitHit(db, key) };
}

/**
 * Records that this user had `code` accepted; a TOTP code works once.
 *
 * @returns false when the code was already used (or is not a 6-digit code).
 */
export async function markCodeUsed(db: Database, userId: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return true;
  const result = await hitRateLimit(db, `totp-used:${userId}:${code}`, { limit: 1, windowMs: USED_CODE_WINDOW_MS });
  return result.allowed;
}

/**
 * Checks the user's current password with better-auth (throttled per user).
 *
 * @param field - the form field a wrong password is reported on.
 * @throws {AppError} 400 on `field` when wrong; 429.
 */
export async function checkPassword({ db, auth }: AccountDeps, userId: string, password: string, field: string): Promise<void> {
  await limit(db, `account-password:${userId}`, PASSWORD_LIMIT);
  const ctx = await auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(userId);
  const hash = accounts.find((a) => a.providerId === "credential")?.password;
  if (!hash || !(await ctx.password.verify({ hash, password }))) throw fieldError(field, ACCOUNT_MESSAGES.wrongPassword);
}
