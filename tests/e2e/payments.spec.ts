/**
 * Payments on invoices with card checkout (docs/product.md#payments, #deposits, #card-payments,
 * issue #25), on an app instance of its own pointed at a local Stripe stand-in (STRIPE_API_URL):
 * the admin sets a 30 % deposit; the client pays it by card — the stand-in answers the Checkout
 * Session request, the test posts `checkout.session.completed` signed with
 * `stripe.webhooks.generateTestHeaderString` twice and once more out of order — Partially paid with
 * the right balance and one payment; the admin records a bank transfer for the rest (Paid), then a
 * partial refund of it (still Paid, a "Refunded" line, balance 0). The proposal is an ambassador's
 * (they submitted it and referred the client; approved at 15 %): their earnings show +15 % for each
 * payment and −15 % for the refund (rounded half up per entry), Pending during the hold, Payable once
 * it has passed, Paid out after the admin's payout (docs/product.md#commissions-ledger). A wrongly
 * signed webhook answers 400 and changes nothing.
 */
import type { Page } from "@playwright/test";
import Stripe from "stripe";
import { expect, hydrated, loginAsAdmin, mailTo, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { createPayout, passCommissionHold } from "./ledger";
import { startStripeStandIn } from "./stripe-stand-in";

const WEBHOOK_SECRET = "whsec_e2e_payments_secret_0123456789";
const SECRET_KEY = "sk_test_e2e_payments_0123456789";
const stripe = new Stripe(SECRET_KEY);

test.describe("payments with card checkout", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000);
    standIn = await startStripeStandIn();
    app = await startIsolatedApp("payments", {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
  });
  test.afterAll(async () => {
    await app?.stop();
    await standIn?.close();
  });

  const postEvent = async (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const res = await fetch(`${app.baseUrl}/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as { outcome?: string } };
  };
  const paymentRows = async (invoiceId: number) =>
    (await app.sql.query("select amount_cents, method, refund_of from payments where invoice_id = $1 order by id", [invoiceId])).rows as {
      amount_cents: number;
      method: string;
      refund_of: number | null;
    }[];

  test("deposit by card through the stand-in and the signed webhook, bank transfer for the rest, partial refund, the ambassador's commissions paid out", async ({
    browser,
  }) => {
    const ambassadorPage = await newUserPage(browser, { baseURL: app.baseUrl });
    const ambassador = await registerAmbassador(ambassadorPage, { name: "Carla Card" });
    const client = await newUserPage(browser, { baseURL: app.baseUrl });
    const account = await registerClient(client, { businessName: "Card Bakery", referralCode: ambassador.referralCode });
    const userId = async (email: string) => (await app.sql.query('select id from "user" where email = $1', [email])).rows[0].id as string;
    const ambassadorId = await userId(ambassador.email);
    // The ambassador's proposal for the client they referred, approved by the client (rate frozen at 15 %).
    const { rows: proposals } = await app.sql.query(
      `insert into proposal (client_id, source, status, project_name, project_details, ambassador_id, client_name, client_email, client_approved_at, commission_rate_bps)
       values ($1, 'ambassador', 'in_progress', 'Shop site', 'x', $2, 'Card Bakery', $3, now(), 1500) returning id`,
      [await userId(account.email), ambassadorId, account.email],
    );
    const { rows: invoices } = await app.sql.query(
      `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents)
       values ('INV-2026-7001', $1, $2, current_date + 30, 'unpaid', 100000) returning id`,
      [proposals[0].id, await userId(account.email)],
    );
    const invoiceId = invoices[0].id as number;
    await app.sql.query("insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Shop', 100000)", [
      invoiceId,
    ]);

    // The admin asks for a 30 % deposit.
    const admin: Page = await newUserPage(browser, { baseURL: app.baseUrl });
    await loginAsAdmin(admin);
    await admin.goto(`/admin/invoices/${invoiceId}/payments`);
    await hydrated(admin);
    const deposit = admin.locator("form#set-deposit");
    await deposit.getByLabel("Deposit asked").selectOption("percent");
    await deposit.getByLabel("Deposit (percent or amount)").fill("30");
    await deposit.getByRole("button", { name: "Save deposit" }).click();
    await expect(admin.getByText("Deposit set to $300.00.")).toBeVisible();

    // The client pays the deposit by card: the server asks the stand-in for a Checkout Session and redirects to it.
    await client.goto(`/view-invoice/${invoiceId}`);
    await hydrated(client);
    await expect(client.getByTestId("amount-due")).toHaveText("$300.00");
    await expect(client.getByText("Deposit due now")).toBeVisible();
    await client.getByRole("button", { name: "Pay $300.00 by card" }).click();
    await expect(client.getByRole("heading", { name: "Stand-in checkout" })).toBeVisible();
    expect(standIn.requests).toHaveLength(1);
    const asked = standIn.requests[0]!;
    expect(asked.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(asked.idempotencyKey).toMatch(new RegExp(`^checkout-invoice-${invoiceId}-[0-9a-f]{64}$`));
    expect(Object.fromEntries(asked.body)).toMatchObject({
      mode: "payment",
      customer_email: account.email,
      "metadata[invoice_id]": String(invoiceId),
      "line_items[0][price_data][unit_amount]": "30000",
      "line_items[0][price_data][currency]": "usd",
    });
    expect(asked.body.get("success_url")).toMatch(new RegExp(`/view-invoice/${invoiceId}\\?payment=processing$`));
    expect(asked.body.get("payment_intent_data[metadata][invoice_id]")).toBe(String(invoiceId));

    // Back on the invoice before the webhook: "Payment processing".
    await client.goto(`/view-invoice/${invoiceId}?payment=processing`);
    await expect(client.getByText(/Payment processing/)).toBeVisible();

    // A wrongly signed event: 400, nothing written.
    const completed = (id: string, created: number) => ({
      id,
      object: "event",
      type: "checkout.session.completed",
      created,
      data: {
        object: {
          id: "cs_test_1",
          object: "checkout.session",
          payment_status: "paid",
          amount_total: 30_000,
          currency: "usd",
          payment_intent: "pi_e2e_1",
          metadata: { invoice_id: String(invoiceId) },
        },
      },
    });
    const now = Math.floor(Date.now() / 1000);
    expect((await postEvent(completed("evt_e2e_1", now), "whsec_wrong_secret_wrong_secret")).status).toBe(400);
    expect(await paymentRows(invoiceId)).toEqual([]);

    // The signed event twice, and an older duplicate delivered out of order: one payment.
    expect(await postEvent(completed("evt_e2e_1", now))).toEqual({ status: 200, body: { received: true, outcome: "recorded" } });
    expect((await postEvent(completed("evt_e2e_1", now))).body.outcome).toBe("duplicate");
    expect((await postEvent(completed("evt_e2e_0", now - 60))).body.outcome).toBe("duplicate");
    expect(await paymentRows(invoiceId)).toEqual([{ amount_cents: 30_000, method: "card", refund_of: null }]);

    await client.goto(`/view-invoice/${invoiceId}`);
    await expect(client.getByText("Partially paid", { exact: true })).toBeVisible();
    await expect(client.getByTestId("balance-due")).toHaveText("$700.00");
    await expect(client.getByTestId("amount-due")).toHaveText("$700.00");
    await expect(client.getByRole("button", { name: "Pay $700.00 by card" })).toBeVisible();

    // The admin records a bank transfer for the rest (the amount defaults to the balance): Paid.
    await admin.goto(`/admin/invoices/${invoiceId}/payments`);
    await hydrated(admin);
    const pay = admin.locator("form#record-payment");
    await expect(pay.getByLabel("Amount")).toHaveValue("700.00");
    await pay.getByLabel("Method").selectOption("bank_transfer");
    await pay.getByLabel("Reference (optional)").fill("TRF-42");
    await pay.getByRole("button", { name: "Record payment" }).click();
    await expect(admin.getByText("Payment of $700.00 recorded. New balance: $0.00.")).toBeVisible();

    // A partial refund of the bank transfer ($200.10: its commission rounds half up): still Paid, balance 0, a "Refunded" line.
    const refund = admin.locator("form#record-refund");
    const { rows: transfer } = await app.sql.query("select id from payments where invoice_id = $1 and method = 'bank_transfer'", [
      invoiceId,
    ]);
    await refund.getByLabel("Payment refunded").selectOption(String(transfer[0].id));
    await refund.getByLabel("Refund amount").fill("200.10");
    await refund.getByRole("button", { name: "Record refund" }).click();
    await expect(admin.getByText("Refund of $200.10 recorded. New balance: $0.00.")).toBeVisible();
    expect((await paymentRows(invoiceId)).map((p) => [p.amount_cents, p.method])).toEqual([
      [30_000, "card"],
      [70_000, "bank_transfer"],
      [-20_010, "bank_transfer"],
    ]);

    await client.goto(`/view-invoice/${invoiceId}`);
    await expect(client.getByText("Paid", { exact: true })).toBeVisible();
    await expect(client.getByTestId("balance-due")).toHaveText("$0.00");
    await expect(client.getByRole("rowheader", { name: /^Refunded/ })).toBeVisible();
    await expect(client.getByRole("button", { name: /by card/ })).toHaveCount(0);
    await expect(client.getByRole("heading", { name: "How to pay" })).toHaveCount(0);

    // The receipt mail carries the signed link: it opens that invoice and its PDF without signing in, nothing else.
    const receipt = await mailTo(account.email, /Receipt: \$300\.00 paid on invoice INV-2026-7001/);
    const link = /\/i\/[A-Za-z0-9._-]+/.exec(receipt.text ?? "")?.[0];
    expect(link).toBeTruthy();
    const visitor = await newUserPage(browser, { baseURL: app.baseUrl });
    await visitor.goto(link!);
    await expect(visitor.getByRole("heading", { name: "Invoice INV-2026-7001" })).toBeVisible();
    await expect(visitor.getByTestId("balance-due")).toHaveText("$0.00");
    expect((await visitor.request.get(`${link}/pdf`)).headers()["content-type"]).toBe("application/pdf");
    expect((await visitor.request.get(`/view-invoice/${invoiceId}`, { maxRedirects: 0 })).status()).toBe(302);
    const [, , mac] = link!.split(".");
    expect((await visitor.request.get(`/i/${invoiceId + 1}.${link!.split(".")[1]}.${mac}`)).status()).toBe(404);
    const forged = await visitor.goto(`${link!.slice(0, -1)}${link!.endsWith("A") ? "B" : "A"}`);
    expect(forged?.status()).toBe(404);
    await expect(visitor.getByRole("link", { name: "Sign in" })).toBeVisible();

    // Another wrongly signed event after all that: 400 and nothing changes.
    const before = await paymentRows(invoiceId);
    expect((await postEvent(completed("evt_e2e_9", now), "whsec_wrong_secret_wrong_secret")).status).toBe(400);
    expect(await paymentRows(invoiceId)).toEqual(before);

    // The ambassador's ledger, newest first: −15 % of the refund, +15 % of the transfer, +15 % of the card
    // deposit (15 % × $200.10 = $30.015 → −$30.02, half up), each Pending during the 30-day hold.
    const [cardId, transferId, refundId] = (
      await app.sql.query("select id from payments where invoice_id = $1 order by id", [invoiceId])
    ).rows.map((r) => r.id as number);
    const expected: Array<[string, string]> = [
      [`Refund #${refundId} · -$200.10`, "-$30.02"],
      [`Payment #${transferId} · $700.00`, "$105.00"],
      [`Payment #${cardId} · $300.00`, "$45.00"],
    ];
    const ledger = ambassadorPage.getByRole("table", { name: "Commission ledger" });
    const expectLedger = async (state: "Pending" | "Payable" | "Paid out") => {
      await expect(ledger.getByRole("row")).toHaveCount(expected.length + 1);
      for (const [n, [payment, commission]] of expected.entries()) {
        const row = ledger.getByRole("row").nth(n + 1);
        await expect(row).toContainText("Card Bakery");
        await expect(row).toContainText("INV-2026-7001");
        await expect(row).toContainText(payment);
        await expect(row).toContainText("15%");
        await expect(row.getByRole("cell").nth(5)).toHaveText(commission);
        await expect(row).toContainText(state);
      }
    };
    await ambassadorPage.goto("/ambassador/earnings");
    await expectLedger("Pending");
    await expect(ambassadorPage.getByTestId("commission-pending")).toHaveText("$119.98");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$0.00");
    expect(
      (await app.sql.query("select amount_cents from commission_entries where invoice_id = $1 order by id", [invoiceId])).rows,
    ).toEqual([{ amount_cents: 4_500 }, { amount_cents: 10_500 }, { amount_cents: -3_002 }]);

    // The hold passes (it is fixed when an entry is made, so the entries' payable date moves into the past): Payable.
    await passCommissionHold(app.sql, ambassadorId);
    await ambassadorPage.reload();
    await expectLedger("Payable");
    await expect(ambassadorPage.getByTestId("commission-pending")).toHaveText("$0.00");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$119.98");

    // The admin pays them out; the ambassador sees every entry Paid out.
    await createPayout(admin, ambassador, "$119.98", "SEPA-CARD-1");
    await ambassadorPage.reload();
    await expectLedger("Paid out");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$0.00");
    await expect(ambassadorPage.getByTestId("commission-paid-out")).toHaveText("$119.98");
  });
});
