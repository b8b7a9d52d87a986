/**
 * Issue #37: accept → sign → pay the deposit in one sitting. With Stripe (the project's stand-in and
 * SDK-signed webhooks): the signing page says what happens, signing lands on Checkout, the webhook
 * records the card payment credited to the client, the proposal moves to "In progress" and the
 * dashboard says so. Without Stripe: the agency's instructions with the amount and the reference; the
 * admin records the transfer. With a payment schedule (30 % deposit, two milestones, the rest): the
 * deposit paid on the stand-in's Checkout, the dashboard names milestone 1, the admin marks it reached
 * and the client pays its mailed invoice from the link without signing in. Screenshots of a scheduled
 * offer's signing page, the pay-now step and the dashboard at 390 and 1280 px (docs/screenshots/37-*).
 */
import type { Locator, Page } from "@playwright/test";
import { axeBuilder } from "./axe";
import Stripe from "stripe";
import { expect, expectNoSidewaysScroll, hydrated, loginAsAdmin, mailTo, newUserPage, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { startStripeStandIn } from "./stripe-stand-in";

const WEBHOOK_SECRET = "whsec_e2e_accept_sign_pay_0123456789";
const SECRET_KEY = "sk_test_e2e_accept_sign_pay_0123456789";
const stripe = new Stripe(SECRET_KEY);

type App = Awaited<ReturnType<typeof startIsolatedApp>>;

/**
 * The admin sends a $6,380.00 offer (two lines) with a 30 % deposit; with `schedule`, the rest in
 * two milestones (30 % and 25 %, when marked reached) and the final payment ($957.00, 30 days after
 * signing). @returns the proposal id.
 */
async function offerWithDeposit(
  app: App,
  admin: Page,
  clientEmail: string,
  project: string,
  options: { schedule?: boolean; withoutInstructions?: () => Promise<void> } = {},
): Promise<number> {
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
  if (options.schedule) {
    // Two milestones the admin marks reached (30 % and 25 % of the total), then the rest 30 days after signing.
    for (const [n, name, percent] of [
      [1, "Design approved", "30"],
      [2, "Pages built", "25"],
    ] as const) {
      await admin.getByRole("button", { name: "+ Add milestone" }).click();
      await admin.getByLabel(`Milestone ${n} name`).fill(name);
      await admin.getByLabel(`Milestone ${n} share`).selectOption("percent");
      await admin.getByLabel(`Milestone ${n} percentage`).fill(percent);
      await admin.getByLabel(`Milestone ${n} is due`).selectOption("milestone");
    }
    await admin.getByLabel("Final payment is due").selectOption("days_after_signing");
    await admin.getByLabel("Final payment: days after signing").fill("30");
    await expect(admin.getByTestId("schedule-preview")).toHaveText("Final payment: $957.00. The lines add up to $6,380.00.");
    // The schedule's fieldset on a phone: no sideways scroll, axe clean (a date and a number of days shown too).
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.getByLabel("Milestone 2 is due").selectOption("date");
    await expect(admin.getByLabel("Milestone 2 due date")).toBeVisible();
    await phoneClean(admin, "the offer editor with a schedule");
    await admin.getByLabel("Milestone 2 is due").selectOption("milestone");
    await admin.setViewportSize({ width: 1280, height: 720 });
  }
  if (options.withoutInstructions) {
    // #37: no card payments, no instructions: the editor says so first, and sending an offer that asks money is refused.
    await expect(admin.getByTestId("instructions-first")).toContainText("Add your payment instructions before sending an offer");
    await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
    await expect(admin.getByText(/^Add your payment instructions first \(bank details and the reference to use\)/).first()).toBeVisible();
    expect((await app.sql.query(`select count(*)::int as n from proposal_version where proposal_id = $1`, [id])).rows[0].n).toBe(0);
    await options.withoutInstructions();
  }
  await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 1 sent to the client.");
  return id;
}

/** At the page's width: nothing wider than the view, and (with `axe`) no axe-core violation (WCAG 2.2 AA and best practice). */
async function phoneClean(page: Page, what: string, { axe = true } = {}) {
  await expectNoSidewaysScroll(page, what, page.viewportSize()!.width);
  // axe-core runs in the page: not on a page without JavaScript (the same markup is checked with it).
  if (!axe) return;
  const results = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  expect(
    results.violations.map(
      (v) =>
        `${what}: ${v.id} ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    ),
  ).toEqual([]);
}

async function sign(client: Page, id: number, name: string) {
  await client.getByLabel("Your full name").fill(name);
  await client.getByLabel("I have read and agree to these terms").check();
  await client.getByRole("button", { name: "Accept version 1 and sign" }).click();
}

/** The page at 390 and 1280 px into docs/screenshots/37-<name>-<width>.png, with `focus` (what the shot is of) in the middle of the view. */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: "center", behavior: "instant" }));
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
  // A step that cannot happen fails within seconds, naming the step (not after the whole budget).
  test.use({ actionTimeout: 20_000, navigationTimeout: 30_000 });

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
    } finally {
      await closePages();
      await app.stop();
      await standIn.close();
    }
  });

  test("with Stripe and a schedule: the deposit paid on Checkout, the next step names milestone 1; marked reached, it is mailed and paid from the mail's link", async ({
    browser,
  }) => {
    const standIn = await startStripeStandIn();
    const app = await startIsolatedApp("accept-pay-schedule", {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
    standIn.setWebhook(`${app.baseUrl}/webhooks/stripe`, WEBHOOK_SECRET);
    try {
      const client = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      const account = await registerClient(client, { businessName: "Schedule Bakery" });
      const admin = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      await loginAsAdmin(admin);
      const id = await offerWithDeposit(app, admin, account.email, "Scheduled bakery site", { schedule: true });
      // Without JavaScript the editor shows every row's date and days fields: still no sideways scroll at 390 px.
      const plainAdmin = opened(await newUserPage(browser, { baseURL: app.baseUrl, javaScriptEnabled: false }));
      await loginAsAdmin(plainAdmin);
      await plainAdmin.setViewportSize({ width: 390, height: 844 });
      await plainAdmin.goto(`/admin/proposals/${id}/offer`);
      await expect(plainAdmin.getByLabel("Milestone 2 name")).toHaveValue("Pages built");
      await expect(plainAdmin.getByLabel("Milestone 2: days after signing")).toBeVisible();
      await phoneClean(plainAdmin, "the offer editor with a schedule, without JavaScript", { axe: false });

      // The signing page says the deposit and what follows.
      await client.goto(`/proposals/${id}/accept`);
      await hydrated(client);
      await expect(client.getByTestId("after-signing")).toHaveText(
        "After you sign, you pay the $1,914.00 deposit. Then, each as its own invoice: Design approved ($1,914.00) when the agency marks it reached; " +
          "Pages built ($1,595.00) when the agency marks it reached; Final payment ($957.00) 30 days after signing. You go straight to a secure card payment page.",
      );
      await shoot(client, "signing", client.getByTestId("after-signing"));
      await client.setViewportSize({ width: 390, height: 844 });
      await sign(client, id, "Ann Schedule");

      // Checkout asks the deposit alone; the client pays.
      await expect(client.getByRole("heading", { name: "Stand-in checkout" })).toBeVisible();
      await expect(client.getByText("1914.00 USD")).toBeVisible();
      await client.getByRole("button", { name: "Pay", exact: true }).click();
      await expect(client).toHaveURL(/\/view-invoice\/\d+\?payment=processing$/);
      const depositId = Number(/view-invoice\/(\d+)/.exec(client.url())![1]);
      const { rows: lines } = await app.sql.query(
        `select position, label, amount_cents, invoice_id from payment_schedule_line where proposal_id = $1 order by position`,
        [id],
      );
      expect(lines).toEqual([
        { position: 0, label: "Deposit", amount_cents: 191_400, invoice_id: depositId },
        { position: 1, label: "Design approved", amount_cents: 191_400, invoice_id: null },
        { position: 2, label: "Pages built", amount_cents: 159_500, invoice_id: null },
        { position: 3, label: "Final payment", amount_cents: 95_700, invoice_id: null },
      ]);
      await client.goto(`/view-invoice/${depositId}`);
      await expect(client.getByTestId("amount-due")).toHaveText("$0.00");
      await expect(client.getByText("Paid", { exact: true })).toBeVisible();
      // Settings hold no company details yet: no empty "From" block on the invoice.
      await expect(client.getByRole("heading", { name: "From", exact: true })).toHaveCount(0);
      await client.goto(`/proposals/${id}`);
      await expect(client.getByText("In progress", { exact: true }).first()).toBeVisible();
      expect((await app.sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("in_progress");
      // The dashboard's next step names milestone 1.
      await client.goto("/client-dashboard");
      await expect(client.getByText("Design approved ($1,914.00) is due when the agency marks it reached.").first()).toBeVisible();
      // Nothing unpaid, milestones to come: the balance card says what is next, not "—".
      await expect(client.getByTestId("balance-next-due")).toHaveText(
        "Scheduled bakery site: Design approved ($1,914.00) is due when the agency marks it reached.",
      );
      await shoot(client, "dashboard");

      // The admin marks milestone 1 reached: its invoice is issued and mailed.
      await admin.goto(`/admin/proposals/${id}`);
      await hydrated(admin);
      await admin.getByTestId("schedule-line-1").getByRole("link", { name: "Mark milestone reached “Design approved”" }).click();
      await admin.getByRole("button", { name: "Yes, it is reached: send the invoice" }).click();
      await expect(admin.getByText(/“Design approved” marked reached: invoice INV-\d{4}-\d{4,} was sent to the client\./)).toBeVisible();
      const { rows: issued } = await app.sql.query(
        `select i.id, i.number, i.total_cents from payment_schedule_line l join invoice i on i.id = l.invoice_id where l.proposal_id = $1 and l.position = 1`,
        [id],
      );
      expect(issued).toEqual([expect.objectContaining({ total_cents: 191_400 })]);
      const mail = await mailTo(account.email, new RegExp(`New invoice ${issued[0].number as string}`));
      expect(mail.text).toContain("Design approved of “Scheduled bakery site” is due: $1,914.00.");
      const link = /https?:\/\/[^\s]+\/i\/[\w.-]+/.exec(mail.text ?? "")?.[0];
      expect(link, "the mail links the invoice").toBeTruthy();

      // Paid from the mail's link, without signing in.
      const stranger = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      await stranger.goto(new URL(link!).pathname);
      await hydrated(stranger);
      await expect(stranger.getByRole("heading", { name: `Invoice ${issued[0].number as string}` })).toBeVisible();
      await stranger.getByRole("button", { name: "Pay $1,914.00 by card" }).click();
      await expect(stranger.getByRole("heading", { name: "Stand-in checkout" })).toBeVisible();
      await stranger.getByRole("button", { name: "Pay", exact: true }).click();
      // Back on the signed link: the webhook came first, so the invoice reads paid.
      await expect(stranger).toHaveURL(/\/i\/[^/?]+\?payment=processing$/);
      await expect(stranger.getByTestId("amount-due")).toHaveText("$0.00");
      await expect(stranger.getByText("Paid", { exact: true })).toBeVisible();
      expect((await app.sql.query(`select status from invoice where id = $1`, [issued[0].id])).rows[0].status).toBe("paid");
      await client.goto("/client-dashboard");
      await expect(client.getByText("Pages built ($1,595.00) is due when the agency marks it reached.").first()).toBeVisible();
    } finally {
      await closePages();
      await app.stop();
      await standIn.close();
    }
  });

  test("without Stripe: the instructions with amount and reference; the admin records the transfer", async ({ browser }) => {
    const app = await startIsolatedApp("accept-pay-transfer");
    try {
      const client = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      const account = await registerClient(client, { businessName: "Transfer Bakery" });
      const admin = opened(await newUserPage(browser, { baseURL: app.baseUrl }));
      await loginAsAdmin(admin);
      const id = await offerWithDeposit(app, admin, account.email, "Transfer bakery site", {
        schedule: true,
        withoutInstructions: async () => {
          // Generate invoice (in another tab: the offer stays as typed): the page warns with the link to Settings, and the action refuses (409) with the sentence.
          const tab = opened(await admin.context().newPage());
          await tab.goto(`/admin/generate-invoice/${(await app.sql.query(`select max(id) as id from proposal`)).rows[0].id}`);
          await hydrated(tab);
          await expect(
            tab.getByTestId("instructions-first").getByRole("link", { name: "Add payment instructions in Settings" }),
          ).toHaveAttribute("href", "/admin/settings/payments#payment-instructions");
          await tab.getByLabel("Item 1 description").fill("Design");
          await tab.getByLabel("Item 1 amount").fill("100");
          const answer = tab.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/generate-invoice/"));
          await tab.getByRole("button", { name: "Generate Invoice" }).click();
          expect((await answer).status()).toBe(409);
          await expect(tab.getByText(/^Add your payment instructions first/).first()).toBeVisible();
          expect((await app.sql.query(`select count(*)::int as n from invoice`)).rows[0].n).toBe(0);
          // The agency writes its instructions (Settings → Payments).
          await app.sql.query(
            `insert into settings (id, payment_instructions) values (1, $1) on conflict (id) do update set payment_instructions = excluded.payment_instructions`,
            ["Bank transfer to IBAN DE89 3704 0044 0532 0130 00."],
          );
        },
      });

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
      await expect(client.getByTestId("deposit-sentence")).toHaveText("Pay $1,914.00 now (deposit).");
      await shoot(client, "pay-now", client.getByTestId("payment-reference"));
      // The dashboard's next step says what is true: the deposit to pay.
      await client.goto("/client-dashboard");
      await expect(client.getByText("Pay your deposit for “Transfer bakery site”", { exact: true })).toBeVisible();
      await expect(client.getByText(/Pay \$1,914\.00 now \(deposit\)\./).first()).toBeVisible();

      // The deposit is unpaid: Settings keeps its instructions (409, the reason next to the field, nothing saved).
      await admin.goto("/admin/settings/payments");
      await hydrated(admin);
      const instructions = admin.getByLabel("Payment instructions (optional)");
      await instructions.fill("");
      const refused = admin.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/settings/payments"));
      await admin.getByRole("button", { name: "Save settings" }).click();
      expect((await refused).status()).toBe(409);
      await expect(instructions).toHaveAccessibleDescription(
        new RegExp(`card payments are not set up, and invoice ${number} is unpaid, so clients would have no way to pay\\.`),
      );
      await expect(admin.getByText("❌ Failed to save settings.")).toBeVisible();
      expect((await app.sql.query(`select payment_instructions from settings`)).rows[0].payment_instructions).toBe(
        "Bank transfer to IBAN DE89 3704 0044 0532 0130 00.",
      );

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
