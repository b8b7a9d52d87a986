/**
 * better-auth configuration: e-mail + password, scrypt hashing, sessions in
 * PostgreSQL, reset tokens, and the admin plugin for roles and deactivation (ban).
 *
 * Its HTTP handler is not mounted: every form posts to a React Router action, which
 * validates with our zod schemas, applies our rules (referral codes, allowNewClients,
 * rate limits keyed by the real client IP) and then calls `auth.api.*` on the server.
 * So no field (role, referral code, referrer) can be set by calling an endpoint directly.
 */
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, twoFactor } from "better-auth/plugins";
import { passkey } from "@better-auth/passkey";
import { eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import * as schema from "#app/db/schema";
import { enqueueMail, escapeHtml } from "#app/features/mail/mail.server";
import { queueNotification } from "#app/features/mail/notifications.server";
import type { Env } from "#app/lib/env.server";
import { claimAddressedProposals } from "./accounts.server";

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
 */
export function createAuth({
  db,
  env,
  secret,
}: {
  db: Database;
  env: Pick<Env, "origin" | "PASSWORD_MIN_LENGTH" | "NODE_ENV">;
  secret: string;
}) {
  return betterAuth({
    appName: "Client Portal",
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
      // The mail goes through the outbox like every other mail; the link points to our page.
      async sendResetPassword({ user, token }) {
        const url = `${env.origin}/reset-password?token=${encodeURIComponent(token)}`;
        await enqueueMail(db, {
          to: user.email,
          subject: "Reset your password",
          text: `Someone asked to reset the password of your account.\n\nChoose a new password here (the link works once, for one hour):\n${url}\n\nIf it was not you, ignore this e-mail: your password stays as it is.`,
          html: `<p>Someone asked to reset the password of your account.</p><p><a href="${escapeHtml(url)}">Choose a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this e-mail: your password stays as it is.</p>`,
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
      session: {
        create: {
          async after(created) {
            await db
              .update(schema.user)
              .set({ lastLoginAt: sql`now()` })
              .where(eq(schema.user.id, created.userId));
          },
        },
      },
    },
    plugins: [
      admin({ defaultRole: "client", adminRoles: ["admin"], bannedUserMessage: "This account has been deactivated." }),
      ...accountSecurityPlugins(env),
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
 */
function accountSecurityPlugins(env: Pick<Env, "origin">) {
  return [
    twoFactor({
      issuer: "Client Portal",
      backupCodeOptions: { amount: 10, length: 10 },
      accountLockout: { enabled: true, maxFailedAttempts: TWO_FACTOR_MAX_FAILURES, durationSeconds: TWO_FACTOR_LOCK_S },
    }),
    passkey({ rpID: new URL(env.origin).hostname, rpName: "Client Portal", origin: env.origin }),
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
