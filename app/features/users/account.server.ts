/**
 * The account page's use-cases (docs/product.md#account-page): profile, e-mail change,
 * password change, sessions, two-factor authentication (better-auth's twoFactor plugin) and
 * passkeys (better-auth's passkey plugin).
 *
 * Every function acts on the signed-in user only (their id comes from the session, never
 * from the form), maps better-auth's errors to sentences and throws {@link AppError} to
 * refuse. Functions that change the session cookie return the headers to send.
 */
import { randomBytes } from "node:crypto";
import { createOTP } from "@better-auth/utils/otp";
import { APIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import Bowser from "bowser";
import { and, desc, eq, gt, like, sql } from "drizzle-orm";
import QRCode from "qrcode";
import type { Database } from "#app/db/client.server";
import { passkey, session, twoFactor, user, verification } from "#app/db/schema";
import { enqueueMail, escapeHtml } from "#app/features/mail/mail.server";
import { AppError, conflict, fieldError, rateLimited } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import type { Env } from "#app/lib/env.server";
import { type ProfileInput } from "./account.schema";
import { ACCOUNT_MESSAGES } from "./account.messages";
import { AUTH_MESSAGES } from "./accounts.messages";
import type { AccountDeps } from "./accounts.server";
import type { SessionUser } from "./actor";
import { homeFor, roleOf } from "./actor";

/** E-mail change link lifetime: 1 hour. */
export const EMAIL_CHANGE_EXPIRES_IN_S = 3600;
/** How long a used TOTP code stays refused: longer than the ±1 step (30 s) it is valid for. */
const USED_CODE_WINDOW_MS = 3 * 60_000;
/** Code checks on the account page (setup, turning off) per user. */
const MANAGE_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
/** Password checks on the account page per user. */
const PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
/** Passkey sign-in attempts per IP. */
const PASSKEY_SIGN_IN_LIMIT = { limit: 20, windowMs: 5 * 60_000 };
/** A session's "last active" time is written at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;

function withIp(meta: RequestMeta): Headers {
  const headers = new Headers(meta.headers);
  headers.set("x-portal-client-ip", meta.ip);
  return headers;
}

function codeOf(error: unknown): string | null {
  return error instanceof APIError ? String((error.body as { code?: string } | undefined)?.code ?? "") : null;
}

async function limit(
  db: Database,
  key: string,
  rule: { limit: number; windowMs: number },
  message: string = AUTH_MESSAGES.tooManyAttempts,
) {
  const result = await hitRateLimit(db, key, rule);
  if (!result.allowed) throw rateLimited(message, result.retryAfterSeconds);
}

/** Refuses a TOTP code this user already had accepted (each code works once). */
async function markCodeUsed(db: Database, userId: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return true;
  const result = await hitRateLimit(db, `totp-used:${userId}:${code}`, { limit: 1, windowMs: USED_CODE_WINDOW_MS });
  return result.allowed;
}

// ---------------------------------------------------------------------------------------
// Profile
// ---------------------------------------------------------------------------------------

/**
 * Saves the signed-in user's profile (docs/product.md#account-page): clients their business
 * name, phone and website; ambassadors their name and phone (never the referral link ID);
 * admins their name. A client's account name follows the business name, as at registration.
 *
 * @param input - validated by the role's schema (`account.schema.ts`).
 * @throws {AppError} 400 when a field the role needs is missing.
 */
export async function updateProfile(db: Database, actor: SessionUser, input: ProfileInput): Promise<void> {
  const values: Partial<typeof user.$inferInsert> = {};
  if (actor.role === "client") {
    if (!("businessName" in input)) throw fieldError("businessName", "Business name is required.");
    Object.assign(values, { businessName: input.businessName, name: input.businessName, phone: input.phone, website: input.website });
  } else if (actor.role === "ambassador") {
    if (!("phone" in input) || !("name" in input)) throw fieldError("phone", "Phone is required.");
    Object.assign(values, { name: input.name, phone: input.phone });
  } else {
    if (!("name" in input)) throw fieldError("name", "Name is required.");
    values.name = input.name;
  }
  await db
    .update(user)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(user.id, actor.id));
}

// ---------------------------------------------------------------------------------------
// E-mail change
// ---------------------------------------------------------------------------------------

/** Checks the current password with better-auth (throttled per user). @throws {AppError} 400 on `field`, 429. */
async function checkPassword({ db, auth }: AccountDeps, userId: string, password: string, field: string) {
  await limit(db, `account-password:${userId}`, PASSWORD_LIMIT);
  const ctx = await auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(userId);
  const hash = accounts.find((a) => a.providerId === "credential")?.password;
  if (!hash || !(await ctx.password.verify({ hash, password }))) throw fieldError(field, ACCOUNT_MESSAGES.wrongPassword);
}

/**
 * Starts an e-mail change (docs/product.md#account-page): after the current password is
 * checked, the new address gets a confirmation link (through the outbox, valid one hour); the
 * address changes only when the link is followed.
 *
 * @throws {AppError} 400 wrong password (`currentPassword`) or same address; 409 address in
 *   use (`newEmail`); 429 too many attempts.
 */
export async function requestEmailChange(
  deps: AccountDeps & { env: Pick<Env, "origin"> },
  actor: SessionUser,
  input: { newEmail: string; currentPassword: string },
): Promise<void> {
  const { db, env } = deps;
  const newEmail = input.newEmail.toLowerCase();
  if (newEmail === actor.email.toLowerCase()) throw fieldError("newEmail", ACCOUNT_MESSAGES.emailSame);
  await checkPassword(deps, actor.id, input.currentPassword, "currentPassword");
  await limit(db, `email-change:${actor.id}`, { limit: 5, windowMs: 60 * 60_000 });
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, newEmail)).limit(1);
  if (taken) throw fieldError("newEmail", ACCOUNT_MESSAGES.emailTaken, "CONFLICT");
  const token = randomBytes(24).toString("base64url");
  const ctx = await deps.auth.$context;
  // One pending change per user: a new request replaces the old link.
  await db
    .delete(verification)
    .where(
      and(
        like(verification.identifier, "email-change:%"),
        like(verification.value, `${JSON.stringify({ kind: "email-change", userId: actor.id }).slice(0, -1)},%`),
      ),
    );
  await ctx.internalAdapter.createVerificationValue({
    identifier: `email-change:${token}`,
    value: JSON.stringify({ kind: "email-change", userId: actor.id, newEmail }),
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_EXPIRES_IN_S * 1000),
  });
  const url = `${env.origin}/account/confirm-email?token=${token}`;
  await enqueueMail(db, {
    to: newEmail,
    subject: "Confirm your new e-mail address",
    text: `Someone asked to use this address for their Client Portal account (now ${actor.email}).\n\nConfirm the change here (the link works once, for one hour):\n${url}\n\nIf it was not you, ignore this e-mail: nothing changes.`,
    html: `<p>Someone asked to use this address for their Client Portal account (now ${escapeHtml(actor.email)}).</p><p><a href="${escapeHtml(url)}">Confirm the new address</a> (the link works once, for one hour).</p><p>If it was not you, ignore this e-mail: nothing changes.</p>`,
  });
}

/** A pending e-mail change, for the confirmation page. @returns null when the link is invalid or expired. */
export async function findEmailChange(db: Database, token: string): Promise<{ newEmail: string } | null> {
  const [row] = await db
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, `email-change:${token}`), gt(verification.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  const parsed = JSON.parse(row.value) as { newEmail: string };
  return { newEmail: parsed.newEmail };
}

/**
 * Applies an e-mail change from its link (docs/product.md#account-page): the link works once;
 * the address must still be free; the old address is told about the change.
 *
 * @returns the new address.
 * @throws {AppError} 400 invalid, expired or used link; 409 the address was taken meanwhile.
 */
export async function confirmEmailChange({ db, auth }: AccountDeps, token: string): Promise<string> {
  const ctx = await auth.$context;
  const found = await ctx.internalAdapter.consumeVerificationValue(`email-change:${token}`);
  if (!found || found.expiresAt < new Date()) throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  const { kind, userId, newEmail } = JSON.parse(found.value) as { kind: string; userId: string; newEmail: string };
  if (kind !== "email-change") throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  const [current] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  if (!current) throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(user)
        .set({ email: newEmail, emailVerified: true, updatedAt: sql`now()` })
        .where(eq(user.id, userId));
      await enqueueMail(tx, {
        to: current.email,
        subject: "Your e-mail address was changed",
        text: `The e-mail address of your Client Portal account was changed from ${current.email} to ${newEmail}.\n\nIf it was not you, reply to this e-mail or contact us at once.`,
        html: `<p>The e-mail address of your Client Portal account was changed from ${escapeHtml(current.email)} to ${escapeHtml(newEmail)}.</p><p>If it was not you, reply to this e-mail or contact us at once.</p>`,
      });
    });
  } catch (error) {
    if (
      (error as { code?: string; cause?: { code?: string } }).code === "23505" ||
      (error as { cause?: { code?: string } }).cause?.code === "23505"
    ) {
      throw conflict(ACCOUNT_MESSAGES.emailTaken);
    }
    throw error;
  }
  return newEmail;
}

// ---------------------------------------------------------------------------------------
// Password
// ---------------------------------------------------------------------------------------

/**
 * Changes the password (docs/product.md#account-page): the current one is required; every
 * other session of the user ends (this one is renewed); a notice goes to the user's address.
 *
 * @returns headers with the renewed session cookie.
 * @throws {AppError} 400 wrong current password (`currentPassword`) or a refused new one; 429.
 */
export async function changePassword(
  { db, auth }: AccountDeps,
  actor: SessionUser,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
): Promise<Headers> {
  await limit(db, `account-password:${actor.id}`, PASSWORD_LIMIT);
  let result;
  try {
    result = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: withIp(meta),
      returnHeaders: true,
    });
  } catch (error) {
    const code = codeOf(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND")
      throw fieldError("currentPassword", ACCOUNT_MESSAGES.wrongPassword);
    if (code === "PASSWORD_TOO_SHORT") throw fieldError("newPassword", "The password is too short.");
    if (code === "PASSWORD_TOO_LONG") throw fieldError("newPassword", "The password is too long.");
    throw error;
  }
  await enqueueMail(db, {
    to: actor.email,
    subject: "Your password was changed",
    text: `The password of your Client Portal account was just changed, and every other session was signed out.\n\nIf it was not you, reset your password at once from the sign-in page and contact us.`,
    html: `<p>The password of your Client Portal account was just changed, and every other session was signed out.</p><p>If it was not you, reset your password at once from the sign-in page and contact us.</p>`,
  });
  return result.headers;
}

// ---------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------

/** One active session as the account page lists it. */
export interface SessionView {
  id: string;
  /** "Chrome on Linux", or "Unknown device". */
  device: string;
  ipAddress: string | null;
  /** When it was last used (to 5 minutes). */
  lastActiveAt: Date;
  createdAt: Date;
  current: boolean;
}

/** "Firefox on Windows" from a user agent (bowser), or "Unknown device". */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  const kind = parsed.platform.type === "mobile" ? " (phone)" : parsed.platform.type === "tablet" ? " (tablet)" : "";
  if (!browser && !os) return "Unknown device";
  return `${browser ?? "Browser"} on ${os ?? "unknown system"}${kind}`;
}

/**
 * The signed-in user's active sessions, most recently used first.
 *
 * @param currentSessionId - the session of this request ("this device").
 */
export async function listSessions(db: Database, actor: SessionUser, currentSessionId: string | null): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(session)
    .where(and(eq(session.userId, actor.id), gt(session.expiresAt, sql`now()`)))
    .orderBy(desc(session.updatedAt))
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    device: describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress,
    lastActiveAt: row.updatedAt,
    createdAt: row.createdAt,
    current: row.id === currentSessionId,
  }));
}

/**
 * Records that a session was used (its `updatedAt`, shown as "last active"), at most every
 * five minutes.
 */
export async function touchSession(db: Database, found: { id: string; updatedAt: Date | string }): Promise<void> {
  if (Date.now() - new Date(found.updatedAt).getTime() < TOUCH_EVERY_MS) return;
  await db
    .update(session)
    .set({ updatedAt: sql`now()` })
    .where(eq(session.id, found.id));
}

/**
 * Signs out one of the user's other sessions (docs/product.md#account-page): its next
 * request goes to /login.
 *
 * @throws {AppError} 404 not one of the user's sessions; 409 it is the current session.
 */
export async function revokeSession(
  { db, auth }: AccountDeps,
  actor: SessionUser,
  sessionId: string,
  currentSessionId: string | null,
  meta: RequestMeta,
): Promise<void> {
  if (sessionId === currentSessionId) throw conflict(ACCOUNT_MESSAGES.currentSession);
  const [row] = await db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, actor.id)));
  if (!row) throw new AppError("NOT_FOUND", "That session has already ended.");
  await auth.api.revokeSession({ body: { token: row.token }, headers: withIp(meta) });
}

/** Signs out every session of the user but this one (docs/product.md#account-page). */
export async function revokeOtherSessions({ auth }: AccountDeps, meta: RequestMeta): Promise<void> {
  await auth.api.revokeOtherSessions({ headers: withIp(meta) });
}

/** The id of the request's session (better-auth), or null. */
export async function currentSessionId({ auth }: AccountDeps, meta: RequestMeta): Promise<string | null> {
  const found = await auth.api.getSession({ headers: withIp(meta) });
  return found?.session.id ?? null;
}

// ---------------------------------------------------------------------------------------
// Two-factor authentication (TOTP + backup codes)
// ---------------------------------------------------------------------------------------

/** A two-factor setup waiting for its first code. */
export interface TwoFactorSetup {
  /** The QR code of the otpauth URI, as an SVG document (drawn on the server). */
  qrSvg: string;
  /** The secret in base32, to type into the app. */
  secret: string;
  backupCodes: string[];
}

/** The user's two-factor state for the account page. */
export interface TwoFactorState {
  enabled: boolean;
  /** Present while a setup waits for its confirming code. */
  pending: TwoFactorSetup | null;
}

async function setupView(uri: string, backupCodes: string[]): Promise<TwoFactorSetup> {
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return { qrSvg, secret, backupCodes };
}

/** @returns whether two-factor is on, and the pending setup (QR, secret, backup codes) if any. */
export async function getTwoFactorState({ db, auth }: AccountDeps, actor: SessionUser): Promise<TwoFactorState> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, actor.id)).limit(1);
  const [u] = await db.select({ enabled: user.twoFactorEnabled }).from(user).where(eq(user.id, actor.id));
  const enabled = Boolean(u?.enabled) && Boolean(row && row.verified !== false);
  if (!row || row.verified !== false) return { enabled, pending: null };
  const ctx = await auth.$context;
  const secret = await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret });
  const uri = createOTP(secret, { digits: 6, period: 30 }).url("Client Portal", actor.email);
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: actor.id } });
  return { enabled: false, pending: await setupView(uri, backupCodes) };
}

/**
 * Starts two-factor setup (docs/product.md#account-page): after the password is checked,
 * better-auth makes a new TOTP secret and 10 backup codes; two-factor is on only once a
 * first code confirms it ({@link confirmTwoFactor}).
 *
 * @throws {AppError} 400 wrong password (`password`), already on; 429.
 */
export async function startTwoFactor({ db, auth }: AccountDeps, actor: SessionUser, password: string, meta: RequestMeta): Promise<void> {
  await limit(db, `account-password:${actor.id}`, PASSWORD_LIMIT);
  try {
    await auth.api.enableTwoFactor({ body: { password, method: "totp", issuer: "Client Portal" }, headers: withIp(meta) });
  } catch (error) {
    const code = codeOf(error);
    if (code === "INVALID_PASSWORD") throw fieldError("password", ACCOUNT_MESSAGES.wrongPassword);
    if (code === "TOTP_ALREADY_ENABLED") throw conflict("Two-factor authentication is already on.");
    throw error;
  }
}

/**
 * Confirms two-factor setup with a first code: two-factor is on from then (better-auth renews
 * the session).
 *
 * @returns headers with the renewed session cookie.
 * @throws {AppError} 400 wrong or reused code (`code`); 409 no setup waiting; 429.
 */
export async function confirmTwoFactor({ db, auth }: AccountDeps, actor: SessionUser, code: string, meta: RequestMeta): Promise<Headers> {
  await limit(db, `2fa-manage:${actor.id}`, MANAGE_LIMIT);
  const [row] = await db.select({ verified: twoFactor.verified }).from(twoFactor).where(eq(twoFactor.userId, actor.id));
  if (!row || row.verified !== false) throw conflict("There is no two-factor setup waiting. Start again.");
  let result;
  try {
    result = await auth.api.verifyTOTP({ body: { code }, headers: withIp(meta), returnHeaders: true });
  } catch (error) {
    if (codeOf(error) === "INVALID_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
    throw error;
  }
  await markCodeUsed(db, actor.id, code);
  return result.headers;
}

/** Drops a setup that was never confirmed (the user starts again). */
export async function cancelTwoFactorSetup(db: Database, actor: SessionUser): Promise<void> {
  await db.delete(twoFactor).where(and(eq(twoFactor.userId, actor.id), eq(twoFactor.verified, false)));
}

/**
 * Turns two-factor off (docs/product.md#account-page): needs the password and a current code
 * or an unused backup code.
 *
 * @returns headers with the renewed session cookie.
 * @throws {AppError} 400 wrong password (`password`) or code (`code`); 409 not on; 429.
 */
export async function disableTwoFactor(
  deps: AccountDeps,
  actor: SessionUser,
  input: { password: string; code: string },
  meta: RequestMeta,
): Promise<Headers> {
  const { db, auth } = deps;
  await checkPassword(deps, actor.id, input.password, "password");
  await limit(db, `2fa-manage:${actor.id}`, MANAGE_LIMIT);
  const state = await getTwoFactorState(deps, actor);
  if (!state.enabled) throw conflict("Two-factor authentication is not on.");
  const code = input.code.replace(/\s+/g, "");
  try {
    if (/^\d{6}$/.test(code)) {
      await auth.api.verifyTOTP({ body: { code }, headers: withIp(meta) });
      if (!(await markCodeUsed(db, actor.id, code))) throw fieldError("code", ACCOUNT_MESSAGES.codeUsed);
    } else {
      await auth.api.verifyBackupCode({ body: { code: input.code.trim(), disableSession: true }, headers: withIp(meta) });
    }
  } catch (error) {
    const apiCode = codeOf(error);
    if (apiCode === "INVALID_CODE" || apiCode === "INVALID_BACKUP_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
    throw error;
  }
  const result = await auth.api.disableTwoFactor({ body: { password: input.password }, headers: withIp(meta), returnHeaders: true });
  return result.headers;
}

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
      ? await auth.api.verifyTOTP({ body: { code }, headers: withIp(meta), returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code: input.code.trim() }, headers: withIp(meta), returnHeaders: true });
  } catch (error) {
    const apiCode = codeOf(error);
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

// ---------------------------------------------------------------------------------------
// Passkeys
// ---------------------------------------------------------------------------------------

/** One passkey as the account page lists it. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date | null;
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(db: Database, actor: SessionUser): Promise<PasskeyView[]> {
  const rows = await db
    .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt })
    .from(passkey)
    .where(eq(passkey.userId, actor.id))
    .orderBy(passkey.createdAt);
  return rows.map((row) => ({ id: row.id, name: row.name || "Passkey", createdAt: row.createdAt }));
}

/** @throws {AppError} 404 not one of the user's passkeys. */
async function assertOwnPasskey(db: Database, actor: SessionUser, passkeyId: string) {
  const [row] = await db
    .select({ id: passkey.id })
    .from(passkey)
    .where(and(eq(passkey.id, passkeyId), eq(passkey.userId, actor.id)));
  if (!row) throw new AppError("NOT_FOUND", "Passkey not found.");
}

/** Renames one of the user's passkeys. @throws {AppError} 404 not theirs. */
export async function renamePasskey({ db, auth }: AccountDeps, actor: SessionUser, input: { id: string; name: string }, meta: RequestMeta) {
  await assertOwnPasskey(db, actor, input.id);
  await auth.api.updatePasskey({ body: { id: input.id, name: input.name }, headers: withIp(meta) });
}

/** Removes one of the user's passkeys. @throws {AppError} 404 not theirs. */
export async function removePasskey({ db, auth }: AccountDeps, actor: SessionUser, passkeyId: string, meta: RequestMeta) {
  await assertOwnPasskey(db, actor, passkeyId);
  await auth.api.deletePasskey({ body: { id: passkeyId }, headers: withIp(meta) });
}

/** What a passkey step answers: JSON for the browser, and cookies to set. */
export interface PasskeyStep {
  body: unknown;
  headers: Headers;
}

function passkeyError(error: unknown): never {
  if (error instanceof APIError) {
    throw new AppError(error.statusCode === 401 ? "UNAUTHORIZED" : "INVALID_INPUT", "The passkey could not be used. Try again.");
  }
  throw error;
}

/** Registration options for a new passkey of the signed-in user (sets the challenge cookie). */
export async function passkeyRegistrationOptions({ auth }: AccountDeps, meta: RequestMeta): Promise<PasskeyStep> {
  try {
    const result = await auth.api.generatePasskeyRegistrationOptions({ headers: withIp(meta), returnHeaders: true });
    return { body: result.response, headers: result.headers };
  } catch (error) {
    passkeyError(error);
  }
}

/** Stores the new passkey the browser made (better-auth checks the challenge and attestation). */
export async function registerPasskey(
  { auth }: AccountDeps,
  input: { response: unknown; name?: string },
  meta: RequestMeta,
): Promise<PasskeyStep> {
  try {
    const result = await auth.api.verifyPasskeyRegistration({
      body: { response: input.response, name: input.name?.slice(0, 60) || undefined },
      headers: withIp(meta),
      returnHeaders: true,
    });
    return { body: { ok: true }, headers: result.headers };
  } catch (error) {
    passkeyError(error);
  }
}

/** Sign-in options for "Sign in with a passkey" (sets the challenge cookie); throttled per IP. */
export async function passkeySignInOptions({ db, auth }: AccountDeps, meta: RequestMeta): Promise<PasskeyStep> {
  await limit(db, `passkey-signin:${meta.ip}`, PASSKEY_SIGN_IN_LIMIT);
  const result = await auth.api.generatePasskeyAuthenticationOptions({ headers: withIp(meta), returnHeaders: true });
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
      headers: withIp(meta),
      returnHeaders: true,
    });
  } catch (error) {
    if (codeOf(error) === "BANNED_USER") throw new AppError("FORBIDDEN", "This account has been deactivated.");
    passkeyError(error);
  }
  const signedIn = result.response as { user: { role?: string | null } };
  return { body: { redirectTo: homeFor(roleOf(signedIn.user.role)) }, headers: result.headers };
}
