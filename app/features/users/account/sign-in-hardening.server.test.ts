/**
 * Sign-in hardening (issue #28) on PGlite and PostgreSQL: "Require e-mail verification" holds on
 * every way in (password, two-factor step, passkey); lastLoginAt is set when the session is made;
 * backup codes are read forgivingly; two-factor races and a deactivation in the middle answer
 * 4xx; the per-IP limits count failures only; passkeys need user verification.
 */
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { passkey, settings, user } from "#app/db/schema";
import { setUserActive } from "#app/features/users/users.server";
import { AppError } from "#app/lib/errors";
import { createLogger } from "#app/lib/logger.server";
import { browser, cookiesOf, enableTwoFactor, PASSWORD, sessionCount, signedIn } from "../../../../tests/helpers/auth-session";
import { testDatabases } from "../../../../tests/helpers/db";
import { refusalOf } from "../../../../tests/helpers/portal";
import { FLAGS, SoftAuthenticator } from "../../../../tests/helpers/soft-authenticator";
import { freshMeta, makeClient, useTestServices, verifyByMail, type TestServices } from "../../../../tests/helpers/services";
import { ACCOUNT_MESSAGES } from "../account.schema";
import { AUTH_MESSAGES } from "../accounts.schema";
import { signIn } from "../accounts.server";
import { createAuth } from "../auth.server";
import { PASSKEY_SIGN_IN_LIMIT, passkeySignInOptions, signInWithPasskey } from "./passkey-sign-in.server";
import { passkeyRegistrationOptions, registerPasskey } from "./passkeys.server";
import { TWO_FACTOR_SIGN_IN_LIMIT, verifySignInCode } from "./two-factor-sign-in.server";

const ORIGIN = "http://localhost:3000";

/** The browser of a pending two-factor sign-in (the password was right). */
async function pendingSignIn(s: TestServices, email: string, ip?: string) {
  const result = await signIn(s, { email, password: PASSWORD }, browser("", ip));
  expect(result.twoFactor).toBe(true);
  return browser(cookiesOf(result.headers), ip);
}

/** Adds a passkey held by a software authenticator to a signed-in user's account. */
async function addPasskey(s: TestServices, email: string, flags?: number) {
  const authenticator = new SoftAuthenticator("localhost", ORIGIN);
  const here = await signedIn(s, email);
  here.headers.set("origin", ORIGIN);
  const options = await passkeyRegistrationOptions(s, here);
  const withChallenge = browser(cookiesOf(options.headers, here.headers.get("cookie")!));
  withChallenge.headers.set("origin", ORIGIN);
  await registerPasskey(s, { response: authenticator.register(options.body as { challenge: string }, flags) }, withChallenge);
  return authenticator;
}

/** A whole passkey sign-in from a fresh browser at `ip`. */
async function passkeySignIn(s: TestServices, authenticator: SoftAuthenticator, flags?: number, ip?: string) {
  const start = browser("", ip);
  start.headers.set("origin", ORIGIN);
  const options = await passkeySignInOptions(s, start);
  const next = browser(cookiesOf(options.headers), ip);
  next.headers.set("origin", ORIGIN);
  return signInWithPasskey(s, authenticator.assert(options.body as { challenge: string }, flags), next);
}

const lastLoginOf = async (s: TestServices, id: string) =>
  (await s.db.select({ at: user.lastLoginAt }).from(user).where(eq(user.id, id)))[0]!.at;

describe.each(testDatabases())("sign-in hardening on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const requireVerification = () =>
    ctx.s.db
      .insert(settings)
      .values({ id: 1, requireEmailVerification: true })
      .onConflictDoUpdate({ target: settings.id, set: { requireEmailVerification: true } });

  it("Require e-mail verification holds at the two-factor step: no session for an unverified address", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const { totp } = await enableTwoFactor(s, client.id, client.email);
    await requireVerification();
    const sessions = await sessionCount(s, client.id);
    let refusal: AppError;
    try {
      const pending = await pendingSignIn(s, client.email);
      refusal = await refusalOf(verifySignInCode(s, { code: totp.generate({ timestamp: Date.now() + 30_000 }) }, pending));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 403, message: AUTH_MESSAGES.verifyBeforeSignIn });
    expect(await sessionCount(s, client.id)).toBe(sessions);
  });

  it("Require e-mail verification holds for passkeys: no session for an unverified address", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const authenticator = await addPasskey(s, client.email);
    await requireVerification();
    const sessions = await sessionCount(s, client.id);
    expect(await refusalOf(passkeySignIn(s, authenticator))).toMatchObject({ status: 403, message: AUTH_MESSAGES.verifyBeforeSignIn });
    expect(await sessionCount(s, client.id)).toBe(sessions);
    await verifyByMail(s, client.email);
    expect((await passkeySignIn(s, authenticator)).body).toEqual({ redirectTo: "/client-dashboard" });
  });

  it("lastLoginAt is set when the session is made, not at the password step", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const { totp } = await enableTwoFactor(s, client.id, client.email);
    await s.db.update(user).set({ lastLoginAt: null }).where(eq(user.id, client.id));
    const pending = await pendingSignIn(s, client.email);
    expect(await lastLoginOf(s, client.id)).toBeNull();
    await verifySignInCode(s, { code: totp.generate({ timestamp: Date.now() + 30_000 }) }, pending);
    expect(await lastLoginOf(s, client.id)).toBeInstanceOf(Date);
  });

  it("backup codes: any case, spaces and dashes are ignored", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const { backupCodes } = await enableTwoFactor(s, client.id, client.email);
    const sloppy = (code: string) => ` ${code.toLowerCase().replace("-", " ")} `;
    expect((await verifySignInCode(s, { code: sloppy(backupCodes[0]!) }, await pendingSignIn(s, client.email))).home).toBe(
      "/client-dashboard",
    );
    const noDash = backupCodes[1]!.toUpperCase().replace("-", "");
    expect((await verifySignInCode(s, { code: noDash }, await pendingSignIn(s, client.email))).home).toBe("/client-dashboard");
    // Still once each.
    const again = await refusalOf(verifySignInCode(s, { code: sloppy(backupCodes[0]!) }, await pendingSignIn(s, client.email)));
    expect(again.fieldErrors).toEqual({ code: [ACCOUNT_MESSAGES.wrongCode] });
  });

  it("four pending sign-ins posting the same backup code at once: one gets in, the others get 400", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const { backupCodes } = await enableTwoFactor(s, client.id, client.email);
    const pendings = await Promise.all([1, 2, 3, 4].map(() => pendingSignIn(s, client.email)));
    const results = await Promise.allSettled(pendings.map((pending) => verifySignInCode(s, { code: backupCodes[2]! }, pending)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).status).toBe(400);
    }
  });

  it("deactivated between the password and the code: 403 with the deactivation message, no session", async () => {
    const { s, admin } = ctx;
    const client = await makeClient(s);
    const { totp } = await enableTwoFactor(s, client.id, client.email);
    const pending = await pendingSignIn(s, client.email);
    await setUserActive(s.db, admin, client.id, false);
    const refusal = await refusalOf(verifySignInCode(s, { code: totp.generate({ timestamp: Date.now() + 30_000 }) }, pending));
    expect(refusal).toMatchObject({ status: 403, message: AUTH_MESSAGES.deactivated });
    expect(await sessionCount(s, client.id)).toBe(0);
  });

  it("the per-IP two-factor limit counts failures only; its 429 carries Retry-After", async () => {
    const { s } = ctx;
    const office = "203.0.113.7";
    // More good sign-ins from one address than the limit: four colleagues, eight backup codes each.
    const colleagues = await Promise.all([1, 2, 3, 4].map(() => makeClient(s)));
    const codes = await Promise.all(colleagues.map((c) => enableTwoFactor(s, c.id, c.email)));
    let good = 0;
    for (let i = 0; i < 8; i++) {
      for (const [n, colleague] of colleagues.entries()) {
        await verifySignInCode(s, { code: codes[n]!.backupCodes[i]! }, await pendingSignIn(s, colleague.email, office));
        good += 1;
      }
    }
    expect(good).toBeGreaterThan(TWO_FACTOR_SIGN_IN_LIMIT.limit);
    // Wrong codes do count: at the limit, the next attempt waits.
    const attacker = "203.0.113.66";
    for (let i = 0; i < TWO_FACTOR_SIGN_IN_LIMIT.limit; i++) {
      const pending = await pendingSignIn(s, colleagues[i % 4]!.email, attacker);
      expect((await refusalOf(verifySignInCode(s, { code: "zzzzz-zzzzz" }, pending))).status).toBeGreaterThanOrEqual(400);
    }
    const refused = await refusalOf(verifySignInCode(s, { code: "zzzzz-zzzzz" }, await pendingSignIn(s, colleagues[0]!.email, attacker)));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  }, 300_000); // about 70 password checks (scrypt): a budget for a busy machine, not a speed check

  it("the per-IP passkey limit counts failures only; its 429 carries Retry-After", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { verified: true });
    const authenticator = await addPasskey(s, client.email);
    const office = "203.0.113.8";
    for (let i = 0; i <= PASSKEY_SIGN_IN_LIMIT.limit; i++) await passkeySignIn(s, authenticator, undefined, office);
    const attacker = "203.0.113.67";
    const stranger = new SoftAuthenticator("localhost", ORIGIN);
    for (let i = 0; i < PASSKEY_SIGN_IN_LIMIT.limit; i++) await refusalOf(passkeySignIn(s, stranger, undefined, attacker));
    const refused = await refusalOf(passkeySignIn(s, stranger, undefined, attacker));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("passkeys need user verification: registration and sign-in without it are refused", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { verified: true });
    await expect(addPasskey(s, client.email, FLAGS.userPresent)).rejects.toBeInstanceOf(AppError);
    expect(await s.db.select().from(passkey).where(eq(passkey.userId, client.id))).toHaveLength(0);

    const authenticator = await addPasskey(s, client.email);
    const sessions = await sessionCount(s, client.id);
    const presentOnly = await refusalOf(passkeySignIn(s, authenticator, FLAGS.userPresent));
    expect(presentOnly.status).toBe(400);
    expect(presentOnly.message).toBe(ACCOUNT_MESSAGES.passkeyNeedsVerification);
    expect(await sessionCount(s, client.id)).toBe(sessions);
    expect((await passkeySignIn(s, authenticator)).body).toEqual({ redirectTo: "/client-dashboard" });

    // A passkey added before user verification was required must be added again.
    await s.db.update(passkey).set({ userVerified: false }).where(eq(passkey.userId, client.id));
    const old = await refusalOf(passkeySignIn(s, authenticator));
    expect(old).toMatchObject({ status: 400, message: ACCOUNT_MESSAGES.passkeyAddAgain });
    expect(await sessionCount(s, client.id)).toBe(sessions + 1);
  });

  it("the sign-in options ask the browser for user verification", async () => {
    const { s } = ctx;
    const meta = freshMeta();
    meta.headers.set("origin", ORIGIN);
    const options = (await passkeySignInOptions(s, meta)).body as { userVerification?: string };
    expect(options.userVerification).toBe("required");
    const client = await makeClient(s);
    const here = await signedIn(s, client.email);
    const registration = (await passkeyRegistrationOptions(s, here)).body as { authenticatorSelection?: { userVerification?: string } };
    expect(registration.authenticatorSelection?.userVerification).toBe("required");
  });

  it("better-auth's own messages go to the JSON log, nothing to stderr", async () => {
    const { s } = ctx;
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const auth = createAuth({
      db: s.db,
      env: { origin: ORIGIN, PASSWORD_MIN_LENGTH: 6, NODE_ENV: "test" },
      secret: "test-secret-test-secret-test-secret-0123",
      log: createLogger({ level: "debug", destination }),
    });
    const client = await makeClient(s);
    const stderr = vi.spyOn(process.stderr, "write");
    const consoles = (["log", "info", "warn", "error", "debug"] as const).map((name) => vi.spyOn(console, name));
    try {
      await refusalOf(signIn({ db: s.db, auth }, { email: client.email, password: "wrong-pass" }, freshMeta()));
      expect(stderr).not.toHaveBeenCalled();
      for (const spy of consoles) expect(spy).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      for (const spy of consoles) spy.mockRestore();
    }
    expect(lines).toContainEqual(expect.objectContaining({ source: "better-auth", level: "warn", msg: "Invalid password" }));
  });
});
