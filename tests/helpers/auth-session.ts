/**
 * A browser's side of better-auth for integration tests: its cookie jar, its request meta, signing
 * in, and turning two-factor on through the real use-cases.
 */
import { eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { session, user } from "#app/db/schema";
import { signIn } from "#app/features/users/accounts.server";
import type { SessionUser } from "#app/features/users/actor";
import { confirmTwoFactor, getTwoFactorState, startTwoFactor } from "#app/features/users/account/two-factor.server";
import { freshMeta, type TestServices } from "./services";

/** The password every test user gets from `makeClient` / `makeAmbassador`. */
export const PASSWORD = "secret-pass";

/** The Cookie header a browser would send after these Set-Cookie headers. */
export function cookiesOf(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0]!, pair] as const),
  );
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** A browser's request meta (cookies, user agent, IP — a fresh one unless given). */
export function browser(cookie: string, ip?: string) {
  const meta = freshMeta();
  if (ip) meta.ip = ip;
  if (cookie) meta.headers.set("cookie", cookie);
  meta.headers.set("user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36");
  return meta;
}

/** Signs in with the password; @returns the browser holding the session (or the pending two-factor sign-in). */
export async function signedIn(s: TestServices, email: string, password = PASSWORD, ip?: string) {
  const result = await signIn(s, { email, password }, browser("", ip));
  return browser(cookiesOf(result.headers), ip);
}

/** The user as the session middleware would put them in context. */
export async function sessionUser(s: TestServices, id: string): Promise<SessionUser> {
  const [row] = await s.db.select().from(user).where(eq(user.id, id));
  return {
    id,
    role: row!.role ?? "client",
    email: row!.email,
    name: row!.name,
    businessName: row!.businessName,
    phone: row!.phone,
    website: row!.website,
    referralCode: row!.referralCode,
    referredById: row!.referredById,
    emailVerified: row!.emailVerified,
  };
}

/** @returns whether this browser's session cookie names a live session. */
export async function isSignedIn(s: TestServices, meta: { headers: Headers }): Promise<boolean> {
  return (await s.auth.api.getSession({ headers: meta.headers })) !== null;
}

/** @returns how many sessions the user has. */
export async function sessionCount(s: TestServices, userId: string): Promise<number> {
  return (await s.db.select({ id: session.id }).from(session).where(eq(session.userId, userId))).length;
}

/**
 * Turns two-factor on for a user (password, then a first code), as on the account page.
 *
 * @returns the TOTP generator of the secret and the 10 backup codes.
 */
export async function enableTwoFactor(s: TestServices, userId: string, email: string) {
  const actor = await sessionUser(s, userId);
  const here = await signedIn(s, email);
  await startTwoFactor(s, actor, PASSWORD, here);
  const pending = (await getTwoFactorState(s, actor)).pending!;
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(pending.secret), digits: 6, period: 30 });
  await confirmTwoFactor(s, actor, totp.generate(), here);
  return { totp, backupCodes: pending.backupCodes };
}
