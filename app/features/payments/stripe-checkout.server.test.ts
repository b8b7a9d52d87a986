/**
 * "Pay by card" (docs/product.md#card-payments, issue #36): the Checkout Session's idempotency key
 * covers the whole request, so the portal's invoice page and the signed /i/ link — other return URLs
 * for the same invoice and amount — each get their session instead of Stripe's `idempotency_error`
 * (a 500 for the client), while a double click on one page still makes one session. Against the
 * project's Stripe stand-in (which answers reused keys as Stripe does).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/admin-data";
import { siteInvoice } from "../../../tests/helpers/billing";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { startStripeStandIn } from "../../../tests/e2e/stripe-stand-in";
import { startCardCheckout } from "./stripe.server";

describe.each(testDatabases())("card checkout on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  beforeEach(async () => {
    standIn = await startStripeStandIn();
  });
  afterEach(() => standIn.close());

  it("the portal page and the signed link each get a session; a repeat from one page reuses its own", async () => {
    const { t, s, admin } = ctx;
    const env = { STRIPE_SECRET_KEY: "sk_test_checkout_0123", STRIPE_WEBHOOK_SECRET: "whsec_checkout_0123", STRIPE_API_URL: standIn.url };
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id, status: "in_progress" });
    const { id: invoiceId } = await siteInvoice(t.db, admin, proposalId, "2030-01-01");
    const start = (returnPath: string) =>
      startCardCheckout(t.db, env, { invoiceId, clientEmail: client.email, origin: "https://portal.example", returnPath });

    const portal = await start(`/view-invoice/${invoiceId}`);
    const link = await start("/i/signed-token-abc");
    const again = await start(`/view-invoice/${invoiceId}`);

    expect(portal).not.toBe(link);
    expect(again).toBe(portal);
    const [first, second, third] = standIn.requests;
    expect(first!.idempotencyKey).toMatch(new RegExp(`^checkout-invoice-${invoiceId}-[0-9a-f]{64}$`));
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect(third!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(second!.body.get("success_url")).toBe("https://portal.example/i/signed-token-abc?payment=processing");
    expect(second!.body.get("cancel_url")).toBe("https://portal.example/i/signed-token-abc?payment=cancelled");
  });
});
