/**
 * Automatic payment and dunning (issue #39, docs/product.md#automatic-payment) against the Stripe
 * stand-in (the official SDK pointed at it), with the injected clock, on PGlite and PostgreSQL:
 * a plan that charges automatically is paid when its invoice is issued (through the `autopay` job,
 * idempotency key per invoice and attempt); a declined card or one that needs authentication mails
 * the pay link, keeps the invoice due and is retried after 1, 3 and 7 days with a reminder each, then
 * stops and tells the admin; each state is applied once under 20 parallel deliveries of the same
 * webhook; a retried job sends the same key (one charge); no card → the invoice is mailed; a card
 * expiring before the next charge is mailed about a week ahead, once; a dispute flags the invoice
 * and the ambassador's commission.
 */
import { and, eq, like } from "drizzle-orm";
import type Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { billingCycle, invoice, invoiceAutopay, mailOutbox, payments, savedCard, settings, stripeCustomer } from "#app/db/schema";
import { runDueJobs } from "#app/features/jobs/jobs.server";
import { handleStripeEvent } from "#app/features/payments/stripe.server";
import { manualClock, type ManualClock } from "#app/lib/clock.server";
import { testDatabases } from "../../../tests/helpers/db";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { startStripeStandIn, type StripeStandIn, type TestCard } from "../../../tests/e2e/stripe-stand-in";
import { autopayNotice, runAutopayCharge, sendCardExpiryNotices, type AutopayJobData } from "./autopay.server";
import { runBillingJob } from "./billing-job.server";
import { issueDueCycles } from "./issue-cycles.server";
import { createBillingPlan } from "./plans.server";
import { organisationOf, planInput } from "../../../tests/helpers/billing";

describe.each(testDatabases())("automatic payment on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let standIn: StripeStandIn;
  let env: { STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string; STRIPE_API_URL: string };
  let clock: ManualClock;

  beforeEach(async () => {
    standIn = await startStripeStandIn();
    env = { STRIPE_SECRET_KEY: "sk_test_autopay_0123", STRIPE_WEBHOOK_SECRET: "whsec_autopay_0123", STRIPE_API_URL: standIn.url };
    clock = manualClock("2026-03-02T15:00:00Z");
  });
  afterEach(() => standIn.close());

  /** A client organisation with a saved test card and an automatic monthly plan starting today. */
  async function setup(card: TestCard | null, over: { startDate?: string; expMonth?: number; expYear?: number } = {}) {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const organisationId = await organisationOf(t.db, client);
    if (card) {
      const customer = `cus_test_org_${organisationId}`;
      const pm = standIn.addPaymentMethod(card, customer);
      await t.db.insert(stripeCustomer).values({ organisationId, customerId: customer });
      await t.db.insert(savedCard).values({
        organisationId,
        customerId: customer,
        paymentMethodId: pm.id,
        setupIntentId: `seti_for_${pm.id}`,
        setupCreated: new Date(),
        brand: "visa",
        last4: pm.card!.last4,
        expMonth: over.expMonth ?? 12,
        expYear: over.expYear ?? 2030,
      });
    }
    const plan = await createBillingPlan(
      t.db,
      admin,
      planInput(organisationId, {
        name: "Hosting",
        items: [{ description: "Hosting", amountCents: 20_000 }],
        startDate: over.startDate ?? "2026-03-02",
        autopay: true,
      }),
      clock,
    );
    return { client, organisationId, plan };
  }

  const runCharges = () =>
    runDueJobs<AutopayJobData>(ctx.t.db, "autopay", (job) => runAutopayCharge(ctx.t.db, env, job.data.invoiceId, clock));
  const issuedInvoice = async (planId: number) => {
    const [row] = await ctx.t.db.select({ id: billingCycle.invoiceId }).from(billingCycle).where(eq(billingCycle.planId, planId));
    return row!.id!;
  };
  const autopayRow = async (invoiceId: number) =>
    (await ctx.t.db.select().from(invoiceAutopay).where(eq(invoiceAutopay.invoiceId, invoiceId)))[0]!;
  const mailsTo = (email: string, subject: string) =>
    ctx.t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, `${subject}%`)));
  const lastEvent = (type: string) => [...standIn.events].reverse().find((e) => e.type === type) as unknown as Stripe.Event;
  const race = async (event: Stripe.Event) => Promise.all(Array.from({ length: 20 }, () => handleStripeEvent(ctx.t.db, event)));

  it("charges the saved card when the invoice is issued: paid, one payment, the succeeded webhook 20 times changes nothing", async () => {
    const { t } = ctx;
    const { client, plan } = await setup("succeed");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(1);
    const invoiceId = await issuedInvoice(plan.id);
    expect(await autopayRow(invoiceId)).toMatchObject({ state: "queued", attempts: 0 });
    expect(await mailsTo(client.email, "New invoice")).toHaveLength(1);
    expect((await mailsTo(client.email, "New invoice"))[0]!.text).toContain("charged to your saved card (Visa •••• 4242)");

    expect(await runCharges()).toEqual({ done: 1, failed: 0 });
    const charge = standIn.calls.filter((c) => c.path === "/v1/payment_intents");
    expect(charge).toHaveLength(1);
    expect(charge[0]!.idempotencyKey).toBe(`autopay-invoice-${invoiceId}-1`);
    expect(charge[0]!.body.get("off_session")).toBe("true");
    expect(charge[0]!.body.get("amount")).toBe("20000");
    const [paid] = await t.db.select().from(invoice).where(eq(invoice.id, invoiceId));
    expect(paid!.status).toBe("paid");
    expect(await autopayRow(invoiceId)).toMatchObject({ state: "succeeded", attempts: 1, failures: 0 });

    const outcomes = await race(lastEvent("payment_intent.succeeded"));
    expect(new Set(outcomes)).toEqual(new Set(["duplicate"]));
    const rows = await t.db.select().from(payments).where(eq(payments.invoiceId, invoiceId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountCents: 20_000, method: "card", processorPaymentIntent: expect.stringMatching(/^pi_/) });

    // A refund and a dispute of the automatic payment go through the same rules as Checkout's.
    const intent = rows[0]!.processorPaymentIntent!;
    const refund = {
      id: "evt_refund_1",
      object: "event",
      type: "charge.refunded",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "ch_1", object: "charge", payment_intent: intent, amount_refunded: 5_000, currency: "usd", metadata: {} } },
    };
    expect(new Set(await race(refund as unknown as Stripe.Event))).toEqual(new Set(["recorded", "duplicate"]));
    expect(await t.db.select().from(payments).where(eq(payments.invoiceId, invoiceId))).toHaveLength(2);
    const dispute = {
      id: "evt_dispute_1",
      object: "event",
      type: "charge.dispute.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "dp_1", object: "dispute", payment_intent: intent, amount: 15_000, currency: "usd", reason: "fraudulent" } },
    };
    const disputes = await race(dispute as unknown as Stripe.Event);
    expect(disputes.filter((o) => o === "disputed")).toHaveLength(1);
    expect((await t.db.select().from(invoice).where(eq(invoice.id, invoiceId)))[0]!.disputedAt).not.toBeNull();
  });

  it("a declined card: pay-link mail, invoice due, retries after 1, 3 and 7 days with a reminder each, then stops and tells the admin — each failure once under 20 webhooks", async () => {
    const { t } = ctx;
    const { client, plan } = await setup("declined");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    const invoiceId = await issuedInvoice(plan.id);
    await runCharges();
    expect(await autopayRow(invoiceId)).toMatchObject({
      state: "retry_scheduled",
      attempts: 1,
      failures: 1,
      nextRetryAt: new Date("2026-03-03T15:00:00Z"),
    });
    expect((await t.db.select().from(invoice).where(eq(invoice.id, invoiceId)))[0]!.status).toBe("unpaid");
    const [first] = await mailsTo(client.email, "Payment of invoice");
    expect(first!.text).toContain("Your card was declined");
    expect(first!.text).toContain("/i/"); // the signed pay link
    expect(first!.text).toContain("We will try your card again on Mar 3, 2026");
    // The invoice's page says it too (client and admin).
    expect(await autopayNotice(t.db, invoiceId)).toMatch(
      /^Automatic payment failed: the card was declined.*We will try the saved card again on Mar 3, 2026/,
    );

    expect(new Set(await race(lastEvent("payment_intent.payment_failed")))).toEqual(new Set(["duplicate"]));
    expect(await mailsTo(client.email, "Payment of invoice")).toHaveLength(1);

    // Not yet due: nothing. Then each retry day: one more charge, one reminder.
    clock.set("2026-03-03T14:59:00Z");
    expect((await runBillingJob(t.db, clock, { cardPayments: true })).retries).toBe(0);
    const expected: Array<[string, number, string | null]> = [
      ["2026-03-03T15:00:00Z", 2, "2026-03-05T15:00:00.000Z"],
      ["2026-03-05T15:00:00Z", 3, "2026-03-09T15:00:00.000Z"],
      ["2026-03-09T15:00:00Z", 4, null],
    ];
    for (const [at, attempt, next] of expected) {
      clock.set(at);
      expect((await runBillingJob(t.db, clock, { cardPayments: true })).retries).toBe(1);
      expect((await runBillingJob(t.db, clock, { cardPayments: true })).retries).toBe(0);
      await runCharges();
      const row = await autopayRow(invoiceId);
      expect(row).toMatchObject({ attempts: attempt, failures: attempt, state: next ? "retry_scheduled" : "stopped" });
      expect(row.nextRetryAt?.toISOString() ?? null).toBe(next);
      expect(new Set(await race(lastEvent("payment_intent.payment_failed")))).toEqual(new Set(["duplicate"]));
    }
    expect(standIn.calls.filter((c) => c.path === "/v1/payment_intents").map((c) => c.idempotencyKey)).toEqual(
      [1, 2, 3, 4].map((n) => `autopay-invoice-${invoiceId}-${n}`),
    );
    expect(await mailsTo(client.email, "Reminder: invoice")).toHaveLength(3);
    const [stopped] = await t.db.select().from(mailOutbox).where(like(mailOutbox.subject, "Automatic payment of % stopped%"));
    expect(stopped).toBeDefined();
    expect(await autopayNotice(t.db, invoiceId)).toMatch(
      /^Automatic payment failed 4 times .* will not be tried again\. The invoice stays due\.$/,
    );
    clock.set("2026-04-01T15:00:00Z");
    await runBillingJob(t.db, clock, { cardPayments: true });
    await runCharges();
    expect(standIn.calls.filter((c) => c.path === "/v1/payment_intents")).toHaveLength(4);
  });

  it("a card that needs authentication: the pay link, the requires_action webhook applied once; a retry after the client paid by link charges nothing", async () => {
    const { t, admin } = ctx;
    const { client, plan } = await setup("requires_action");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    const invoiceId = await issuedInvoice(plan.id);
    await runCharges();
    expect(await autopayRow(invoiceId)).toMatchObject({ state: "retry_scheduled", lastFailure: "requires_action", failures: 1 });
    const [mail] = await mailsTo(client.email, "Payment of invoice");
    expect(mail!.text).toContain("Your bank asked to confirm the payment");
    const failed = lastEvent("payment_intent.payment_failed");
    const requiresAction = { ...failed, id: "evt_requires_action_1", type: "payment_intent.requires_action" } as Stripe.Event;
    expect(new Set(await race(requiresAction))).toEqual(new Set(["duplicate"]));

    // The client pays by link (recorded as any payment); the retry day finds nothing due.
    const { recordFullPayment } = await import("#app/features/payments/record-payment.server");
    await recordFullPayment(t.db, admin, invoiceId, { method: "card", receivedAt: clock.now() });
    clock.set("2026-03-03T15:00:00Z");
    await runBillingJob(t.db, clock, { cardPayments: true });
    await runCharges();
    expect(await autopayRow(invoiceId)).toMatchObject({ state: "settled" });
    expect(standIn.calls.filter((c) => c.path === "/v1/payment_intents")).toHaveLength(1);
  });

  it("a job retried after a crash sends the same key: Stripe answers the same intent, one payment", async () => {
    const { t } = ctx;
    const { plan } = await setup("succeed");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    const invoiceId = await issuedInvoice(plan.id);
    await runCharges();
    // As if the process died after Stripe answered and before anything else: the row says charging.
    await t.db.update(invoiceAutopay).set({ state: "charging" }).where(eq(invoiceAutopay.invoiceId, invoiceId));
    expect(await runAutopayCharge(t.db, env, invoiceId, clock)).toBe("settled");
    const keys = standIn.calls.filter((c) => c.path === "/v1/payment_intents").map((c) => c.idempotencyKey);
    expect(keys).toEqual([`autopay-invoice-${invoiceId}-1`]);
    expect(await t.db.select().from(payments).where(eq(payments.invoiceId, invoiceId))).toHaveLength(1);
  });

  it("without a saved card the invoice is mailed to pay by link; a card removed before the charge falls back the same way", async () => {
    const { t } = ctx;
    const { client, plan } = await setup(null);
    await issueDueCycles(t.db, clock, { cardPayments: true });
    const invoiceId = await issuedInvoice(plan.id);
    expect(await t.db.select().from(invoiceAutopay)).toHaveLength(0);
    const [mail] = await mailsTo(client.email, "New invoice");
    expect(mail!.text).toContain("View and pay your invoice");
    expect(await runCharges()).toEqual({ done: 0, failed: 0 });
    expect((await t.db.select().from(invoice).where(eq(invoice.id, invoiceId)))[0]!.status).toBe("unpaid");

    const other = await setup("succeed");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    await t.db.delete(savedCard).where(eq(savedCard.organisationId, other.organisationId));
    await runCharges();
    const otherInvoice = await issuedInvoice(other.plan.id);
    expect(await autopayRow(otherInvoice)).toMatchObject({ state: "no_card" });
    expect(await mailsTo(other.client.email, `Invoice`)).toHaveLength(1);
    expect(standIn.calls.filter((c) => c.path === "/v1/payment_intents")).toHaveLength(0);
  });

  it("a card expiring before the next charge is mailed a week ahead, once", async () => {
    const { t } = ctx;
    await t.db.insert(settings).values({ id: 1, timeZone: "UTC" });
    // Card valid through March 2026; the plan's next charge is on April 2.
    const { client } = await setup("succeed", { startDate: "2026-04-02", expMonth: 3, expYear: 2026 });
    const valid = await setup("succeed", { startDate: "2026-04-02", expMonth: 4, expYear: 2026 });
    clock.set("2026-03-25T12:00:00Z");
    expect(await sendCardExpiryNotices(t.db, clock)).toBe(0);
    clock.set("2026-03-26T12:00:00Z");
    expect(await sendCardExpiryNotices(t.db, clock)).toBe(1);
    expect(await sendCardExpiryNotices(t.db, clock)).toBe(0);
    const [mail] = await mailsTo(client.email, "Your saved card expires");
    expect(mail!.text).toContain("Visa •••• 4242 expires at the end of 03/2026");
    expect(await mailsTo(valid.client.email, "Your saved card expires")).toHaveLength(0);
  });
});
