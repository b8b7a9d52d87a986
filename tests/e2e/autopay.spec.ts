/**
 * Saved cards and automatic payment (issue #39, docs/product.md#saved-cards, #automatic-payment) in
 * Chromium, on an app instance of its own pointed at the Stripe stand-in, whose signed webhooks go to
 * the app: the client saves a card on the stand-in's setup page and sees "Visa •••• 4242"; the admin
 * creates an automatic monthly plan starting today; the invoice is issued and charged without the
 * client doing anything — the client sees it Paid. A client whose card is declined gets the pay-link
 * mail, the invoice stays due and its page shows the retry schedule; a client who removes the card
 * gets the next cycle as a mailed invoice, nothing charged. Checked at 390 px with axe.
 */
import { axeBuilder } from "./axe";
import type { Browser, Page } from "@playwright/test";
import { expect, hydrated, loginAsAdmin, mailTo, newUserPage, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { startStripeStandIn, type StripeStandIn } from "./stripe-stand-in";

const WEBHOOK_SECRET = "whsec_e2e_autopay_secret_0123456789";

test.describe("saved cards and automatic payment", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let standIn: StripeStandIn;
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000);
    standIn = await startStripeStandIn();
    app = await startIsolatedApp("autopay", {
      STRIPE_SECRET_KEY: "sk_test_e2e_autopay_0123456789",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
    standIn.setWebhook(`${app.baseUrl}/webhooks/stripe`, WEBHOOK_SECRET);
  });
  test.afterAll(async () => {
    await app?.stop();
    await standIn?.close();
  });

  async function clientWithCard(browser: Browser, business: string, card: string) {
    const client = await newUserPage(browser, { baseURL: app.baseUrl });
    const account = await registerClient(client, { businessName: business });
    const { rows } = await app.sql.query(
      `select m.organisation_id as id from membership m join "user" u on u.id = m.user_id where u.email = $1`,
      [account.email],
    );
    await client.goto("/payment-method");
    await hydrated(client);
    await expect(client.getByText("No card saved.")).toBeVisible();
    await client.getByRole("button", { name: "Save a card" }).click();
    await expect(client.getByRole("heading", { name: "Stand-in checkout: save a card" })).toBeVisible();
    await client.getByLabel(card).check();
    await client.getByRole("button", { name: "Save card" }).click();
    await expect(client.getByText("Your card was saved.")).toBeVisible();
    return { client, account, organisationId: rows[0].id as number };
  }

  async function automaticPlan(admin: Page, organisationId: number, name: string) {
    await admin.goto(`/admin/billing-plans/new?organisation=${organisationId}`);
    await hydrated(admin);
    const form = admin.locator("form#billing-plan");
    await form.getByLabel("Plan name").fill(name);
    await form.getByLabel("Item 1 description").fill("Hosting");
    await form.getByLabel("Item 1 amount").fill("120");
    await form.getByLabel("Charge the saved card automatically").check();
    await form.getByRole("button", { name: "Create plan" }).click();
    await expect(admin.getByText(`Billing plan “${name}” created.`)).toBeVisible();
    await expect(admin.getByTestId("plan-payment")).toContainText("Charged to the organisation's saved card");
    await expect(async () => {
      await admin.reload();
      await expect(admin.getByRole("list", { name: "Invoices issued" }).getByRole("link")).toHaveCount(1);
    }).toPass({ timeout: 60_000 });
    return (await admin.getByRole("list", { name: "Invoices issued" }).getByRole("link").innerText()).trim();
  }

  test("the client saves a card; an automatic plan's invoice is charged and the client sees it paid", async ({ browser }) => {
    const { client, account, organisationId } = await clientWithCard(browser, "Autopay Bakery", "4242 4242 4242 4242");
    await expect(client.getByTestId("saved-card")).toContainText("Visa •••• 4242");
    await client.setViewportSize({ width: 390, height: 844 });
    const axe = await axeBuilder(client).analyze();
    expect(axe.violations).toEqual([]);
    const stored = await app.sql.query("select * from saved_card where organisation_id = $1", [organisationId]);
    expect(stored.rows[0]).toMatchObject({ brand: "visa", last4: "4242" });

    const admin = await newUserPage(browser, { baseURL: app.baseUrl });
    await loginAsAdmin(admin);
    const number = await automaticPlan(admin, organisationId, "Care plan");
    await mailTo(account.email, new RegExp(`New invoice ${number}`));

    await expect(async () => {
      await client.goto("/invoices");
      const card = client.getByRole("listitem").filter({ has: client.getByRole("link", { name: number, exact: true }) });
      await expect(card.getByText("Paid", { exact: true })).toBeVisible();
    }).toPass({ timeout: 60_000 });
    await expect(client.getByTestId("plan-preview")).toContainText("charged automatically to your Visa •••• 4242");
    const charges = standIn.calls.filter((c) => c.path === "/v1/payment_intents");
    expect(charges).toHaveLength(1);
    expect(charges[0]!.idempotencyKey).toMatch(/^autopay-invoice-\d+-1$/);

    // The client removes the card: the next cycle falls back to a mailed invoice, nothing charged.
    await client.goto("/payment-method");
    await hydrated(client);
    await client.getByRole("link", { name: "Remove card" }).click();
    await client.getByRole("button", { name: "Yes, remove the card" }).click();
    await expect(client.getByText("No card saved.")).toBeVisible();
    // The next cycle is due now (its date moved to today in the database, as if a month had passed).
    await app.sql.query("update billing_plan set next_cycle_on = current_date where organisation_id = $1", [organisationId]);
    // The billing sweep runs every minute: the second invoice is issued within about one.
    await expect
      .poll(
        async () =>
          (await app.sql.query("select count(*)::int as n from invoice where organisation_id = $1", [organisationId])).rows[0].n as number,
        { timeout: 150_000 },
      )
      .toBe(2);
    const [{ number: nextNumber }] = (
      await app.sql.query("select number from invoice where organisation_id = $1 order by id desc limit 1", [organisationId])
    ).rows as { number: string }[];
    await mailTo(account.email, new RegExp(`New invoice ${nextNumber}`));
    await client.goto("/invoices");
    const due = client.getByRole("listitem").filter({ has: client.getByRole("link", { name: nextNumber, exact: true }) });
    await expect(due.getByText("Unpaid", { exact: true })).toBeVisible();
    expect(standIn.calls.filter((c) => c.path === "/v1/payment_intents")).toHaveLength(1);
  });

  test("a declined card: the pay-link mail, the invoice stays due", async ({ browser }) => {
    const { client, account, organisationId } = await clientWithCard(browser, "Declined Bakery", "4000 0000 0000 0002");
    const admin = await newUserPage(browser, { baseURL: app.baseUrl });
    await loginAsAdmin(admin);
    const number = await automaticPlan(admin, organisationId, "Declined plan");
    const mail = await mailTo(account.email, new RegExp(`Payment of invoice ${number} failed`));
    expect(mail.text).toContain("Your card was declined");
    expect(mail.text).toContain("We will try your card again on");
    expect(mail.text).toMatch(/\/i\/\d+\./);
    await client.goto("/invoices");
    const card = client.getByRole("listitem").filter({ has: client.getByRole("link", { name: number, exact: true }) });
    await expect(card.getByText("Unpaid", { exact: true })).toBeVisible();
    // The retry schedule shows on the invoice, for the client and the admin.
    await card.getByRole("link", { name: number, exact: true }).click();
    await expect(client.getByTestId("autopay-notice")).toContainText(
      /Automatic payment failed: the card was declined.*We will try the saved card again on \w{3} \d{1,2}, \d{4}/,
    );
    const [{ id: invoiceId }] = (await app.sql.query("select id from invoice where number = $1", [number])).rows as { id: number }[];
    await admin.goto(`/admin/invoices/${invoiceId}/payments`);
    await expect(admin.getByTestId("autopay-notice")).toContainText("We will try the saved card again on");
  });
});
