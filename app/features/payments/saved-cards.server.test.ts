/**
 * Saved cards (docs/product.md#saved-cards, issue #39) against the project's Stripe stand-in (the
 * official SDK pointed at it), on PGlite and PostgreSQL: an owner or billing person saves a card
 * through Checkout in setup mode (one Stripe customer per organisation), sees brand, last 4 and
 * expiry — and nothing else is stored; a member and an outsider get 404; replacing detaches the old
 * card and a late webhook of the older setup changes nothing; the signed `checkout.session.completed`
 * webhook saves the card once under 20 parallel deliveries; removing detaches it and is audited.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server";
import { auditEvent, membership, savedCard, stripeCustomer } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/e2e/stripe-stand-in";
import { completeCardSetup, getSavedCard, removeSavedCard, startCardSetup } from "./saved-cards.server";
import { stripeWebhook } from "./stripe.server";

const SECRET = "whsec_saved_cards_0123456789";

async function organisationOf(db: Database, client: Actor): Promise<number> {
  const [row] = await db.select({ id: membership.organisationId }).from(membership).where(eq(membership.userId, client.id));
  return row!.id;
}

describe.each(testDatabases())("saved cards on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let standIn: StripeStandIn;
  let env: { STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string; STRIPE_API_URL: string };
  let server: http.Server;

  beforeEach(async () => {
    standIn = await startStripeStandIn();
    env = { STRIPE_SECRET_KEY: "sk_test_saved_cards_0123", STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: standIn.url };
    const handler = stripeWebhook({ db: ctx.t.db, env });
    server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    await standIn.settled();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await standIn.close();
  });

  const sessionIdOf = (url: string) => /\/pay\/(cs_[\w]+)$/.exec(url)![1]!;
  const save = async (actor: Actor, card: "succeed" | "declined" = "succeed") => {
    const url = await startCardSetup(ctx.t.db, env, actor, { origin: "https://portal.example", currency: "USD" });
    const id = sessionIdOf(url);
    standIn.completeSetup(id, card);
    return { id, saved: await completeCardSetup(ctx.t.db, env, actor, id) };
  };

  it("an owner saves a card through Checkout in setup mode; only ids, brand, last 4 and expiry are stored", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const organisationId = await organisationOf(t.db, client);
    expect(await getSavedCard(t.db, client)).toBeNull();

    const { saved } = await save(client);
    expect(saved).toBe(true);
    const setup = standIn.requests[0]!;
    expect(setup.body.get("mode")).toBe("setup");
    expect(setup.body.get("metadata[organisation_id]")).toBe(String(organisationId));
    expect(setup.body.get("success_url")).toBe("https://portal.example/payment-method?setup=done&session_id={CHECKOUT_SESSION_ID}");
    expect(await getSavedCard(t.db, client)).toMatchObject({ brand: "visa", last4: "4242", expMonth: 12 });
    const [row] = await t.db.select().from(savedCard).where(eq(savedCard.organisationId, organisationId));
    expect(Object.keys(row!).sort()).toEqual(
      [
        "brand",
        "customerId",
        "expMonth",
        "expYear",
        "expiryNoticeSentAt",
        "last4",
        "organisationId",
        "paymentMethodId",
        "savedAt",
        "savedById",
        "setupCreated",
        "setupIntentId",
      ].sort(),
    );
    expect(row).toMatchObject({
      customerId: expect.stringMatching(/^cus_/),
      paymentMethodId: expect.stringMatching(/^pm_/),
      savedById: client.id,
    });

    // A second setup (Replace) reuses the organisation's customer: one customer call in all.
    await save(client);
    expect(standIn.calls.filter((c) => c.path === "/v1/customers")).toHaveLength(1);
    expect(await t.db.select().from(stripeCustomer)).toHaveLength(1);
  });

  it("a billing person may; a member and an outsider get 404 and nothing is asked of Stripe", async () => {
    const { t, s } = ctx;
    const owner = await makeClient(s);
    const organisationId = await organisationOf(t.db, owner);
    const billing = await makeClient(s);
    const member = await makeClient(s);
    await t.db.insert(membership).values([
      { organisationId, userId: billing.id, role: "billing" },
      { organisationId, userId: member.id, role: "member" },
    ]);
    const asBilling: Actor = { ...billing, organisationId, organisationRole: "billing" };
    const asMember: Actor = { ...member, organisationId, organisationRole: "member" };
    // The member's session claims "owner": the statement still finds no owner/billing membership.
    const lying: Actor = { ...member, organisationId, organisationRole: "owner" };

    expect((await save(asBilling)).saved).toBe(true);
    expect(await getSavedCard(t.db, owner)).toMatchObject({ last4: "4242" });
    const calls = standIn.calls.length;
    for (const actor of [asMember, lying]) {
      expect((await refusalOf(startCardSetup(t.db, env, actor, { origin: "https://x.example", currency: "USD" }))).status).toBe(404);
      expect((await refusalOf(getSavedCard(t.db, actor))).status).toBe(404);
      expect((await refusalOf(removeSavedCard(t.db, env, actor))).status).toBe(404);
    }
    const outsider = await makeClient(s);
    expect(await getSavedCard(t.db, outsider)).toBeNull(); // their own organisation has none
    expect((await refusalOf(completeCardSetup(t.db, env, { ...outsider, organisationId, organisationRole: "owner" }, "cs_x"))).status).toBe(
      404,
    );
    expect(standIn.calls.length).toBe(calls);
  });

  it("replacing detaches the old card; the older setup's late webhook changes nothing; the return of another organisation's session saves nothing", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const organisationId = await organisationOf(t.db, client);
    const first = await save(client);
    const [before] = await t.db.select().from(savedCard);
    await new Promise((r) => setTimeout(r, 1_100)); // Stripe's `created` is in seconds
    await save(client, "declined");
    const [after] = await t.db.select().from(savedCard);
    expect(after!.last4).toBe("0002");
    expect(standIn.calls.some((c) => c.path === `/v1/payment_methods/${before!.paymentMethodId}/detach`)).toBe(true);

    // The first setup's return page reloaded (or its webhook delivered late): the newer card stays.
    expect(await completeCardSetup(t.db, env, client, first.id)).toBe(true);
    const [still] = await t.db.select().from(savedCard);
    expect(still!.paymentMethodId).toBe(after!.paymentMethodId);

    const other = await makeClient(s);
    expect(await completeCardSetup(t.db, env, other, first.id)).toBe(false);
    expect(await getSavedCard(t.db, other)).toBeNull();
    const audit = await t.db
      .select({ action: auditEvent.action })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "organisation"), eq(auditEvent.entityId, String(organisationId))));
    expect(audit.map((a) => a.action)).toEqual(["card-saved", "card-replaced"]);
  });

  it("the signed checkout.session.completed webhook saves the card once under 20 parallel deliveries", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const organisationId = await organisationOf(t.db, client);
    const url = await startCardSetup(t.db, env, client, { origin: "https://portal.example", currency: "USD" });
    standIn.completeSetup(sessionIdOf(url), "succeed");
    const completed = standIn.events.find((e) => e.type === "checkout.session.completed")!;
    const { default: Stripe } = await import("stripe");
    const signer = new Stripe("sk_test_x");
    const payload = JSON.stringify(completed);
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await fetch(target, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
          },
          body: payload,
        });
        return ((await res.json()) as { outcome: string }).outcome;
      }),
    );
    expect(answers.filter((a) => a === "card-saved")).toHaveLength(1);
    expect(answers.filter((a) => a === "duplicate")).toHaveLength(19);
    expect(await getSavedCard(t.db, client)).toMatchObject({ last4: "4242" });
    const audit = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.entityId, String(organisationId)), eq(auditEvent.action, "card-saved")));
    expect(audit).toHaveLength(1);

    // A wrongly signed one is refused and writes nothing.
    const bad = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" }),
      },
      body: payload,
    });
    expect(bad.status).toBe(400);
  });

  it("removing a card detaches it at Stripe, deletes the row and is audited; removing again is a 409", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    await save(client);
    const [row] = await t.db.select().from(savedCard);
    await removeSavedCard(t.db, env, client);
    expect(await getSavedCard(t.db, client)).toBeNull();
    expect(standIn.calls.some((c) => c.path === `/v1/payment_methods/${row!.paymentMethodId}/detach`)).toBe(true);
    const [audit] = await t.db.select().from(auditEvent).where(eq(auditEvent.action, "card-removed"));
    expect(audit).toMatchObject({ actorId: client.id, before: { brand: "visa", last4: "4242" }, after: null });
    expect((await refusalOf(removeSavedCard(t.db, env, client))).status).toBe(409);
  });
});
