/**
 * better-auth configuration: e-mail + password, scrypt hashing, sessions in
 * PostgreSQL, reset tokens, and the admin plugin for roles and deactivation (ban).
 *
 * Its HTTP handler is not mounted: every form posts to a React Router action, which
 * validates with our zod schemas, applies our rules (referral codes, allowNewClients,
 * rate limits keyed by the real client IP) and then calls `auth.api.*` on the server.
 * So no field (role, referral code, referrer) can be set by calling an endpoint directly.
 */
import { rememberTimeZone } from "#app/features/mail/mail-dates.server";
import { timeZoneFromCookie } from "#app/lib/dates";
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, twoFactor } from "better-auth/plugins";
import { passkey } from "@better-auth/passkey";
import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#app/db/client.server";
import * as schema from "#app/db/schema";
import { queueNotification } from "#app/features/mail/notifications.server";
import { DEFAULT_COMPANY_NAME, getSettings } from "#app/features/settings/settings.server";
import type { Env } from "#app/lib/env.server";
import { logger as appLogger } from "#app/lib/logger.server";
import { AUTH_MESSAGES } from "./accounts.schema";
import { claimAddressedProposals } from "./claim-proposals.server";
import { EMAIL_NOT_VERIFIED, PASSKEY_ADD_AGAIN, PASSKEY_USER_NOT_VERIFIED } from "./auth-glue.server";
import { passwordHashing } from "./password-hashing.server";

/** Session lifetime: 7 days, refreshed when used after a day. */
const SESSION_EXPIRES_IN_S = 7 * 24 * 3600;
/** Password reset link lifetime: 1 hour. */
export const RESET_TOKEN_EXPIRES_IN_S = 3600;
/** E-mail verification link lifetime: 3 days (docs/product.md#email-verification). */
export const VERIFY_TOKEN_EXPIRES_IN_S = 3 * 24 * 3600;

/** The path of our verification page; the token is better-auth's signed one. */
export function verificationPath(token: string): string {
  return `/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Creates the auth instance for one database.
 *
 * @param options.db - the app database (better-auth tables live in `app/db/schema.ts`).
 * @param options.env - configuration: origin, password policy.
 * @param options.secret - session signing secret (see {@link resolveAuthSecret}).
 * @param options.appName - the company name from Settings at start (better-auth's default name;
 *   what people see — mails, the authenticator app's issuer, the passkey's relying party — reads
 *   Settings when it is made).
 * @param options.log - where better-auth's own messages go (default: the app's pino logger).
 */
export function createAuth({
  db,
  env,
  secret,
  appName = DEFAULT_COMPANY_NAME,
  log = appLogger,
}: {
  db: Database;
  env: Pick<Env, "origin" | "PASSWORD_MIN_LENGTH" | "NODE_ENV">;
  secret: string;
  appName?: string;
  log?: Logger;
}) {
  const authLog = log.child({ source: "better-auth" });
  return betterAuth({
    appName,
    // better-auth's warnings ("Invalid password" …) go to the JSON log like everything else.
    logger: {
      level: "debug",
      log(level, message, ...args) {
        const err = args.find((arg) => arg instanceof Error);
        const details = args.filter((arg) => arg !== err);
        authLog[level]({ ...(err ? { err } : {}), ...(details.length ? { details } : {}) }, message);
      },
    },
    baseURL: env.origin,
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        // docs/product.md#account-page: two-factor and passkeys.
        twoFactor: schema.twoFactor,
        passkey: schema.passkey,
      },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: env.PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: RESET_TOKEN_EXPIRES_IN_S,
      revokeSessionsOnPasswordReset: true,
      // better-auth's own scrypt, read through `passwordHashing` at each call (the test run wraps it).
      password: {
        hash: (password) => passwordHashing.hash(password),
        verify: (data) => passwordHashing.verify(data),
      },
      // The mail goes through the outbox like every other mail; the link points to our page.
      async sendResetPassword({ user, token }) {
        await queueNotification(db, {
          to: user.email,
          subject: "Reset your password",
          lines: [
            "Someone asked to reset the password of your account. The link below works once, for one hour.",
            "If it was not you, ignore this e-mail: your password stays as it is.",
          ],
          link: { label: "Choose a new password", path: `/reset-password?token=${encodeURIComponent(token)}` },
        });
      },
    },
    // docs/product.md#email-verification: a link is mailed at registration (through the outbox,
    // like every mail) and on request; it points to our /verify-email page, which calls
    // `auth.api.verifyEmail`. Whether an unverified user may sign in is our setting, checked
    // in `signIn`, so better-auth's static `requireEmailVerification` stays off.
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_TOKEN_EXPIRES_IN_S,
      // Proposals addressed to the address become the client's only now.
      async afterEmailVerification(user) {
        await claimAddressedProposals(db, user.id, user.email);
      },
      async sendVerificationEmail({ user, token }) {
        await queueNotification(db, {
          to: user.email,
          subject: "Verify your e-mail address",
          lines: [
            "Please confirm that this e-mail address is yours by opening the link below (it works for 3 days).",
            "If you did not create an account, ignore this e-mail.",
          ],
          link: { label: "Verify my e-mail address", path: verificationPath(token) },
        });
      },
    },
    user: {
      additionalFields: {
        businessName: { type: "string", required: false },
        phone: { type: "string", required: false },
        website: { type: "string", required: false },
        referralCode: { type: "string", required: false },
        referredById: { type: "string", required: false },
        lastLoginAt: { type: "date", required: false, input: false },
      },
    },
    session: { expiresIn: SESSION_EXPIRES_IN_S, updateAge: 24 * 3600 },
    // Our actions apply rate limits keyed by the client IP (app/lib/rate-limit.server.ts).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: env.origin.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: ["x-portal-client-ip"] },
      // One statement for a session and its user (schema.ts `sessionRelations`).
      database: { joins: true },
    },
    databaseHooks: {
      user: {
        create: {
          // Role is never an input: an account with a referral link ID is an ambassador,
          // any other sign-up a client. Only server-side admin creation passes role "admin".
          async before(data) {
            const { role, referralCode } = data as { role?: string; referralCode?: string };
            return { data: { ...data, role: role === "admin" ? "admin" : referralCode ? "ambassador" : "client" } };
          },
        },
      },
      // The one place a session is made (password, two-factor step, passkey, sign-up, renewals).
      session: {
        create: {
          // docs/product.md#email-verification: "Require e-mail verification to sign in" holds on
          // every way in. A sign-up's session is dropped by the registration use-case itself (a
          // refusal here would roll the new account back), a renewal replaces a session held already.
          async before(data, context) {
            if (context?.path === "/sign-up/email" || context?.context.session) return;
            const [row] = await db
              .select({ emailVerified: schema.user.emailVerified })
              .from(schema.user)
              .where(eq(schema.user.id, data.userId));
            if (row && !row.emailVerified && (await getSettings(db)).requireEmailVerification) {
              throw new APIError("FORBIDDEN", { code: EMAIL_NOT_VERIFIED, message: AUTH_MESSAGES.verifyBeforeSignIn });
            }
          },
          // "Last login": a session the person gets, not the password step of a two-factor
          // sign-in (the two-factor plugin drops that one at once) nor a renewal.
          async after(created, context) {
            if (context?.context.session) return;
            if (context?.path === "/sign-in/email") {
              const [owner] = await db
                .select({ twoFactorEnabled: schema.user.twoFactorEnabled })
                .from(schema.user)
                .where(eq(schema.user.id, created.userId));
              if (owner?.twoFactorEnabled) return;
            }
            await db
              .update(schema.user)
              .set({ lastLoginAt: sql`now()` })
              .where(eq(schema.user.id, created.userId));
            // The zone the browser stated (the `tz` cookie): the person's mails show times in it (issue #41).
            const cookie = context?.headers?.get("cookie") ?? context?.request?.headers.get("cookie");
            await rememberTimeZone(db, created.userId, timeZoneFromCookie(cookie));
          },
        },
      },
    },
    plugins: [
      admin({ defaultRole: "client", adminRoles: ["admin"], bannedUserMessage: AUTH_MESSAGES.deactivated }),
      ...accountSecurityPlugins(db, env, appName),
    ],
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Wrong second-factor codes in a row before the account waits (docs/product.md#account-page). */
export const TWO_FACTOR_MAX_FAILURES = 5;
/** How long the account waits after {@link TWO_FACTOR_MAX_FAILURES} wrong codes: 15 minutes. */
export const TWO_FACTOR_LOCK_S = 15 * 60;

/**
 * Two-factor (TOTP + 10 backup codes) and passkeys (docs/product.md#account-page). The
 * passkey relying party is the site's host name; the expected origin is the configured one.
 * A passkey must verify its user (fingerprint, face, PIN): with it, it counts as two factors.
 */
function accountSecurityPlugins(db: Database, env: Pick<Env, "origin">, appName: string) {
  return [
    twoFactor({
      issuer: appName,
      backupCodeOptions: { amount: 10, length: 10 },
      accountLockout: { enabled: true, maxFailedAttempts: TWO_FACTOR_MAX_FAILURES, durationSeconds: TWO_FACTOR_LOCK_S },
    }),
    passkey({
      rpID: new URL(env.origin).hostname,
      rpName: appName,
      origin: env.origin,
      authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
      registration: {
        async afterVerification({ verification }) {
          if (!verification.registrationInfo?.userVerified) {
            throw new APIError("BAD_REQUEST", { code: PASSKEY_USER_NOT_VERIFIED, message: "User verification is required." });
          }
        },
      },
      authentication: {
        async afterVerification({ verification, clientData }) {
          if (!verification.authenticationInfo.userVerified) {
            throw new APIError("BAD_REQUEST", { code: PASSKEY_USER_NOT_VERIFIED, message: "User verification is required." });
          }
          const [row] = await db
            .select({ userVerified: schema.passkey.userVerified })
            .from(schema.passkey)
            .where(eq(schema.passkey.credentialID, clientData.id));
          if (row && !row.userVerified) {
            throw new APIError("BAD_REQUEST", { code: PASSKEY_ADD_AGAIN, message: "This passkey must be added again." });
          }
        },
      },
    }),
  ] as const;
}

/**
 * The secret that signs sessions: `BETTER_AUTH_SECRET` when set, otherwise one generated
 * once and kept in the database (`app_meta`), so every instance on a database agrees.
 */
export async function resolveAuthSecret(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(schema.appMeta)
    .values({ key: "auth_secret", value: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  const [row] = await db.select().from(schema.appMeta).where(eq(schema.appMeta.key, "auth_secret"));
  return row!.value;
}
