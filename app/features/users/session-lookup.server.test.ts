/**
 * The session middleware's one-statement lookup (issue #42, session-lookup.server.ts) on PGlite and
 * PostgreSQL: a page read of a signed-in person is one statement (session, user, organisation,
 * settings) without better-auth, and gives the same person better-auth gives; every other case —
 * a bad signature, a session signed out, revoked or of a deactivated person, one expired or due for
 * its sliding refresh — is better-auth's answer (with its cookies), so sign-out, revocation and
 * deactivation still take effect on the next request.
 */
import { eq, sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { servicesContext } from "#app/context";
import { withRequestMemo } from "#app/db/request-memo.server";
import { session } from "#app/db/schema";
import { listMyOrganisations } from "#app/features/organisations/organisations.server";
import { getBrand, getSettings, saveSettings } from "#app/features/settings/settings.server";
import type { Env } from "#app/lib/env.server";
import { testDatabases } from "../../../tests/helpers/db";
import { freshMeta, makeAmbassador, makeClient, useTestServices, type TestServices } from "../../../tests/helpers/services";
import { signIn, signOut } from "./accounts.server";
import { authContext } from "./auth-context.server";
import { lookUpSession } from "./session-lookup.server";
import { sessionMiddleware, sessionUserContext } from "./session.server";
import { setUserActive } from "./users.server";
import type { SessionUser } from "./actor";

const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

async function signedIn(s: TestServices, email: string, password = "secret-pass") {
  return cookieOf((await signIn(s, { email, password }, freshMeta())).headers);
}

/** Runs the root's session middleware for one request; a GET gets a request view, as app/root.tsx does. */
async function runMiddleware(s: TestServices, cookie: string, method = "GET") {
  const db = method === "GET" ? withRequestMemo(s.db) : s.db;
  const context = new RouterContextProvider();
  context.set(servicesContext, { db, env: {} as Env, ping: async () => {} });
  context.set(authContext, s.auth);
  const request = new Request("http://localhost:3000/client-dashboard", { method, headers: { cookie } });
  let user: SessionUser | null = null;
  const response = (await sessionMiddleware({ request, context, params: {} } as never, async () => {
    user = context.get(sessionUserContext);
    return new Response("ok");
  })) as Response;
  return { user: user as SessionUser | null, setCookies: response.headers.getSetCookie(), db };
}

describe.each(testDatabases())("session lookup on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("reads a signed-in client's page in one statement — session, organisation, settings — and agrees with better-auth", async () => {
    const { s, admin } = ctx;
    await saveSettings(s.db, admin, { companyName: "Acme Web", accentColor: "#0f5132" }, { cardPayments: false });
    const client = await makeClient(s, { businessName: "Bakery Ltd" });
    const cookie = await signedIn(s, client.email);
    const view = withRequestMemo(s.db);
    const selects = vi.spyOn(view, "select");
    const executes = vi.spyOn(view, "execute");
    const getSession = vi.spyOn(s.auth.api, "getSession");
    const found = await lookUpSession(s.auth, view, new Headers({ cookie }));
    expect(found).not.toBeNull();
    expect(getSession).not.toHaveBeenCalled();
    // The header's brand, the settings and the organisation switcher read nothing more.
    expect(await getBrand(view)).toMatchObject({ companyName: "Acme Web", accentColor: "#0f5132" });
    expect((await getSettings(view)).companyName).toBe("Acme Web");
    const organisations = await listMyOrganisations(view, { id: client.id, role: "client", email: client.email });
    expect(organisations).toEqual([{ id: found!.organisation!.organisationId, name: "Bakery Ltd", role: "owner" }]);
    expect(selects).toHaveBeenCalledTimes(1);
    expect(executes).not.toHaveBeenCalled();
    getSession.mockRestore();

    const theirs = await s.auth.api.getSession({ headers: new Headers({ cookie }) });
    expect(found!.session.id).toBe(theirs!.session.id);
    for (const key of Object.keys(found!.user) as Array<keyof NonNullable<typeof found>["user"]>) {
      expect(found!.user[key] ?? null, key).toEqual((theirs!.user as Record<string, unknown>)[key] ?? null);
    }
    expect(found!.organisation).toMatchObject({ organisationRole: "owner", name: "Bakery Ltd" });

    // The middleware: the same person, no cookie written; an action (no request view) too.
    for (const method of ["GET", "POST"]) {
      const { user, setCookies } = await runMiddleware(s, cookie, method);
      expect(user).toMatchObject({ id: client.id, role: "client", organisationRole: "owner", organisationName: "Bakery Ltd" });
      expect(setCookies).toEqual([]);
    }
  });

  it("signs no one in for a bad signature, a signed-out or revoked session, or a deactivated person — at the next request", async () => {
    const { s, admin } = ctx;
    const ambassador = await makeAmbassador(s);
    const cookie = await signedIn(s, ambassador.email);
    expect((await runMiddleware(s, cookie)).user).toMatchObject({ id: ambassador.id, role: "ambassador" });

    const [name, value] = cookie.split("=") as [string, string];
    const forged = `${name}=${value.replace(/^[^.]+/, "x".repeat(32))}`;
    expect(await lookUpSession(s.auth, s.db, new Headers({ cookie: forged }))).toBeNull();
    expect((await runMiddleware(s, forged)).user).toBeNull();

    // Signed out.
    await signOut(s, { headers: new Headers({ cookie }), ip: "198.51.100.9" });
    expect(await lookUpSession(s.auth, s.db, new Headers({ cookie }))).toBeNull();
    expect((await runMiddleware(s, cookie)).user).toBeNull();

    // Revoked (the account page's "sign out" of another session).
    const second = await signedIn(s, ambassador.email);
    expect((await runMiddleware(s, second)).user).not.toBeNull();
    await s.db.delete(session).where(eq(session.userId, ambassador.id));
    expect((await runMiddleware(s, second)).user).toBeNull();

    // Deactivated.
    const third = await signedIn(s, ambassador.email);
    expect((await runMiddleware(s, third)).user).not.toBeNull();
    await setUserActive(s.db, admin, ambassador.id, false);
    expect((await runMiddleware(s, third)).user).toBeNull();
  });

  it("leaves a session due for its sliding refresh, or expired, to better-auth, which renews or ends it", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const cookie = await signedIn(s, client.email);
    // Used last two days ago: better-auth extends it (updateAge: one day) and sends the cookie again.
    await s.db
      .update(session)
      .set({ expiresAt: sql`now() + interval '5 days'` })
      .where(eq(session.userId, client.id));
    expect(await lookUpSession(s.auth, withRequestMemo(s.db), new Headers({ cookie }))).toBeNull();
    const renewed = await runMiddleware(s, cookie);
    expect(renewed.user).toMatchObject({ id: client.id });
    expect(renewed.setCookies.some((c) => c.startsWith("better-auth.session_token=") && /Max-Age=604800/i.test(c))).toBe(true);
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    const [row] = await s.db.select({ expiresAt: session.expiresAt }).from(session).where(eq(session.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    // Renewed: the next request is the one-statement read again.
    expect(await lookUpSession(s.auth, s.db, new Headers({ cookie }))).not.toBeNull();

    await s.db
      .update(session)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(session.userId, client.id));
    expect(await lookUpSession(s.auth, s.db, new Headers({ cookie }))).toBeNull();
    const expired = await runMiddleware(s, cookie);
    expect(expired.user).toBeNull();
    expect(expired.setCookies.some((c) => c.startsWith("better-auth.session_token=;") && /Max-Age=0/i.test(c))).toBe(true);
  });
});
