/**
 * Builds the app's services on a test database: the same better-auth configuration as the
 * server, and helpers to create users of each role through the real use-cases.
 */
import { and, desc, eq, like } from "drizzle-orm";
import { afterEach, beforeEach } from "vitest";
import type { Database } from "#app/db/client.server";
import { mailOutbox, user, type Role } from "#app/db/schema";
import { createAdmin, registerAmbassador, registerClient } from "#app/features/users/accounts.server";
import { verifyEmailAddress } from "#app/features/users/email-verification.server";
import type { Actor } from "#app/features/users/actor";
import { createAuth, type Auth } from "#app/features/users/auth.server";
import type { TestDb } from "./db";

export interface TestServices {
  db: Database;
  auth: Auth;
}

export function testServices(db: Database): TestServices {
  return {
    db,
    auth: createAuth({
      db,
      env: { origin: "http://localhost:3000", PASSWORD_MIN_LENGTH: 6, NODE_ENV: "test" },
      secret: "test-secret-test-secret-test-secret-0123",
    }),
  };
}

/** What {@link useTestServices} gives the tests of a `describe`: set anew before each test. */
export interface TestContext {
  /** The test's own database, opened before the test and closed after it. */
  t: TestDb;
  /** The app's services on `t.db`. */
  s: TestServices;
}

/** A {@link TestContext} with an admin made before each test. */
export interface TestContextWithAdmin extends TestContext {
  /** An admin created through `createAdmin` in the test's database. */
  admin: Actor;
}

/**
 * Registers, in the calling `describe`, a `beforeEach` that opens a fresh database with
 * `open`, builds the services on it and, with `{ admin: true }`, creates an admin; and an
 * `afterEach` that closes the database. Hooks the caller registers afterwards run after
 * this `beforeEach` and before this `afterEach`, so they may use the context.
 *
 * @param open - the opener of `describe.each(testDatabases())`.
 * @returns one object whose `t`, `s` (and `admin`) are reassigned before each test: read
 *   them inside tests and hooks (e.g. `const { t, s, admin } = ctx;`), not at collection.
 *
 * @example
 *   describe.each(testDatabases())("settings on %s", (_name, open) => {
 *     const ctx = useTestServices(open, { admin: true });
 *     it("saves", async () => {
 *       const { t, admin } = ctx;
 *     });
 *   });
 */
export function useTestServices(open: () => Promise<TestDb>, opts: { admin: true }): TestContextWithAdmin;
export function useTestServices(open: () => Promise<TestDb>, opts?: { admin?: false }): TestContext;
export function useTestServices(open: () => Promise<TestDb>, opts: { admin?: boolean } = {}): TestContext | TestContextWithAdmin {
  const ctx = {} as TestContextWithAdmin;
  beforeEach(async () => {
    ctx.t = await open();
    ctx.s = testServices(ctx.t.db);
    if (opts.admin) ctx.admin = await makeAdmin(ctx.s);
  });
  afterEach(async () => {
    await ctx.t.close();
  });
  return ctx;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;
const meta = () => ({ headers: new Headers(), ip: `192.0.2.${counter % 250}` });

/** A request context with a fresh IP (rate limits never trip across helpers). */
export function freshMeta(ip = `198.51.100.${++counter % 250}`) {
  return { headers: new Headers(), ip: `${ip}-${counter}` };
}

/**
 * The verification link of the newest verification mail queued to `email` (read from the
 * outbox row, as the recipient would see it).
 *
 * @returns the token of that link.
 * @throws when no verification mail was queued to `email`.
 */
export async function verificationTokenFor(db: Database, email: string): Promise<string> {
  const [row] = await db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, "Verify your e-mail address%")))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const match = row?.text.match(/\/verify-email\?token=([^\s]+)/);
  if (!match) throw new Error(`no verification mail to ${email}`);
  return decodeURIComponent(match[1]!);
}

/** Verifies `email` by following the link of its verification mail (the real flow). */
export async function verifyByMail(s: TestServices, email: string): Promise<void> {
  if (!(await verifyEmailAddress(s, await verificationTokenFor(s.db, email)))) throw new Error(`verification of ${email} failed`);
}

/**
 * Creates a client through `registerClient`; with `verified`, also follows the link of the
 * verification mail. @returns the actor and its e-mail.
 */
export async function makeClient(
  s: TestServices,
  opts: { email?: string; referralCode?: string; businessName?: string; verified?: boolean } = {},
): Promise<Actor> {
  const email = opts.email ?? `client-${unique()}@example.com`;
  const result = await registerClient(
    s,
    {
      businessName: opts.businessName ?? "Acme Bakery",
      email,
      phone: "301 555 0100",
      password: "secret-pass",
      referralCode: opts.referralCode,
    },
    freshMeta(),
  );
  if (opts.verified) await verifyByMail(s, email);
  return { id: result.userId, role: "client", email };
}

/** Creates an ambassador through `registerAmbassador`. */
export async function makeAmbassador(
  s: TestServices,
  opts: { email?: string; referralCode?: string } = {},
): Promise<Actor & { referralCode: string }> {
  const email = opts.email ?? `amb-${unique()}@example.com`;
  const referralCode = (opts.referralCode ?? `ref-${unique()}`).toLowerCase();
  const result = await registerAmbassador(
    s,
    { name: "Ann Bassador", email, phone: "301 555 0101", password: "secret-pass", referralCode },
    freshMeta(),
  );
  return { id: result.userId, role: "ambassador", email, referralCode };
}

/** Creates an admin through `createAdmin`. */
export async function makeAdmin(s: TestServices): Promise<Actor> {
  const email = `admin-${unique()}@example.com`;
  const { id } = await createAdmin(s, { email, password: "admin-pass" });
  return { id, role: "admin", email };
}

/** @returns the role stored for a user. */
export async function roleInDb(db: Database, id: string): Promise<Role | null> {
  const [row] = await db.select({ role: user.role }).from(user).where(eq(user.id, id));
  return row?.role ?? null;
}

export { meta as defaultMeta };
