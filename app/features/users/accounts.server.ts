/**
 * Account use-cases (docs/product.md#accounts): client and
 * ambassador registration, sign-in, password reset, sign-out, the first admin.
 *
 * Each function validates nothing itself (the zod schemas in `accounts.schema.ts` do, in the
 * action) but applies every rule that needs the database, and maps better-auth's errors to
 * human sentences. Refusals are returned as {@link AppError}s; nothing is written on refusal.
 */
import { randomBytes } from "node:crypto";
import { APIError } from "better-auth/api";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { session, user } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import type { Auth } from "#app/features/users/auth.server";
import type { RequestMeta } from "#app/lib/request.server";
import { AppError, fieldError } from "#app/lib/errors";
import { AUTH_MESSAGES, REFERRAL_MESSAGES } from "./accounts.messages";
import { homeFor, roleOf } from "./actor";
import { authErrorCode, authHeaders, sessionRefusal } from "./auth-glue.server";
import { assertPasswordAllowed } from "./password-policy.server";
import { acceptInvitation, createOrganisation, readInvitation } from "#app/features/organisations/organisations.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { beginSignIn, limitPasswordReset, limitSignUp } from "./throttle.server";

export interface AccountDeps {
  db: Database;
  auth: Auth;
}

/** Human sentences for better-auth's error codes (docs/product.md#form-messages: never raw codes). */
const AUTH_ERROR_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Wrong email or password.",
  INVALID_PASSWORD: "Wrong email or password.",
  USER_NOT_FOUND: "Wrong email or password.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Wrong email or password.",
  USER_ALREADY_EXISTS: "An account with this email already exists. Sign in or reset your password.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "An account with this email already exists. Sign in or reset your password.",
  PASSWORD_TOO_SHORT: "The password is too short.",
  PASSWORD_TOO_LONG: "The password is too long.",
  INVALID_EMAIL: "Enter a valid email address.",
  INVALID_TOKEN: "This reset link is invalid, expired or already used. Ask for a new one.",
  TOKEN_EXPIRED: "This reset link is invalid, expired or already used. Ask for a new one.",
};

/** Maps a better-auth error to an {@link AppError} (unknown errors are rethrown). */
function toAppError(error: unknown, field?: string): never {
  const refusal = sessionRefusal(error);
  if (refusal) throw refusal;
  const code = authErrorCode(error);
  if (code !== null && error instanceof APIError) {
    const message = AUTH_ERROR_MESSAGES[code];
    if (message) {
      const errorCode = code.startsWith("USER_ALREADY_EXISTS") ? "CONFLICT" : "INVALID_INPUT";
      throw field ? fieldError(field, message, errorCode) : new AppError(errorCode, message);
    }
    if (error.statusCode === 429) throw new AppError("RATE_LIMITED", AUTH_MESSAGES.tooManyAttempts);
  }
  throw error;
}

/** A successful sign-in or sign-up: cookies to set, and where to go. */
export interface SignedIn {
  headers: Headers;
  userId: string;
  home: string;
  /** Two-factor is on: the password was right, and the second step (`/login/two-factor`) must follow. */
  twoFactor?: boolean;
}

/** @returns the ambassador's id for a referral code (case-insensitive), or null. */
export async function findAmbassadorByReferralCode(db: Database, code: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(and(eq(user.referralCode, code.trim().toLowerCase()), eq(user.role, "ambassador")))
    .limit(1);
  return row ?? null;
}

/**
 * Client registration (docs/product.md#registration): refused when allowNewClients is off; the phone
 * is optional unless Settings require it (400 "Phone is required." on `phone`); an optional referral
 * code must match an ambassador (case-insensitive) and links the client to them. The business
 * name becomes an organisation with the new client as its owner (docs/product.md#organisations),
 * referred by that ambassador. Ambassador proposals already addressed to this e-mail become the
 * new client's (once verified).
 *
 * @param input - validated `clientRegistrationSchema` output (e-mail lowercased).
 * @throws {AppError} 403 registrations closed; 400 whitespace-only or common password on `password`
 *   (docs/product.md#passwords); 400 "Invalid referral code" on `referralCode`;
 *   409 e-mail in use on `email`; 429 too many sign-ups from this IP.
 */
export async function registerClient(
  { db, auth }: AccountDeps,
  input: { businessName: string; email: string; phone?: string; password: string; website?: string; referralCode?: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const settings = await getSettings(db);
  if (!settings.allowNewClients) throw new AppError("FORBIDDEN", AUTH_MESSAGES.registrationClosed);
  if (settings.requireClientPhone && !input.phone?.trim()) throw fieldError("phone", AUTH_MESSAGES.phoneRequired);
  assertPasswordAllowed(input.password);
  let referredById: string | undefined;
  if (input.referralCode) {
    const ambassador = await findAmbassadorByReferralCode(db, input.referralCode);
    if (!ambassador) throw fieldError("referralCode", REFERRAL_MESSAGES.invalid);
    referredById = ambassador.id;
  }
  await limitSignUp(db, meta.ip);
  let result;
  try {
    result = await auth.api.signUpEmail({
      body: {
        name: input.businessName,
        email: input.email,
        password: input.password,
        businessName: input.businessName,
        phone: input.phone || null,
        website: input.website,
        referredById,
      },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    toAppError(error, "email");
  }
  // The business is an organisation and the new person its owner (docs/product.md#organisations);
  // the ambassador's attribution is the organisation's.
  await createOrganisation(db, {
    name: input.businessName,
    website: input.website,
    referredById: referredById ?? null,
    ownerId: result.response.user.id,
  });
  return signedUp(db, result, "client");
}

/**
 * Creates the account of an invited person from the invitation page (docs/product.md#invitations):
 * the invitation's address, proven by the mail's link, so the account is verified at once; it joins
 * the organisation with the invited role (no organisation of its own) and is signed in.
 *
 * @param token - the invitation token from the link.
 * @throws {AppError} 404 invalid, expired, revoked or used invitation; 409 an account with that
 *   address exists (sign in instead); 400 whitespace-only or common password on `password`;
 *   429 too many sign-ups from this IP.
 */
export async function registerInvited(
  { db, auth }: AccountDeps,
  token: string,
  input: { name: string; password: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const invited = await readInvitation(db, token);
  if (invited.accountExists) throw new AppError("CONFLICT", ORGANISATION_MESSAGES.invitationSignIn);
  assertPasswordAllowed(input.password);
  await limitSignUp(db, meta.ip);
  let result;
  try {
    result = await auth.api.signUpEmail({
      body: { name: input.name, email: invited.email, password: input.password },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    toAppError(error, "password");
  }
  const userId = result.response.user.id;
  await db.update(user).set({ emailVerified: true }).where(eq(user.id, userId));
  const [created] = await db
    .select({ id: session.id })
    .from(session)
    .where(eq(session.token, result.response.token ?? ""));
  await acceptInvitation(db, userId, token, created?.id);
  return { headers: result.headers, userId, home: homeFor("client") };
}

/**
 * After a sign-up (better-auth signed the new user in and queued the verification mail):
 * when "Require e-mail verification to sign in" is on, that session is deleted at once and
 * no cookie is set; the person is sent to /login?verify=sent (docs/product.md#email-verification).
 */
async function signedUp(
  db: Database,
  result: { headers: Headers; response: { token: string | null; user: { id: string } } },
  role: "client" | "ambassador",
): Promise<SignedIn> {
  const userId = result.response.user.id;
  if (!(await getSettings(db)).requireEmailVerification) return { headers: result.headers, userId, home: homeFor(role) };
  if (result.response.token) await db.delete(session).where(eq(session.token, result.response.token));
  return { headers: new Headers(), userId, home: "/login?verify=sent" };
}

/**
 * Ambassador sign-up (docs/product.md#ambassador-signup): the referral link ID is stored lowercased and must be unique;
 * a unique index decides between two simultaneous sign-ups with the same ID.
 *
 * @throws {AppError} 400 whitespace-only or common password on `password` (docs/product.md#passwords);
 *   409 "That referral link ID is already taken. Please choose another." on
 *   `referralCode`; 409 e-mail in use on `email`; 429 too many sign-ups.
 */
export async function registerAmbassador(
  { db, auth }: AccountDeps,
  input: { name: string; email: string; phone: string; password: string; referralCode: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  assertPasswordAllowed(input.password);
  const code = input.referralCode.toLowerCase();
  const taken = async () => (await db.select({ id: user.id }).from(user).where(eq(user.referralCode, code)).limit(1)).length > 0;
  if (await taken()) throw fieldError("referralCode", REFERRAL_MESSAGES.taken, "CONFLICT");
  await limitSignUp(db, meta.ip);
  let result;
  try {
    result = await auth.api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password, phone: input.phone, referralCode: code },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    // Lost a race on the unique index: the other sign-up took the ID first.
    if (!authErrorCode(error)?.startsWith("USER_ALREADY_EXISTS") && (await taken())) {
      throw fieldError("referralCode", REFERRAL_MESSAGES.taken, "CONFLICT");
    }
    toAppError(error, "email");
  }
  return signedUp(db, result, "ambassador");
}

/**
 * Sign-in (docs/product.md#login): throttled on failures per IP and per account and IP, with a
 * slow-down per account that an address with no recent failure is not subject to
 * (docs/product.md#throttling); a deactivated account is refused with a clear message; the
 * session is new (rotated) at each sign-in.
 * An unverified address is refused only while the setting "Require e-mail verification to sign in" is on
 * (docs/product.md#email-verification).
 *
 * @returns cookies and the role's home page.
 * @throws {AppError} 400 wrong credentials, 403 deactivated or (setting on) not verified, 429 too many attempts (with Retry-After).
 */
export async function signIn({ db, auth }: AccountDeps, input: { email: string; password: string }, meta: RequestMeta): Promise<SignedIn> {
  const email = input.email.trim().toLowerCase();
  const attempt = await beginSignIn(db, email, meta.ip);
  let result;
  try {
    result = await auth.api.signInEmail({
      body: { email, password: input.password },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    if (WRONG_CREDENTIALS.has(authErrorCode(error) ?? "")) await attempt.failed();
    else await attempt.abandoned();
    toAppError(error);
  }
  await attempt.succeeded();
  // docs/product.md#account-page: with two-factor on, better-auth answers a pending sign-in (a signed cookie) instead.
  if ("twoFactorRedirect" in result.response) return { headers: result.headers, userId: "", home: "/login/two-factor", twoFactor: true };
  const [row] = await db.select({ role: user.role }).from(user).where(eq(user.id, result.response.user.id));
  return { headers: result.headers, userId: result.response.user.id, home: homeFor(roleOf(row?.role)) };
}

/** better-auth's codes for a wrong e-mail or password (what the sign-in throttle counts). */
const WRONG_CREDENTIALS = new Set(["INVALID_EMAIL_OR_PASSWORD", "INVALID_PASSWORD", "USER_NOT_FOUND", "CREDENTIAL_ACCOUNT_NOT_FOUND"]);

/**
 * Forgot password (docs/product.md#password-reset): queues a reset e-mail when the account exists; the caller
 * always shows "A password reset email has been sent." (no account enumeration).
 *
 * Throttled per IP and per address (docs/product.md#throttling): beyond the address's limit
 * the answer is the same but no mail is sent.
 *
 * @throws {AppError} 429 too many requests from this IP (with Retry-After).
 */
export async function requestPasswordReset({ db, auth }: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  if (!(await limitPasswordReset(db, email.trim().toLowerCase(), meta.ip))) return;
  await auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" }, headers: authHeaders(meta) });
}

/**
 * Sets a new password from a reset token (single use, 1 hour). Every session of the user ends.
 *
 * @throws {AppError} 400 whitespace-only or common password on `password` (docs/product.md#passwords);
 *   400 invalid, expired or used token.
 */
export async function resetPassword({ auth }: AccountDeps, input: { token: string; password: string }): Promise<void> {
  assertPasswordAllowed(input.password);
  try {
    await auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } });
  } catch (error) {
    toAppError(error);
  }
}

/** Signs out on the server. @returns headers that clear the session cookie. */
export async function signOut({ auth }: AccountDeps, meta: RequestMeta): Promise<Headers> {
  try {
    const result = await auth.api.signOut({ headers: authHeaders(meta), returnHeaders: true });
    return result.headers;
  } catch {
    // No session (already signed out): clear the cookie anyway.
    const headers = new Headers();
    headers.append("Set-Cookie", "better-auth.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    return headers;
  }
}

/**
 * Creates an admin account, or promotes an existing account to admin with a new password; its
 * address counts as verified.
 * Used by `npm run admin:create` and the first start. Never reachable from a form.
 *
 * @returns the admin's user id and whether the account was created.
 * @throws {AppError} 400 whitespace-only or common password (docs/product.md#passwords).
 */
export async function createAdmin(
  { db, auth }: AccountDeps,
  input: { email: string; password: string; name?: string },
): Promise<{ id: string; created: boolean }> {
  assertPasswordAllowed(input.password);
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing) {
    const ctx = await auth.$context;
    const hash = await ctx.password.hash(input.password);
    await ctx.internalAdapter.updatePassword(existing.id, hash);
    await db
      .update(user)
      .set({ role: "admin", banned: false, emailVerified: true, updatedAt: sql`now()` })
      .where(eq(user.id, existing.id));
    return { id: existing.id, created: false };
  }
  const result = await auth.api.createUser({
    body: { email, password: input.password, name: input.name ?? "Administrator", role: "admin" },
  });
  // The operator made this account: its address counts as verified (docs/product.md#email-verification).
  await db.update(user).set({ emailVerified: true }).where(eq(user.id, result.user.id));
  return { id: result.user.id, created: true };
}

/**
 * On the first start of a database with no admin: creates one from ADMIN_EMAIL /
 * ADMIN_PASSWORD, or with a generated password that is returned to be printed once.
 *
 * @returns what was done, or null when an admin already exists.
 * @throws {Error} "Invalid configuration: ADMIN_PASSWORD: …" when ADMIN_PASSWORD is only
 *   whitespace or a common password (docs/product.md#passwords).
 */
export async function ensureFirstAdmin(
  deps: AccountDeps,
  config: { email?: string; password?: string },
): Promise<{ email: string; generatedPassword?: string } | null> {
  const [admin] = await deps.db.select({ id: user.id }).from(user).where(eq(user.role, "admin")).limit(1);
  if (admin) return null;
  if (config.password) {
    try {
      assertPasswordAllowed(config.password);
    } catch (error) {
      if (error instanceof AppError) throw new Error(`Invalid configuration: ADMIN_PASSWORD: ${error.message}`, { cause: error });
      throw error;
    }
  }
  const email = config.email ?? "admin@portal.local";
  const generatedPassword = config.password ? undefined : randomBytes(12).toString("base64url");
  await createAdmin(deps, { email, password: config.password ?? generatedPassword! });
  return { email, generatedPassword };
}
