/**
 * The Stripe stand-in's checkout page (`npm run stripe:stand-in`, README "Payments" → without a
 * Stripe account): Pay sends a `checkout.session.completed` event that Stripe's own signature check
 * accepts with the app's webhook secret and returns to success_url; Cancel returns to cancel_url
 * and sends nothing; a webhook that refuses the event is shown, not hidden behind a redirect.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startStripeStandIn } from "./stripe-stand-in";

const SECRET = "whsec_stand_in_test_secret";

describe("scripts/stripe-stand-in.ts with a webhook", () => {
  let received: Stripe.Event[];
  let refuse: boolean;
  let app: http.Server;
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  beforeEach(async () => {
    received = [];
    refuse = false;
    const stripe = new Stripe("sk_test_0123456789");
    app = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          if (refuse) throw new Error("refused");
          received.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), req.headers["stripe-signature"] as string, SECRET));
          res.writeHead(200).end("{}");
        } catch {
          res.writeHead(400).end("bad signature");
        }
      });
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    standIn = await startStripeStandIn({
      webhook: { url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks/stripe`, secret: SECRET },
    });
  });
  afterEach(async () => {
    await standIn.close();
    await new Promise((resolve) => app.close(resolve));
  });

  const checkout = async () => {
    const stripe = new Stripe("sk_test_0123456789", {
      host: "127.0.0.1",
      port: Number(new URL(standIn.url).port),
      protocol: "http",
    });
    return stripe.checkout.sessions.create({
      mode: "payment",
      success_url: "http://portal.test/view-invoice/7?payment=processing",
      cancel_url: "http://portal.test/view-invoice/7?payment=cancelled",
      customer_email: "client@example.com",
      metadata: { invoice_id: "7" },
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 30_000, product_data: { name: "Invoice INV-2026-0007" } } }],
    });
  };
  const choose = (url: string, outcome: string) =>
    fetch(url, { method: "POST", body: new URLSearchParams({ outcome }), redirect: "manual" });

  it("Pay: a signed checkout.session.completed reaches the webhook, then back to success_url", async () => {
    const session = await checkout();
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain("Invoice INV-2026-0007: <strong>300.00 USD</strong>");
    expect(page).toMatch(/<button name="outcome" value="paid">Pay<\/button>/);
    const answer = await choose(session.url!, "paid");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("http://portal.test/view-invoice/7?payment=processing");
    expect(received).toHaveLength(1);
    expect(received[0]!.type).toBe("checkout.session.completed");
    expect(received[0]!.data.object).toMatchObject({
      id: session.id,
      payment_status: "paid",
      amount_total: 30_000,
      currency: "usd",
      customer_email: "client@example.com",
      metadata: { invoice_id: "7" },
    });
  });

  it("Cancel: back to cancel_url, no event", async () => {
    const session = await checkout();
    const answer = await choose(session.url!, "cancelled");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("http://portal.test/view-invoice/7?payment=cancelled");
    expect(received).toEqual([]);
  });

  it("a webhook that refuses the event: 502 with its answer, no redirect", async () => {
    const session = await checkout();
    refuse = true;
    const answer = await choose(session.url!, "paid");
    expect(answer.status).toBe(502);
    expect(await answer.text()).toContain("400 bad signature");
  });
});
