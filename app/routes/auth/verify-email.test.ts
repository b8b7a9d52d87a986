/**
 * /verify-email (docs/product.md#email-verification) on PGlite and PostgreSQL, through the route
 * itself: a GET of the mailed link — what a mail provider's link scanner does — changes nothing;
 * only the page's POST verifies; "This was not me" closes the unverified account that used the
 * address, ends its sessions and frees the address, and the proposal an ambassador addressed to it
 * goes to its real owner (the takeover of issue #28).
 */
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext, type AppServices } from "#app/context";
import { requestInfoContext } from "#app/lib/request-info";
import { proposal, session, user } from "#app/db/schema";
import { AUTH_MESSAGES } from "#app/features/users/accounts.schema";
import { authContext } from "#app/features/users/auth-context.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices, verificationTokenFor, type TestServices } from "../../../tests/helpers/services";
import { action, loader } from "./verify-email";

function contextFor(s: TestServices) {
  const context = new RouterContextProvider();
  context.set(servicesContext, { db: s.db, env: { origin: "http://localhost:3000" } } as unknown as AppServices);
  context.set(authContext, s.auth);
  context.set(requestInfoContext, { ip: "198.51.100.44", nonce: "n", requestId: "r", log: {} });
  context.set(sessionUserContext, null);
  return context;
}

const get = (s: TestServices, token: string) =>
  loader({
    request: new Request(`http://localhost:3000/verify-email?token=${encodeURIComponent(token)}`),
    context: contextFor(s),
    params: {},
  } as never);

async function post(s: TestServices, fields: Record<string, string>) {
  const request = new Request("http://localhost:3000/verify-email", { method: "POST", body: new URLSearchParams(fields) });
  const result = (await action({ request, context: contextFor(s), params: {} } as never)) as {
    data: { ok: boolean; message: string };
    init: { status?: number } | null;
  };
  return { ...result.data, status: result.init?.status ?? 200 };
}

const verifiedOf = async (s: TestServices, email: string) =>
  (await s.db.select({ v: user.emailVerified }).from(user).where(eq(user.email, email)))[0]?.v ?? null;

describe.each(testDatabases())("/verify-email on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("a GET of the link shows the address and verifies nothing; the page's POST verifies", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const token = await verificationTokenFor(s.db, client.email);
    for (let i = 0; i < 3; i++)
      expect(await get(s, token)).toMatchObject({ link: { email: client.email, verified: false }, invalid: false });
    expect(await verifiedOf(s, client.email)).toBe(false);
    expect(await post(s, { intent: "verify", token })).toMatchObject({ ok: true, message: AUTH_MESSAGES.verified, status: 200 });
    expect(await verifiedOf(s, client.email)).toBe(true);
    expect(await get(s, token)).toMatchObject({ link: { email: client.email, verified: true } });
    expect((await get(s, `${token.slice(0, -3)}xyz`)).invalid).toBe(true);
    expect(await post(s, { intent: "verify", token: "forged" })).toMatchObject({ ok: false, status: 400 });
  });

  it("an attacker registering with the victim's address: the scanner's GET gives them nothing, “This was not me” frees the address", async () => {
    const { s } = ctx;
    const victim = "victim@example.com";
    const ambassador = await makeAmbassador(s);
    const waiting = await insertProposal(s.db, {
      source: "ambassador",
      status: "submitted",
      ambassadorId: ambassador.id,
      clientEmail: victim,
      projectName: "Secret launch",
    });
    const attacker = await makeClient(s, { email: victim });
    expect(await s.db.select().from(session).where(eq(session.userId, attacker.id))).toHaveLength(1);
    const token = await verificationTokenFor(s.db, victim);

    await get(s, token); // the victim's mail provider fetches the link
    expect((await s.db.select({ clientId: proposal.clientId }).from(proposal).where(eq(proposal.id, waiting)))[0]!.clientId).toBeNull();

    expect((await post(s, { intent: "not-me", token })).status).toBe(400); // without the confirmation step
    expect(await post(s, { intent: "not-me", token, confirm: "yes" })).toMatchObject({ ok: true, message: AUTH_MESSAGES.notMeDone });
    expect(await s.db.select().from(session).where(eq(session.userId, attacker.id))).toHaveLength(0);
    const [closed] = await s.db.select().from(user).where(eq(user.id, attacker.id));
    expect(closed).toMatchObject({ banned: true, name: "Closed account", businessName: null, phone: null });
    expect(closed!.email).not.toBe(victim);
    expect(closed!.closedAt).toBeInstanceOf(Date);
    expect((await get(s, token)).invalid).toBe(true); // the link is spent

    // The real owner registers, verifies, and gets what was addressed to them.
    const owner = await makeClient(s, { email: victim, verified: true });
    expect((await s.db.select({ clientId: proposal.clientId }).from(proposal).where(eq(proposal.id, waiting)))[0]!.clientId).toBe(owner.id);
  });

  it("“This was not me” on a verified address changes nothing (409)", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { verified: true });
    const token = await verificationTokenFor(s.db, client.email);
    expect(await post(s, { intent: "not-me", token, confirm: "yes" })).toMatchObject({
      ok: false,
      status: 409,
      message: AUTH_MESSAGES.notMeVerified,
    });
    expect(await verifiedOf(s, client.email)).toBe(true);
  });
});
