/**
 * POST /webhooks/stripe (docs/product.md#card-payments) on a real HTTP server, with events signed by
 * `stripe.webhooks.generateTestHeaderString`: bad/missing/stale signatures 400 and nothing written;
 * checkout.session.completed recorded once (duplicate event, replay with another event id, parallel
 * deliveries); charge.refunded by amount_refunded so far (twice, out of order); a dispute marks the
 * invoice Disputed and mails the admins; unknown invoice and unknown types 200 — on PGlite and PostgreSQL.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditEvent, invoice, mailOutbox, payments, unappliedPayment } from "#app/db/schema";
import { adminNextSteps } from "#app/features/dashboard/next-steps.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, snapshot } from "../../../tests/helpers/admin-data";
import { siteInvoice } from "../../../tests/helpers/billing";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { getInvoiceMoney } from "./balance.server";
import { stripeApiOptions, stripeWebhook } from "./stripe.server";
import { countOpenUnappliedPayments, listUnappliedPayments, resolveUnappliedPayment, UNAPPLIED_MESSAGES } from "./unapplied.server";

const SECRET = "whsec_test_secret_0123456789";
const env = { STRIPE_SECRET_KEY: "sk_test_0123456789", STRIPE_WEBHOOK_SECRET: SECRET };
const stripe = new Stripe(env.STRIPE_SECRET_KEY);

describe("STRIPE_API_URL", () => {
  it("becomes the SDK's host, port and protocol", () => {
    expect(stripeApiOptions("http://localhost:12111")).toEqual({ host: "localhost", port: 12111, protocol: "http" });
    expect(stripeApiOptions("https://stripe.example.com")).toEqual({ host: "stripe.example.com", port: 443, protocol: "https" });
    expect(stripeApiOptions(undefined)).toEqual({});
  });
});

describe.each(testDatabases())("stripe webhook on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let server: http.Server;
  let url: string;
  let invoiceId: number;

  beforeEach(async () => {
    const handler = stripeWebhook({ db: ctx.t.db, env });
    server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;
    const client = await makeClient(ctx.s);
    const proposalId = await insertProposal(ctx.t.db, { clientId: client.id, status: "in_progress" });
    ({ id: invoiceId } = await siteInvoice(ctx.t.db, ctx.admin, proposalId, "2030-01-01"));
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (event: object, opts: { secret?: string; timestamp?: number; header?: string | null } = {}) => {
    const payload = JSON.stringify(event);
    const header =
      opts.header === undefined
        ? stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, timestamp: opts.timestamp })
        : opts.header;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(header === null ? {} : { "stripe-signature": header }) },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as { outcome?: string } };
  };
  const completed = (
    id: string,
    amount: number,
    intent = "pi_1",
    metadata: Record<string, string> = { invoice_id: String(invoiceId) },
    currency = "usd",
  ) => ({
    id,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_${id}`,
        object: "checkout.session",
        payment_status: "paid",
        amount_total: amount,
        currency,
        payment_intent: intent,
        metadata,
      },
    },
  });
  const refunded = (id: string, amountRefunded: number, intent = "pi_1", currency = "usd") => ({
    id,
    object: "event",
    type: "charge.refunded",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: { id: `ch_${intent}`, object: "charge", payment_intent: intent, amount_refunded: amountRefunded, currency, metadata: {} },
    },
  });

  it("refuses unsigned, wrongly signed and stale events with 400 and writes nothing", async () => {
    const before = await snapshot(ctx.t.db);
    expect((await post(completed("evt_a", 30_000), { header: null })).status).toBe(400);
    expect((await post(completed("evt_a", 30_000), { secret: "whsec_wrong_wrong_wrong" })).status).toBe(400);
    expect((await post(completed("evt_a", 30_000), { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(400);
    expect((await post(completed("evt_a", 30_000), { header: "t=1,v1=deadbeef" })).status).toBe(400);
    expect(await snapshot(ctx.t.db)).toEqual(before);
  });

  it("records a card payment once: duplicate, replay under another event id, parallel deliveries", async () => {
    const { t } = ctx;
    expect(await post(completed("evt_1", 30_000))).toEqual({ status: 200, body: { received: true, outcome: "recorded" } });
    expect((await post(completed("evt_1", 30_000))).body.outcome).toBe("duplicate");
    expect((await post(completed("evt_2", 30_000))).body.outcome).toBe("duplicate");
    const parallel = await Promise.all(Array.from({ length: 5 }, (_, i) => post(completed(`evt_p${i}`, 20_000, "pi_2"))));
    expect(parallel.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(parallel.filter((r) => r.body.outcome === "recorded")).toHaveLength(1);
    const rows = await t.db.select().from(payments).where(eq(payments.invoiceId, invoiceId));
    expect(rows.map((r) => [r.amountCents, r.method, r.recordedBy, r.processorPaymentIntent])).toEqual([
      [30_000, "card", null, "pi_1"],
      [20_000, "card", null, "pi_2"],
    ]);
    expect(await getInvoiceMoney(t.db, invoiceId)).toMatchObject({ paidCents: 50_000, balanceCents: 50_000, status: "partial" });
  });

  it("records refunds by amount refunded so far, in any order and once", async () => {
    const { t } = ctx;
    await post(completed("evt_1", 30_000));
    // A refund before its payment is known would be retried: here the payment is known.
    expect((await post(refunded("evt_r2", 15_000))).body.outcome).toBe("recorded"); // the later event arrives first
    expect((await post(refunded("evt_r1", 10_000))).body.outcome).toBe("duplicate"); // the earlier one: nothing new
    expect((await post(refunded("evt_r2", 15_000))).body.outcome).toBe("duplicate");
    expect((await post(refunded("evt_r3", 30_000))).body.outcome).toBe("recorded");
    const refunds = await t.db.select({ amount: payments.amountCents }).from(payments).where(eq(payments.invoiceId, invoiceId));
    expect(refunds.map((r) => r.amount)).toEqual([30_000, -15_000, -15_000]);
    expect(await getInvoiceMoney(t.db, invoiceId)).toMatchObject({ paidCents: 30_000, refundedCents: 30_000, balanceCents: 70_000 });
  });

  it("keeps aside, as paid, a payment in another currency, one with nothing due and the part above the balance: 200, mailed, on the dashboard, refundable (issue #36)", async () => {
    const { t, admin } = ctx;
    const held = () => t.db.select().from(unappliedPayment).orderBy(unappliedPayment.id);
    // Another currency than Settings' (USD): not applied, never 503.
    expect(await post(completed("evt_eur", 50_000, "pi_eur", undefined, "eur"))).toEqual({
      status: 200,
      body: { received: true, outcome: "held" },
    });
    expect((await post(completed("evt_eur", 50_000, "pi_eur", undefined, "eur"))).body.outcome).toBe("duplicate");
    expect((await post(completed("evt_eur2", 50_000, "pi_eur", undefined, "eur"))).body.outcome).toBe("duplicate");
    expect(await getInvoiceMoney(t.db, invoiceId)).toMatchObject({ paidCents: 0, balanceCents: 100_000 });
    // Above the balance: 90,000 then 20,000 → 10,000 applied, 10,000 kept aside.
    expect((await post(completed("evt_1", 90_000, "pi_1"))).body.outcome).toBe("recorded");
    expect((await post(completed("evt_2", 20_000, "pi_2"))).body.outcome).toBe("recorded");
    // Nothing due now: the whole payment is kept aside.
    expect((await post(completed("evt_3", 5_000, "pi_3"))).body.outcome).toBe("held");
    expect((await held()).map((r) => [r.reason, r.amountCents, r.currency, r.processorPaymentIntent])).toEqual([
      ["other-currency", 50_000, "EUR", "pi_eur"],
      ["above-balance", 10_000, "USD", "pi_2"],
      ["nothing-due", 5_000, "USD", "pi_3"],
    ]);
    expect(await getInvoiceMoney(t.db, invoiceId)).toMatchObject({ paidCents: 100_000, balanceCents: 0, status: "paid" });
    const subjects = (await t.db.select({ subject: mailOutbox.subject }).from(mailOutbox)).map((m) => m.subject);
    expect(subjects.filter((x) => x.includes("to review"))).toHaveLength(3);
    expect(await countOpenUnappliedPayments(t.db)).toBe(3);
    expect((await adminNextSteps(t.db, admin)).find((step) => step.key === "card-payments-to-review")?.title).toBe(
      "3 card payments to review",
    );

    // Their refunds are counted, never 503: the part kept aside first, then the applied payment.
    expect(await post(refunded("evt_r_eur", 50_000, "pi_eur", "eur"))).toEqual({
      status: 200,
      body: { received: true, outcome: "recorded" },
    });
    expect((await post(refunded("evt_r_eur", 50_000, "pi_eur", "eur"))).body.outcome).toBe("duplicate");
    expect((await post(refunded("evt_r3", 5_000, "pi_3"))).body.outcome).toBe("recorded");
    expect((await post(refunded("evt_r2", 15_000, "pi_2"))).body.outcome).toBe("recorded");
    expect((await post(refunded("evt_r2b", 15_000, "pi_2"))).body.outcome).toBe("duplicate");
    expect((await held()).map((r) => r.refundedCents)).toEqual([50_000, 10_000, 5_000]);
    const refunds = await t.db.select({ amount: payments.amountCents }).from(payments).where(eq(payments.invoiceId, invoiceId));
    expect(refunds.map((r) => r.amount)).toEqual([90_000, 10_000, -5_000]);

    // An admin marks one resolved with what was done (audited); nobody else may, and not twice.
    const [first] = await held();
    const client = await makeClient(ctx.s);
    await expect(resolveUnappliedPayment(t.db, client, first!.id, "x")).rejects.toMatchObject({ status: 403 });
    await expect(resolveUnappliedPayment(t.db, admin, first!.id, "  ")).rejects.toMatchObject({
      status: 400,
      fieldErrors: { resolution: [UNAPPLIED_MESSAGES.resolutionRequired] },
    });
    await resolveUnappliedPayment(t.db, admin, first!.id, "Refunded in Stripe");
    await expect(resolveUnappliedPayment(t.db, admin, first!.id, "again")).rejects.toMatchObject({ status: 409 });
    await expect(resolveUnappliedPayment(t.db, admin, 2_147_483_647, "x")).rejects.toMatchObject({ status: 404 });
    expect(await countOpenUnappliedPayments(t.db)).toBe(2);
    const list = await listUnappliedPayments(t.db, admin);
    expect(list.map((r) => [r.processorPaymentIntent, r.resolution])).toEqual([
      ["pi_3", null],
      ["pi_2", null],
      ["pi_eur", "Refunded in Stripe"],
    ]);
    const audits = await t.db.select().from(auditEvent).where(eq(auditEvent.entity, "unapplied-payment"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "resolved", actorId: admin.id });
  });

  it("a dispute marks the invoice Disputed and mails the admins; unknown invoices and types answer 200", async () => {
    const { t } = ctx;
    await post(completed("evt_1", 30_000));
    const dispute = {
      id: "evt_d",
      object: "event",
      type: "charge.dispute.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "dp_1", object: "dispute", payment_intent: "pi_1", amount: 30_000, currency: "usd", reason: "fraudulent" } },
    };
    expect((await post(dispute)).body.outcome).toBe("disputed");
    expect((await post(dispute)).body.outcome).toBe("duplicate");
    const [row] = await t.db.select({ disputedAt: invoice.disputedAt }).from(invoice).where(eq(invoice.id, invoiceId));
    expect(row!.disputedAt).toBeInstanceOf(Date);
    const mails = await t.db.select({ subject: mailOutbox.subject }).from(mailOutbox);
    expect(mails.filter((m) => m.subject.startsWith("Card payment disputed"))).toHaveLength(1);
    expect(await post(completed("evt_x", 100, "pi_x", { invoice_id: "999999" }))).toEqual({
      status: 200,
      body: { received: true, outcome: "unknown-invoice" },
    });
    expect((await post({ id: "evt_t", object: "event", type: "customer.created", created: 1, data: { object: {} } })).body.outcome).toBe(
      "ignored",
    );
  });
});
