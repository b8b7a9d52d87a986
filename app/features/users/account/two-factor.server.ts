/**
 * Two-factor authentication on the account page (docs/product.md#account-page): TOTP and 10
 * backup codes through better-auth's twoFactor plugin — set up, confirm, cancel, turn off.
 */
import { createOTP } from "@better-auth/utils/otp";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import QRCode from "qrcode";
import type { Database } from "#app/db/client.server";
import { twoFactor, user } from "#app/db/schema";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { conflict, fieldError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { authErrorCode, authHeaders } from "../auth-glue.server";
import { checkPassword, limit, MANAGE_LIMIT, markCodeUsed, PASSWORD_LIMIT } from "./guards.server";
import { storedBackupCode } from "./two-factor-sign-in.server";

/** A two-factor setup waiting for its first code. */
export interface TwoFactorSetup {
  /** The QR code of the otpauth URI, as an SVG document (drawn on the server). */
  qrSvg: string;
  /** The secret in base32, to type into the app. */
  secret: string;
  /** The `otpauth://` URI the QR code holds (issuer: the company name), a link for a phone's own app. */
  uri: string;
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
  return { qrSvg, secret, uri, backupCodes };
}

/** @returns whether two-factor is on, and the pending setup (QR, secret, backup codes) if any. */
export async function getTwoFactorState({ db, auth }: AccountDeps, actor: SessionUser): Promise<TwoFactorState> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, actor.id)).limit(1);
  const [u] = await db.select({ enabled: user.twoFactorEnabled }).from(user).where(eq(user.id, actor.id));
  const enabled = Boolean(u?.enabled) && Boolean(row && row.verified !== false);
  if (!row || row.verified !== false) return { enabled, pending: null };
  const ctx = await auth.$context;
  const secret = await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret });
  const uri = createOTP(secret, { digits: 6, period: 30 }).url(companyNameOf(await getSettings(db)), actor.email);
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
    // The authenticator app shows the company's name as it is now.
    const issuer = companyNameOf(await getSettings(db));
    await auth.api.enableTwoFactor({ body: { password, method: "totp", issuer }, headers: authHeaders(meta) });
  } catch (error) {
    const code = authErrorCode(error);
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
    result = await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(meta), returnHeaders: true });
  } catch (error) {
    if (authErrorCode(error) === "INVALID_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
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
  await checkPassword(deps, actor.id, input.password, "password");
  const state = await getTwoFactorState(deps, actor);
  if (!state.enabled) throw conflict("Two-factor authentication is not on.");
  await checkSecondFactor(deps, actor, input.code, meta);
  const result = await deps.auth.api.disableTwoFactor({
    body: { password: input.password },
    headers: authHeaders(meta),
    returnHeaders: true,
  });
  return result.headers;
}

/**
 * Checks the signed-in user's second factor for a sensitive action (turning two-factor off,
 * closing the account): a current TOTP code (each works once) or an unused backup code (then used
 * up; case, spaces and dashes aside). Throttled per user.
 *
 * @throws {AppError} 400 on `code` when wrong or reused; 429.
 */
export async function checkSecondFactor(deps: AccountDeps, actor: SessionUser, typed: string, meta: RequestMeta): Promise<void> {
  const { db, auth } = deps;
  await limit(db, `2fa-manage:${actor.id}`, MANAGE_LIMIT);
  const code = typed.replace(/\s+/g, "");
  try {
    if (/^\d{6}$/.test(code)) {
      await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(meta) });
      if (!(await markCodeUsed(db, actor.id, code))) throw fieldError("code", ACCOUNT_MESSAGES.codeUsed);
    } else {
      const stored = await storedBackupCode(deps, actor.id, typed);
      await auth.api.verifyBackupCode({ body: { code: stored, disableSession: true }, headers: authHeaders(meta) });
    }
  } catch (error) {
    const apiCode = authErrorCode(error);
    if (apiCode === "INVALID_CODE" || apiCode === "INVALID_BACKUP_CODE") throw fieldError("code", ACCOUNT_MESSAGES.wrongCode);
    throw error;
  }
}
