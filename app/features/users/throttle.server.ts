/**
 * Throttling of sign-in, sign-up and password reset (docs/product.md#throttling), with the
 * counters in PostgreSQL (`rate_window`, app/lib/rate-limit.server.ts) so every app instance
 * counts against the same budget.
 *
 * Sign-in is throttled on failures only, so that nobody can lock the owner out of an account:
 *
 * - per client IP: at most {@link SIGN_IN_THROTTLE}.perIpFailures wrong passwords (any
 *   accounts) per window — a level an office router full of honest users never reaches;
 * - per account and client IP: at most `perAccountIpFailures` wrong passwords;
 * - per account, from any IP: a slow-down. Once the account has had `slowDownAfter` wrong
 *   passwords in the window, an address that itself failed on this account waits a growing
 *   delay after the account's last failure (1 s, doubling, at most `maxDelayMs`). An address
 *   with no recent failure on the account is never delayed, so the owner signing in correctly
 *   from their own address gets in while the account is under attack.
 *
 * A successful sign-in takes its hit back and clears its address's failures on the account.
 * Every refusal is logged as a structured `throttle` event (rule, IP, account; no password).
 */
import type { Database } from "#app/db/client.server";
import { rateLimited } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { clearRateLimit, hitRateLimit, peekRateLimit, undoRateLimitHit } from "#app/lib/rate-limit.server";
import { AUTH_MESSAGES } from "./accounts.messages";

/** Sign-in figures (docs/product.md#throttling). */
export const SIGN_IN_THROTTLE = {
  /** Every sign-in counter's window (fixed from its first failure). */
  windowMs: 15 * 60_000,
  /** Wrong passwords from one client IP, any accounts, per window. */
  perIpFailures: 100,
  /** Wrong passwords for one account from one client IP, per window. */
  perAccountIpFailures: 10,
  /** Wrong passwords for one account (any IP) before the slow-down starts. */
  slowDownAfter: 5,
  /** First delay of the slow-down (doubles with each further failure). */
  firstDelayMs: 1_000,
  /** Longest delay of the slow-down. */
  maxDelayMs: 60_000,
} as const;

/** Sign-up figures: attempts (accounts created or refused) per client IP. */
export const SIGN_UP_LIMIT = { limit: 30, windowMs: 60 * 60_000 } as const;

/** Password reset figures (docs/product.md#throttling). */
export const PASSWORD_RESET_LIMITS = {
  /** Reset requests per client IP (answered 429 beyond). */
  perIp: { limit: 20, windowMs: 60 * 60_000 },
  /** Reset mails per e-mail address; beyond, the request is answered as usual but no mail is sent. */
  perAccount: { limit: 3, windowMs: 60 * 60_000 },
} as const;

/**
 * Verification mails on request (docs/product.md#email-verification): per address and per
 * client IP, counted whether or not a mail is sent (the answer is the same either way).
 */
export const VERIFY_RATE_LIMITS = {
  perAddress: { limit: 3, windowMs: 60 * 60_000 },
  perIp: { limit: 20, windowMs: 60 * 60_000 },
} as const;

/** The throttle rules, as named in the log. */
export type ThrottleRule =
  | "sign-in-ip"
  | "sign-in-account-ip"
  | "sign-in-account-slow-down"
  | "sign-up-ip"
  | "password-reset-ip"
  | "password-reset-account"
  | "verify-resend-ip"
  | "verify-resend-account";

/** Logs one throttle event (never a password or a token). */
function logThrottle(rule: ThrottleRule, fields: { ip: string; account?: string; retryAfterSeconds?: number }) {
  logger.warn({ event: "throttle", rule, ...fields }, "request throttled");
}

const keys = {
  ip: (ip: string) => `signin-fail-ip:${ip}`,
  accountIp: (email: string, ip: string) => `signin-fail-account-ip:${email}|${ip}`,
  account: (email: string) => `signin-fail-account:${email}`,
};

/**
 * The slow-down's delay after `failures` wrong passwords on an account.
 *
 * @returns milliseconds (0 below `slowDownAfter`; 1 s at it, doubling, capped at `maxDelayMs`).
 */
export function slowDownDelayMs(failures: number): number {
  const { slowDownAfter, firstDelayMs, maxDelayMs } = SIGN_IN_THROTTLE;
  if (failures < slowDownAfter) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(30, failures - slowDownAfter));
}

/** One sign-in attempt admitted by {@link beginSignIn}: report how it ended. */
export interface SignInAttempt {
  /** The password was right: the attempt is not counted, the address's failures on the account are cleared. */
  succeeded(): Promise<void>;
  /** Wrong e-mail or password: counted per IP, per account and IP, and per account. */
  failed(): Promise<void>;
  /** Ended otherwise (e.g. deactivated account): not counted. */
  abandoned(): Promise<void>;
}

/**
 * Admits or refuses one sign-in attempt before the password is checked. The attempt is
 * counted at once (so that parallel attempts cannot slip past the limits) and taken back by
 * {@link SignInAttempt.succeeded} or `abandoned()`.
 *
 * @param email - the lowercased e-mail the attempt is for (known or not).
 * @param ip - the client IP (`TRUST_PROXY`-aware).
 * @throws {AppError} RATE_LIMITED (429, with Retry-After seconds) when this IP has too many
 *   recent failures, or this IP on this account, or when the account is slowed down and this
 *   address has failed on it recently. The refusal is logged.
 */
export async function beginSignIn(db: Database, email: string, ip: string): Promise<SignInAttempt> {
  const { windowMs } = SIGN_IN_THROTTLE;
  const ipKey = keys.ip(ip);
  const accountIpKey = keys.accountIp(email, ip);
  const byIp = await hitRateLimit(db, ipKey, { limit: SIGN_IN_THROTTLE.perIpFailures, windowMs });
  if (!byIp.allowed) {
    await undoRateLimitHit(db, ipKey);
    logThrottle("sign-in-ip", { ip, account: email, retryAfterSeconds: byIp.retryAfterSeconds });
    throw rateLimited(AUTH_MESSAGES.tooManyAttempts, byIp.retryAfterSeconds);
  }
  const byAccountIp = await hitRateLimit(db, accountIpKey, { limit: SIGN_IN_THROTTLE.perAccountIpFailures, windowMs });
  const refuse = async (rule: ThrottleRule, retryAfterSeconds: number) => {
    await undoRateLimitHit(db, ipKey);
    await undoRateLimitHit(db, accountIpKey);
    logThrottle(rule, { ip, account: email, retryAfterSeconds });
    return rateLimited(AUTH_MESSAGES.tooManyAttempts, retryAfterSeconds);
  };
  if (!byAccountIp.allowed) throw await refuse("sign-in-account-ip", byAccountIp.retryAfterSeconds);
  // The slow-down applies only to an address that has itself failed on this account.
  if (byAccountIp.count > 1) {
    const account = await peekRateLimit(db, keys.account(email), windowMs);
    const delay = slowDownDelayMs(account.count);
    if (delay > 0 && account.sinceLastHitMs !== null && account.sinceLastHitMs < delay) {
      throw await refuse("sign-in-account-slow-down", Math.max(1, Math.ceil((delay - account.sinceLastHitMs) / 1000)));
    }
  }
  return {
    async succeeded() {
      await undoRateLimitHit(db, ipKey);
      await clearRateLimit(db, accountIpKey);
    },
    async failed() {
      await hitRateLimit(db, keys.account(email), { limit: Number.MAX_SAFE_INTEGER, windowMs });
    },
    async abandoned() {
      await undoRateLimitHit(db, ipKey);
      await undoRateLimitHit(db, accountIpKey);
    },
  };
}

/**
 * Counts one sign-up attempt from `ip` (client or ambassador registration).
 *
 * @throws {AppError} RATE_LIMITED beyond {@link SIGN_UP_LIMIT} (logged).
 */
export async function limitSignUp(db: Database, ip: string): Promise<void> {
  const result = await hitRateLimit(db, `signup:${ip}`, SIGN_UP_LIMIT);
  if (!result.allowed) {
    logThrottle("sign-up-ip", { ip, retryAfterSeconds: result.retryAfterSeconds });
    throw rateLimited(AUTH_MESSAGES.tooManyAttempts, result.retryAfterSeconds);
  }
}

/**
 * Counts one password reset request from `ip` for `email`.
 *
 * @returns false when the address already got {@link PASSWORD_RESET_LIMITS}.perAccount mails
 *   in the window: the caller answers as usual (no account enumeration, no lock-out — the
 *   owner has the mails already sent) but sends none. Logged.
 * @throws {AppError} RATE_LIMITED beyond the per-IP limit (logged).
 */
export async function limitPasswordReset(db: Database, email: string, ip: string): Promise<boolean> {
  const byIp = await hitRateLimit(db, `reset:${ip}`, PASSWORD_RESET_LIMITS.perIp);
  if (!byIp.allowed) {
    logThrottle("password-reset-ip", { ip, account: email, retryAfterSeconds: byIp.retryAfterSeconds });
    throw rateLimited(AUTH_MESSAGES.tooManyAttempts, byIp.retryAfterSeconds);
  }
  const byAccount = await hitRateLimit(db, `reset-account:${email}`, PASSWORD_RESET_LIMITS.perAccount);
  if (!byAccount.allowed) {
    logThrottle("password-reset-account", { ip, account: email, retryAfterSeconds: byAccount.retryAfterSeconds });
    return false;
  }
  return true;
}

/**
 * Counts one request for a new verification mail from `ip` for `email`.
 *
 * @throws {AppError} RATE_LIMITED beyond {@link VERIFY_RATE_LIMITS} per IP or per address (logged).
 */
export async function limitVerificationResend(db: Database, email: string, ip: string): Promise<void> {
  const checks = [
    ["verify-resend-ip", `verify-ip:${ip}`, VERIFY_RATE_LIMITS.perIp],
    ["verify-resend-account", `verify:${email.toLowerCase()}`, VERIFY_RATE_LIMITS.perAddress],
  ] as const;
  for (const [rule, key, limits] of checks) {
    const result = await hitRateLimit(db, key, limits);
    if (!result.allowed) {
      logThrottle(rule, { ip, account: email, retryAfterSeconds: result.retryAfterSeconds });
      throw rateLimited(AUTH_MESSAGES.tooManyAttempts, result.retryAfterSeconds);
    }
  }
}
