/**
 * Sign-in, sign-up and password reset throttling (docs/product.md#throttling) on PGlite and
 * PostgreSQL, through the real use-cases (better-auth, scrypt, the `rate_window` table).
 */
import { and, count, eq, like, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { account, mailOutbox, rateWindow, user } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { registerClient, requestPasswordReset, signIn } from "./accounts.server";
import { PASSWORD_RESET_LIMITS, SIGN_IN_THROTTLE, SIGN_UP_LIMIT, slowDownDelayMs } from "./throttle.server";

const meta = (ip: string) => ({ headers: new Headers(), ip });

/** Generous: scrypt on a busy test machine takes a good part of a second per password. */
const SLOW = 240_000;
vi.setConfig({ testTimeout: SLOW, hookTimeout: SLOW });

async function outcome(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

/** The log events written so far (the fields of each `logger.warn` call) that are throttle events. */
function throttleEvents(spy: MockInstance): Record<string, unknown>[] {
  return spy.mock.calls
    .map(([fields]) => (typeof fields === "object" && fields !== null ? (fields as Record<string, unknown>) : null))
    .filter((event): event is Record<string, unknown> => event?.event === "throttle");
}

describe("the slow-down delay", () => {
  it("starts at the threshold with 1 s, doubles, and stops growing at the cap", () => {
    const { slowDownAfter, maxDelayMs } = SIGN_IN_THROTTLE;
    expect(slowDownDelayMs(slowDownAfter - 1)).toBe(0);
    expect(slowDownDelayMs(slowDownAfter)).toBe(1_000);
    expect(slowDownDelayMs(slowDownAfter + 1)).toBe(2_000);
    expect(slowDownDelayMs(slowDownAfter + 3)).toBe(8_000);
    expect(slowDownDelayMs(slowDownAfter + 50)).toBe(maxDelayMs);
    expect(slowDownDelayMs(1_000_000)).toBe(maxDelayMs);
  });
});

describe.each(testDatabases())("throttling on %s", (_name, open) => {
  const ctx = useTestServices(open);
  let stderr: MockInstance; // logger.warn, where throttle events go
  beforeEach(() => {
    stderr = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => {
    stderr.mockRestore();
  });

  /** Moves every counter's last hit back, as if the slow-down's delay had passed (windows stay). */
  const letDelayPass = () => ctx.t.db.update(rateWindow).set({ lastHitAt: sql`now() - interval '2 minutes'` });

  it("admits 25 different users signing in from one office address, typos included", async () => {
    const { t, s } = ctx;
    const office = "203.0.113.10";
    // 25 clients with the password "secret-pass": one registered, the others copied in the
    // database with the same password hash (24 scrypt hashes less; sign-ins all verify it).
    const first = await makeClient(s, { email: "office0@example.com" });
    const [credential] = await t.db.select({ password: account.password }).from(account).where(eq(account.userId, first.id));
    const clients = [first];
    for (let i = 1; i < 25; i++) {
      const id = `office-client-${i}`;
      const email = `office${i}@example.com`;
      await t.db.insert(user).values({ id, name: `Office ${i}`, email, role: "client" });
      await t.db
        .insert(account)
        .values({ id: `acc-${id}`, accountId: id, providerId: "credential", userId: id, password: credential!.password });
      clients.push({ id, role: "client" as const, email });
    }
    const statuses: number[] = [];
    for (const [i, client] of clients.entries()) {
      // Every fifth person mistypes once first.
      if (i % 5 === 0) expect(await outcome(signIn(s, { email: client.email, password: "secret-pasz" }, meta(office)))).toBe(400);
      statuses.push(await outcome(signIn(s, { email: client.email, password: "secret-pass" }, meta(office))));
    }
    expect(statuses).toEqual(Array(25).fill(200));
    // Successful sign-ins never count: only the 5 typos are on the office's counter.
    const [row] = await t.db
      .select({ count: rateWindow.count })
      .from(rateWindow)
      .where(eq(rateWindow.key, `signin-fail-ip:${office}`));
    expect(row?.count).toBe(5);
    expect(throttleEvents(stderr)).toEqual([]);
  });

  it("an attacker with wrong passwords from many addresses cannot lock the owner out", async () => {
    const { s } = ctx;
    const owner = await makeClient(s, { email: "owner@example.com" });
    const attempts = SIGN_IN_THROTTLE.slowDownAfter + 5;
    for (let i = 0; i < attempts; i++) {
      expect(await outcome(signIn(s, { email: owner.email, password: `guess-${i}-pass` }, meta(`198.18.0.${i + 1}`)))).toBe(400);
    }
    // An attacking address that failed before is slowed down (1 s doubled 5 times: 32 s after the last failure).
    const slowed = await refusalOf(signIn(s, { email: owner.email, password: "guess-again" }, meta("198.18.0.1")));
    expect(slowed).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(slowed.retryAfterSeconds).toBeGreaterThan(20);
    expect(slowed.retryAfterSeconds).toBeLessThanOrEqual(32);
    expect(slowed.headers()["Retry-After"]).toMatch(/^\d+$/);
    // The owner, from their own address, signs in at once.
    const started = Date.now();
    const ok = await signIn(s, { email: owner.email, password: "secret-pass" }, meta("192.0.2.77"));
    expect(ok.userId).toBe(owner.id);
    expect(Date.now() - started).toBeLessThan(15_000);
    // …and again (admins and clients alike: the rule does not depend on the role).
    expect((await signIn(s, { email: owner.email, password: "secret-pass" }, meta("192.0.2.77"))).userId).toBe(owner.id);
    // The slow-down was logged, without the guessed password.
    const events = throttleEvents(stderr);
    expect(events).toEqual([expect.objectContaining({ rule: "sign-in-account-slow-down", ip: "198.18.0.1", account: owner.email })]);
    expect(JSON.stringify(stderr.mock.calls)).not.toContain("guess-again");
  });

  it("slows down an address that has failed on the account, once the account has had several failures", async () => {
    const { s } = ctx;
    const owner = await makeClient(s, { email: "slow@example.com" });
    const home = meta("192.0.2.5");
    for (let i = 0; i < SIGN_IN_THROTTLE.slowDownAfter - 1; i++) {
      expect(await outcome(signIn(s, { email: owner.email, password: `typo-${i}-x` }, meta(`198.18.1.${i + 1}`)))).toBe(400);
    }
    // The owner mistypes once (the account's 5th failure)…
    expect(await outcome(signIn(s, { email: owner.email, password: "secret-pas" }, home))).toBe(400);
    // …and must now wait the first delay (1 s) even with the right password…
    const wait = await refusalOf(signIn(s, { email: owner.email, password: "secret-pass" }, home));
    expect(wait).toMatchObject({ status: 429 });
    expect(wait.retryAfterSeconds).toBe(1);
    // …after which the right password gets in.
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await signIn(s, { email: owner.email, password: "secret-pass" }, home)).userId).toBe(owner.id);
  });

  it("limits wrong passwords per account and address", async () => {
    const { s } = ctx;
    const owner = await makeClient(s, { email: "target@example.com" });
    const attacker = meta("198.18.2.1");
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.perAccountIpFailures; i++) {
      await letDelayPass();
      statuses.push(await outcome(signIn(s, { email: owner.email, password: `wrong-${i}-pass` }, attacker)));
    }
    expect(statuses).toEqual(Array(SIGN_IN_THROTTLE.perAccountIpFailures).fill(400));
    await letDelayPass();
    const refused = await refusalOf(signIn(s, { email: owner.email, password: "secret-pass" }, attacker));
    expect(refused).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    // The window is fixed from the first failure: at most 15 minutes.
    expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    expect(throttleEvents(stderr).at(-1)).toMatchObject({ rule: "sign-in-account-ip", ip: attacker.ip, account: owner.email });
    // The same address may still sign in to other accounts, and the owner from elsewhere.
    const other = await makeClient(s, { email: "colleague@example.com" });
    expect((await signIn(s, { email: other.email, password: "secret-pass" }, attacker)).userId).toBe(other.id);
    expect((await signIn(s, { email: owner.email, password: "secret-pass" }, meta("192.0.2.9"))).userId).toBe(owner.id);
  });

  it("limits wrong passwords per address over all accounts, and never counts successes", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s, { email: "victim-office@example.com" });
    const address = meta("198.18.3.1");
    // The address has sprayed wrong passwords over many accounts: all but the last 3 of the
    // limit are put straight in its counter (each real attempt costs a scrypt hash), the last
    // 3 are real sign-ins.
    await t.db
      .insert(rateWindow)
      .values({ key: `signin-fail-ip:${address.ip}`, count: SIGN_IN_THROTTLE.perIpFailures - 3, windowStart: sql`now()` });
    for (let i = 0; i < 3; i++) {
      expect(await outcome(signIn(s, { email: `spray${i}@example.com`, password: "spray-pass-1" }, address))).toBe(400);
    }
    const refused = await refusalOf(signIn(s, { email: client.email, password: "secret-pass" }, address));
    expect(refused).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(throttleEvents(stderr)).toEqual([expect.objectContaining({ rule: "sign-in-ip", ip: address.ip, account: client.email })]);
    // Refused attempts are not counted as failures; another address is not affected.
    const [row] = await t.db
      .select({ count: rateWindow.count })
      .from(rateWindow)
      .where(eq(rateWindow.key, `signin-fail-ip:${address.ip}`));
    expect(row?.count).toBe(SIGN_IN_THROTTLE.perIpFailures);
    expect((await signIn(s, { email: client.email, password: "secret-pass" }, meta("192.0.2.10"))).userId).toBe(client.id);
  });

  it("limits sign-ups per address at a level an office does not reach", async () => {
    const { t, s } = ctx;
    const office = meta("203.0.113.20");
    const register = (i: number) =>
      registerClient(s, { businessName: `Shop ${i}`, email: `shop${i}@example.com`, phone: "1", password: "secret-pass" }, office);
    // Sign-ups before today's last two, straight in the counter (each real one costs a scrypt hash).
    await t.db.insert(rateWindow).values({ key: `signup:${office.ip}`, count: SIGN_UP_LIMIT.limit - 2, windowStart: sql`now()` });
    for (let i = 0; i < 2; i++) expect(await outcome(register(i))).toBe(200);
    const refused = await refusalOf(register(SIGN_UP_LIMIT.limit));
    expect(refused).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(throttleEvents(stderr)).toEqual([expect.objectContaining({ rule: "sign-up-ip", ip: office.ip })]);
    const [row] = await t.db.select({ n: count() }).from(rateWindow).where(like(rateWindow.key, "signup:%"));
    expect(row!.n).toBe(1);
  });

  it("limits reset mails per address (silently) and reset requests per client IP", async () => {
    const { t, s } = ctx;
    await makeClient(s, { email: "forgetful@example.com" });
    // Someone asks for many resets of one account from many addresses: only the first mails go out.
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perAccount.limit + 2; i++) {
      await requestPasswordReset(s, "forgetful@example.com", meta(`198.18.4.${i + 1}`));
    }
    // (The account's e-mail verification mail from its sign-up is not counted.)
    const mails = await t.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, "forgetful@example.com"), like(mailOutbox.subject, "%Reset your password%")));
    expect(mails[0]!.n).toBe(PASSWORD_RESET_LIMITS.perAccount.limit);
    expect(throttleEvents(stderr).map((e) => e.rule)).toEqual(["password-reset-account", "password-reset-account"]);
    // One address asking for many different accounts is refused beyond the per-IP limit.
    const address = meta("198.18.5.1");
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp.limit; i++) {
      await requestPasswordReset(s, `nobody${i}@example.com`, address);
    }
    const refused = await refusalOf(requestPasswordReset(s, "forgetful-2@example.com", address));
    expect(refused).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(throttleEvents(stderr).at(-1)).toMatchObject({ rule: "password-reset-ip", ip: address.ip });
  });
});
