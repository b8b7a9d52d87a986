/**
 * Builds the app's services on a test database: the same better-auth configuration as the
 * server, and helpers to create users of each role through the real use-cases.
 */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { user, type Role } from "#app/db/schema";
import { createAdmin, registerAmbassador, registerClient } from "#app/features/users/accounts.server";
import type { Actor } from "#app/features/users/actor";
import { createAuth, type Auth } from "#app/lib/auth.server";

export interface TestServices {
  db: Database;
  auth: Auth;
}

export function testServices(db: Database): TestServices {
  return {
    db,
    auth: createAuth({ db, env: { origin: "http://localhost:3000", PASSWORD_MIN_LENGTH: 6, NODE_ENV: "test" }, secret: "test-secret-test-secret-test-secret-0123" }),
  };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;
const meta = () => ({ headers: new Headers(), ip: `192.0.2.${counter % 250}` });

/** A request context with a fresh IP (rate limits never trip across helpers). */
export function freshMeta(ip = `198.51.100.${++counter % 250}`) {
  return { headers: new Headers(), ip: `${ip}-${counter}` };
}

/** Creates a client through `registerClient`. @returns the actor and its e-mail. */
export async function makeClient(s: TestServices, opts: { email?: string; referralCode?: string; businessName?: string } = {}): Promise<Actor> {
  const email = opts.email ?? `client-${unique()}@example.com`;
  const result = await registerClient(s, { businessName: opts.businessName ?? "Acme Bakery", email, phone: "301 555 0100", password: "secret-pass", referralCode: opts.referralCode }, freshMeta());
  return { id: result.userId, role: "client", email };
}

/** Creates an ambassador through `registerAmbassador`. */
export async function makeAmbassador(s: TestServices, opts: { email?: string; referralCode?: string } = {}): Promise<Actor & { referralCode: string }> {
  const email = opts.email ?? `amb-${unique()}@example.com`;
  const referralCode = (opts.referralCode ?? `ref-${unique()}`).toLowerCase();
  const result = await registerAmbassador(s, { name: "Ann Bassador", email, phone: "301 555 0101", password: "secret-pass", referralCode }, freshMeta());
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
