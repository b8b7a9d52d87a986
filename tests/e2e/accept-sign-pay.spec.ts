/**
 * Issue #37: accept → sign → pay the deposit in one sitting. With Stripe (the project's stand-in and
 * SDK-signed webhooks): the signing page says what happens, signing lands on Checkout, the webhook
 * records the card payment credited to the client, the proposal moves to "In progress" and the
 * dashboard says so. Without Stripe: the agency's instructions with the amount and the reference; the
 * admin records the transfer. Screenshots of the signing page, the pay-now step and the dashboard at
 * 390 and 1280 px (docs/screenshots/).
 */
import type { Page } from "@playwright/test";
import Stripe from "stripe";
import { expect, hydrated, loginAsAdmin, newUserPage, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { startStripeStandIn } from "./stripe-stand-in";

const WEBHOOK_SECRET = "whsec_e2e_accept_sign_pay_0123456789";
const SECRET_KEY = "sk_test_e2e_accept_sign_pay_0123456789";
const stripe = new Stripe(SECRET_KEY);

type App = Awaited<ReturnType<typeof startIsolatedApp>>;

/** The admin sends a $6,380.00 offer (two lines) with a 30 % deposit. @returns the proposal id. */
async function offerWithDeposit(app: App, admin: Page, clientEmail: string, project: string): Promise<number> {
  const { rows } = await app.sql.query(
    `insert into proposal (client_id, source, status, project_name, project_details)
     values ((select id from "user" where email = $1), 'client', 'pending', $2, 'A bakery site.') returning id`,
    [clientEmail, project],
  );
  const id = rows[0].id as number;
  await admin.goto(`/admin/proposals/${id}/offer`);
  await hydrated(admin);
  await admin.getByLabel("Scope of the work").fill("Design and build the bakery's site.");
  await admin.getByRole("button", { name: "+ Add item" }).click();
  await admin.getByLabel("Item 1 description").fill("Design");
  await admin.getByLabel("Item 1 quantity").fill("1");
  await admin.getByLabel("Item 1 unit price").fill("2,380");
  await admin.getByLabel("Item 2 description").fill("Pages");
  await admin.getByLabel("Item 2 quantity").fill("4");
  await admin.getByLabel("Item 2 unit price").fill("1,000");
  await expect(admin.getByTestId("offer-total")).toHaveText("$6,380.00");
  await admin.getByLabel("Deposit", { exact: true }).selectOption("percent");
  await admin.getByLabel("Deposit amount or percentage").fill("30");
  await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 1 sent to the client.");
  return id;
}

async function sign(client: Page, id: number, name: string) {
  await client.getByLabel("Your full name").fill(name);
  await client.getByLabel("I have read and agree to these terms").check();
  await client.getByRole("button", { name: "Accept version 1 and sign" }).click();
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `docs/screenshots/37-${name}-${width}.png`, fullPage: false, scale: "css" });
  }
}

/** The pages a test opened on its own app, closed before the app stops (else their background fetches fail loudly). */
const openPages: Page[] = [];
function opened(page: Page): Page {
  openPages.push(page);
  return page;
}
async function closePages() {
  for (const page of openPages.splice(0)) await page.context().close();
}

test.describe("accept, sign, pay", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });

  test("with Stripe: signing lands on Checkout, the webhook pays the deposit, the work starts", async ({ browser }) => {
    const standIn = await startStripeStandIn();
    const app = await startIsolatedApp("accept-pay-card", {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
    try {
      const client = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      const account = await registerClient(client, { businessName: "Card Bakery" });
      const admin = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      await loginAsAdmin(admin);
      const id = await offerWithDeposit(app, admin, account.email, "Card bakery site");

      // The signing page says beforehand what happens.
      await client.goto(`/proposals/${id}/accept`);
      await hydrated(client);
      await expect(client.getByTestId("after-signing")).toHaveText(
        /^After you sign, you pay the deposit: Pay \$1,914\.00 now \(deposit\)\. The remaining \$4,466\.00 is due by .+\. You go straight to a secure card payment page\.$/,
      );
      await shoot(client, "signing");
      await client.setViewportSize({ width: 390, height: 844 });
      await sign(client, id, "Ann Card");
      await expect(client.getByRole("heading", { name: "Stand-in checkout" })).toBeVisible();
      const { rows: invoices } = await app.sql.query(`select id, number, total_cents, deposit_cents from invoice where proposal_id = $1`, [
        id,
      ]);
      expect(invoices).toEqual([expect.objectContaining({ total_cents: 638_000, deposit_cents: 191_400 })]);
      const invoiceId = invoices[0].id as number;
      const asked = standIn.requests.at(-1)!;
      expect(asked.body.get("line_items[0][price_data][unit_amount]")).toBe("191400");
      expect(asked.body.get("metadata[invoice_id]")).toBe(String(invoiceId));
      expect(asked.body.get("customer_email")).toBe(account.email);
      expect((await app.sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("planning");

      // Stripe reports the payment (SDK-signed webhook).
      const event = {
        id: `evt_accept_${invoiceId}`,
        object: "event",
        type: "checkout.session.completed",
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: "cs_accept_1",
            object: "checkout.session",
            payment_status: "paid",
            amount_total: 191_400,
            currency: "usd",
            payment_intent: `pi_accept_${invoiceId}`,
            customer_email: account.email,
            metadata: { invoice_id: String(invoiceId) },
          },
        },
      };
      const payload = JSON.stringify(event);
      const res = await fetch(`${app.baseUrl}/webhooks/stripe`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
        body: payload,
      });
      expect(res.status).toBe(200);

      // Deposit paid: In progress; the payment is credited to the client who paid, in the thread too.
      expect((await app.sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("in_progress");
      const { rows: audit } = await app.sql.query(
        `select a.actor_email from audit_event a where a.entity = 'invoice' and a.entity_id = $1 and a.action = 'payment-recorded'`,
        [String(invoiceId)],
      );
      expect(audit).toEqual([{ actor_email: account.email }]);
      await client.goto(`/view-invoice/${invoiceId}`);
      await expect(client.getByTestId("amount-due")).toHaveText("$4,466.00");
      await client.goto(`/proposals/${id}`);
      await expect(client.getByText("In progress", { exact: true }).first()).toBeVisible();
      // The dashboard's balance: what remains after the deposit, on one unpaid invoice.
      await client.goto("/client-dashboard");
      await expect(client.getByTestId("balance-outstanding")).toContainText("$4,466.00");
      await expect(client.getByTestId("balance-outstanding")).toContainText("1 unpaid invoice");
      await shoot(client, "dashboard");
    } finally {
      await closePages();
      await app.stop();
      await standIn.close();
    }
  });

  test("without Stripe: the instructions with amount and reference; the admin records the transfer", async ({ browser }) => {
    const app = await startIsolatedApp("accept-pay-transfer");
    try {
      await app.sql.query(
        `insert into settings (id, payment_instructions) values (1, $1) on conflict (id) do update set payment_instructions = excluded.payment_instructions`,
        ["Bank transfer to IBAN DE89 3704 0044 0532 0130 00."],
      );
      const client = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      const account = await registerClient(client, { businessName: "Transfer Bakery" });
      const admin = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      await loginAsAdmin(admin);
      const id = await offerWithDeposit(app, admin, account.email, "Transfer bakery site");

      await client.goto(`/proposals/${id}/accept`);
      await hydrated(client);
      await expect(client.getByTestId("after-signing")).toContainText(
        "The agency's payment instructions are shown next, with the amount and the reference to use.",
      );
      await sign(client, id, "Ann Transfer");
      await expect(client).toHaveURL(/\/view-invoice\/\d+\?signed=1$/);
      const invoiceId = Number(/view-invoice\/(\d+)/.exec(client.url())![1]);
      const number = (await app.sql.query(`select number from invoice where id = $1`, [invoiceId])).rows[0].number as string;
      await expect(client.getByText("You accepted and signed the offer.")).toBeVisible();
      await expect(client.getByTestId("payment-instructions")).toHaveText("Bank transfer to IBAN DE89 3704 0044 0532 0130 00.");
      await expect(client.getByTestId("payment-reference")).toHaveText(`Amount: $1,914.00 · Reference: ${number}`);
      await expect(client.getByTestId("deposit-sentence")).toContainText("Pay $1,914.00 now (deposit). The remaining $4,466.00 is due by");
      await shoot(client, "pay-now");
      // The dashboard's next step says what is true: the deposit to pay.
      await client.goto("/client-dashboard");
      await expect(client.getByText("Pay your deposit for “Transfer bakery site”", { exact: true })).toBeVisible();
      await expect(client.getByText(/Pay \$1,914\.00 now \(deposit\)\. The remaining \$4,466\.00 is due by/).first()).toBeVisible();

      // The admin records the transfer: the work starts.
      await admin.goto(`/admin/invoices/${invoiceId}/payments`);
      await hydrated(admin);
      const form = admin.locator("form#record-payment");
      await form.getByLabel("Amount").fill("1,914");
      await form.getByLabel("Method").selectOption("bank_transfer");
      await form.getByLabel(/Reference/).fill(number);
      await form.getByRole("button", { name: "Record payment" }).click();
      await expect(admin.getByText("Payment of $1,914.00 recorded.", { exact: false })).toBeVisible();
      expect((await app.sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("in_progress");
    } finally {
      await closePages();
      await app.stop();
    }
  });
});
