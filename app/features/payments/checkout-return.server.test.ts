/**
 * Where a card Checkout sends the client back (issue #41): paid → "?payment=processing", cancelled →
 * "?payment=cancelled" (the invoice page then says "Payment cancelled — nothing was charged"). The
 * Checkout Session is asked of the project's Stripe stand-in through the official SDK.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { startStripeStandIn } from "../../../tests/e2e/stripe-stand-in";
import { startCardCheckout } from "./stripe.server";

describe.each(testDatabases())("card Checkout return addresses on %s", (_name, open) => {
  const ctx = useTestServices(open);
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  beforeEach(async () => {
    standIn = await startStripeStandIn();
  });
  afterEach(() => standIn.close());

  it("comes back to the invoice page saying whether it was paid or cancelled", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const invoiceId = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["Build", 90_000]], dueDate: "2031-01-01" });
    const env = {
      STRIPE_SECRET_KEY: "sk_test_return_0123456789",
      STRIPE_WEBHOOK_SECRET: "whsec_return_0123456789",
      STRIPE_API_URL: standIn.url,
    };
    const url = await startCardCheckout(t.db, env, {
      invoiceId,
      clientEmail: client.email,
      origin: "https://portal.example.com",
      returnPath: `/view-invoice/${invoiceId}`,
    });
    expect(url).toMatch(/\/pay\/cs_test_1$/);
    const asked = standIn.requests[0]!.body;
    expect(asked.get("success_url")).toBe(`https://portal.example.com/view-invoice/${invoiceId}?payment=processing`);
    expect(asked.get("cancel_url")).toBe(`https://portal.example.com/view-invoice/${invoiceId}?payment=cancelled`);
  });
});
