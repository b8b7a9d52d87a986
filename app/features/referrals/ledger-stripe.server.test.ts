/**
 * The commission ledger fed by card payments (issue #25): Stripe webhook deliveries — duplicated,
 * replayed under another event id, refunds out of order — make exactly one ledger entry per payment
 * and per refund (+15 % / −15 %), in the webhook's transaction. On PGlite and PostgreSQL.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commissionEntries, payments } from "#app/db/schema";
import { stripeWebhook } from "#app/features/payments/stripe.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertReferredProposal } from "../../../tests/helpers/admin-data";
import { siteInvoice } from "../../../tests/helpers/billing";
import { useTestServices } from "../../../tests/helpers/services";
import { getAmbassadorEarnings } from "./referrals.server";

const SECRET = "whsec_test_ledger_0123456789";
const env = { STRIPE_SECRET_KEY: "sk_test_ledger_0123456789", STRIPE_WEBHOOK_SECRET: SECRET };
const stripe = new Stripe(env.STRIPE_SECRET_KEY);

describe.each(testDatabases())("commission ledger from card payments on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let server: http.Server;
  let url: string;

  beforeEach(async () => {
    const handler = stripeWebhook({ db: ctx.t.db, env });
    server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (event: object) => {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
    });
    return res.status;
  };
  const event = (id: string, type: string, object: object) => ({
    id,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });

  it("one entry per card payment and per refund, whatever the deliveries", async () => {
    const { t, s, admin } = ctx;
    const { ambassador, id: proposalId } = await insertReferredProposal(s, {
      budgetCents: 100_000,
      clientApprovedAt: new Date(),
      commissionRateBps: 1500,
      status: "in_progress",
    });
    const { id: invoiceId } = await siteInvoice(t.db, admin, proposalId, "2030-01-01");
    const completed = (id: string) =>
      event(id, "checkout.session.completed", {
        id: `cs_${id}`,
        object: "checkout.session",
        payment_status: "paid",
        amount_total: 30_000,
        currency: "usd",
        payment_intent: "pi_1",
        metadata: { invoice_id: String(invoiceId) },
      });
    const refunded = (id: string, amountRefunded: number) =>
      event(id, "charge.refunded", {
        id: "ch_1",
        object: "charge",
        payment_intent: "pi_1",
        amount_refunded: amountRefunded,
        currency: "usd",
        metadata: {},
      });
    for (const status of await Promise.all([post(completed("evt_1")), post(completed("evt_1")), post(completed("evt_2"))]))
      expect(status).toBe(200);
    expect(await post(refunded("evt_r2", 15_000))).toBe(200); // the later refund event first
    expect(await post(refunded("evt_r1", 10_000))).toBe(200); // the earlier one: nothing new
    expect(await post(refunded("evt_r2", 15_000))).toBe(200);

    const rows = await t.db.select().from(payments).orderBy(payments.id);
    const entries = await t.db.select().from(commissionEntries).orderBy(commissionEntries.id);
    expect(entries.map((e) => e.paymentId)).toEqual(rows.map((p) => p.id));
    expect(entries.map((e) => [e.kind, e.baseCents, e.amountCents])).toEqual([
      ["payment", 30_000, 4_500],
      ["refund", -15_000, -2_250],
    ]);
    const earnings = await getAmbassadorEarnings(t.db, ambassador);
    expect(earnings.totals).toEqual({ pendingCents: 2_250, payableCents: 0, paidOutCents: 0 });
  });
});
