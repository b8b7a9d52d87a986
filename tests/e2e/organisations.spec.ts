/**
 * Client organisations (issue #38, docs/product.md#organisations) in Chromium, on an app instance
 * of its own with the Stripe stand-in: an owner invites a billing colleague and a member by e-mail;
 * each creates their login from the invitation link; the billing colleague pays the invoice by card
 * and cannot open the project's conversation; the member writes in the conversation and gets 404 on
 * the invoice list, the invoice and its PDF, and receives no receipt; the owner removes the member,
 * whose open page and live stream stop at once and whose next request is refused; a person in two
 * organisations switches between them in the header and sees each one's proposals only.
 */
import Stripe from "stripe";
import type { Page } from "@playwright/test";
import { expect, hydrated, newUserPage, registerClient, test, uniqueEmail } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { startStripeStandIn } from "./stripe-stand-in";
import { reviewScreenshot } from "./review-screenshot";

const WEBHOOK_SECRET = "whsec_e2e_orgs_secret_0123456789abcd";
const SECRET_KEY = "sk_test_e2e_orgs_0123456789";
const stripe = new Stripe(SECRET_KEY);
const stamp = Date.now().toString(36);

test.describe("client organisations", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000);
    standIn = await startStripeStandIn();
    app = await startIsolatedApp("organisations", {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
  });
  test.afterAll(async () => {
    await app?.stop();
    await standIn?.close();
  });

  const one = async (query: string, values: unknown[] = []) => (await app.sql.query(query, values)).rows[0];
  const userId = async (email: string) => (await one('select id from "user" where email = $1', [email])).id as string;
  const invitationPath = async (email: string) =>
    /\/invitations\/[\w-]+/.exec(
      (await one(`select text from mail_outbox where "to" = $1 and subject like 'You are invited%' order by id desc limit 1`, [email]))
        .text,
    )![0];

  /** The owner invites `email` with `role` on /organisation; the invited person creates their login from the link. */
  async function invite(owner: Page, browser: import("@playwright/test").Browser, email: string, role: "Billing" | "Member" | "Owner") {
    await owner.goto("/organisation");
    await hydrated(owner);
    await owner.getByLabel("Email", { exact: true }).fill(email);
    await owner.getByRole("radio", { name: new RegExp(`^${role}`) }).check();
    await owner.getByRole("button", { name: "Send invitation" }).click();
    await expect(owner.getByText(`Invitation sent. ${email} has 7 days to accept it.`)).toBeVisible();
    const person = await newUserPage(browser, { baseURL: app.baseUrl });
    await person.goto(await invitationPath(email));
    await expect(person.getByRole("heading", { name: /^Join / })).toBeVisible();
    await person.getByLabel("Your name").fill(`The ${role.toLowerCase()} ${stamp}`);
    await person.getByLabel("Password").fill("secret-pass-1");
    await person.getByRole("button", { name: /Create account and join/ }).click();
    await expect(person).toHaveURL(/\/client-dashboard$/);
    return person;
  }

  test("owner invites billing and a member; billing pays and cannot open the thread; the member writes and gets 404 on money; removed, the member's page and stream stop", async ({
    browser,
  }) => {
    const owner = await newUserPage(browser, { baseURL: app.baseUrl });
    const ownerAccount = await registerClient(owner, { businessName: `Harbour Bakery ${stamp}` });
    const billingEmail = uniqueEmail("org-billing");
    const memberEmail = uniqueEmail("org-member");
    const billing = await invite(owner, browser, billingEmail, "Billing");
    const member = await invite(owner, browser, memberEmail, "Member");

    // The organisation page lists the three people with their roles.
    await owner.goto("/organisation");
    for (const email of [ownerAccount.email, billingEmail, memberEmail])
      await expect(owner.locator(`[data-member="${email}"]`)).toBeVisible();
    await expect(owner.locator(`[data-member="${billingEmail}"]`)).toContainText("Billing");
    // At 390 px (phone first): no sideways scroll.
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.reload();
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await reviewScreenshot(owner, "test-results/organisations-page-390.png", { fullPage: true });
    await owner.setViewportSize({ width: 1280, height: 800 });

    // A project of the organisation (the owner's request) with an invoice of $400.00.
    const orgId = (await one("select organisation_id from membership where user_id = $1", [await userId(ownerAccount.email)]))
      .organisation_id;
    const project = `Harbour shop ${stamp}`;
    const { id: proposalId } = await one(
      `insert into proposal (client_id, organisation_id, source, status, project_name, project_details) values ($1, $2, 'client', 'in_progress', $3, 'x') returning id`,
      [await userId(ownerAccount.email), orgId, project],
    );
    const { id: invoiceId } = await one(
      `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, '2031-01-01', 40000) returning id`,
      [`INV-ORG-${stamp}`, proposalId, await userId(ownerAccount.email)],
    );
    await app.sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Shop', 40000)`, [
      invoiceId,
    ]);

    // The member writes in the conversation.
    const message = `Member question ${stamp}`;
    await member.goto(`/proposals/${proposalId}`);
    await hydrated(member);
    await member.getByLabel("Message", { exact: true }).fill(message);
    await member.getByRole("button", { name: "Send message" }).click();
    await expect(member.getByRole("paragraph").filter({ hasText: message })).toBeVisible();
    // …and has no money pages: 404 on the list, the invoice and its PDF; no Invoices link.
    await expect(member.getByRole("link", { name: "Invoices" })).toHaveCount(0);
    for (const path of ["/invoices", `/view-invoice/${invoiceId}`, `/view-invoice/${invoiceId}/pdf`]) {
      const response = await member.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(404);
    }

    // The billing colleague cannot open the project or its conversation (their Messages list is empty)…
    for (const path of [`/proposals/${proposalId}`, `/proposals/${proposalId}/files`, "/messages"]) {
      const response = await billing.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(path === "/messages" ? 200 : 404);
      expect(await response.text()).not.toContain(message);
    }
    // …until the owner adds them to this one conversation: then they read it (never the request) and write.
    await owner.goto(`/proposals/${proposalId}`);
    await hydrated(owner);
    await owner.getByRole("button", { name: /^Add to this conversation/ }).click();
    await expect(owner.getByText("In this conversation", { exact: true })).toBeVisible();
    await billing.goto("/messages");
    await billing.getByRole("link", { name: project }).first().click();
    await expect(billing).toHaveURL(new RegExp(`/proposals/${proposalId}(#conversation)?$`));
    await expect(billing.getByRole("paragraph").filter({ hasText: message })).toBeVisible();
    await expect(billing.getByRole("heading", { name: "Your request" })).toHaveCount(0);
    await owner.getByRole("button", { name: /^Remove from this conversation/ }).click();
    await expect(owner.getByText("In this conversation", { exact: true })).toHaveCount(0);
    expect((await billing.request.get(`/proposals/${proposalId}`, { maxRedirects: 0 })).status()).toBe(404);
    // …and pays the invoice by card (the stand-in's Checkout Session, then the signed webhook).
    await billing.goto(`/view-invoice/${invoiceId}`);
    await hydrated(billing);
    await billing.getByRole("button", { name: "Pay $400.00 by card" }).click();
    await expect(billing.getByRole("heading", { name: "Stand-in checkout" })).toBeVisible();
    expect(Object.fromEntries(standIn.requests.at(-1)!.body)).toMatchObject({
      customer_email: billingEmail,
      "metadata[invoice_id]": String(invoiceId),
    });
    const payload = JSON.stringify({
      id: `evt_org_${stamp}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: "cs_test_org",
          object: "checkout.session",
          payment_status: "paid",
          amount_total: 40_000,
          currency: "usd",
          payment_intent: `pi_org_${stamp}`,
          metadata: { invoice_id: String(invoiceId) },
        },
      },
    });
    const hook = await fetch(`${app.baseUrl}/webhooks/stripe`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      body: payload,
    });
    expect(hook.status).toBe(200);
    await billing.goto(`/view-invoice/${invoiceId}`);
    await expect(billing.getByText("Paid", { exact: true }).first()).toBeVisible();
    // The receipt went to the owner and the billing colleague, not to the member.
    const receipts = (await app.sql.query(`select "to" from mail_outbox where subject like 'Receipt:%' order by "to"`)).rows.map(
      (r) => r.to,
    );
    expect(receipts.sort()).toEqual([billingEmail, ownerAccount.email].sort());

    // The member has the project open with its live stream; the owner removes them.
    await member.goto(`/proposals/${proposalId}`);
    await hydrated(member);
    await expect(member.locator("html")).toHaveAttribute("data-live", "open", { timeout: 10_000 });
    await owner.goto("/organisation");
    await hydrated(owner);
    await owner.getByRole("link", { name: `Remove The member ${stamp}` }).click();
    await owner.getByRole("button", { name: "Yes, remove" }).click();
    await expect(owner.getByText("Member removed.")).toBeVisible();
    await expect(owner.locator(`[data-member="${memberEmail}"]`)).toHaveCount(0);
    // At once: the stream ends and the open page is refused in place (no navigation by the person).
    // (the page's live stream is gone: the refused page has none, and the server would refuse a new one)
    await expect(member.getByText("You are not a member of any organisation")).toBeVisible({ timeout: 10_000 });
    await expect(member.locator("html")).not.toHaveAttribute("data-live", "open");
    await reviewScreenshot(member, "test-results/organisations-removed-member.png");
    await expect(member.getByText(message)).toHaveCount(0);
    // The next request is refused.
    const next = await member.request.get(`/proposals/${proposalId}`, { maxRedirects: 0 });
    expect(next.status()).toBe(403);
    expect(await next.text()).not.toContain(message);
  });

  test("a person in two organisations switches in the header and sees each one's proposals only", async ({ browser }) => {
    const first = await newUserPage(browser, { baseURL: app.baseUrl });
    const person = await registerClient(first, { businessName: `Alpha Co ${stamp}` });
    await app.sql.query(`update "user" set email_verified = true where email = $1`, [person.email]);
    const second = await newUserPage(browser, { baseURL: app.baseUrl });
    const otherOwner = await registerClient(second, { businessName: `Beta Co ${stamp}` });
    const orgOf = async (email: string) =>
      (await one("select organisation_id from membership where user_id = $1", [await userId(email)])).organisation_id;
    const alphaOrg = await orgOf(person.email);
    const betaOrg = await orgOf(otherOwner.email);
    const insert = async (clientEmail: string, org: number, name: string) =>
      (
        await one(
          `insert into proposal (client_id, organisation_id, source, status, project_name, project_details) values ($1, $2, 'client', 'planning', $3, 'x') returning id`,
          [await userId(clientEmail), org, name],
        )
      ).id as number;
    const alpha = `Alpha project ${stamp}`;
    const beta = `Beta project ${stamp}`;
    await insert(person.email, alphaOrg, alpha);
    const betaId = await insert(otherOwner.email, betaOrg, beta);

    // Beta's owner invites the person (who has an account: they sign in, then accept).
    await second.goto("/organisation");
    await hydrated(second);
    await second.getByLabel("Email", { exact: true }).fill(person.email);
    await second.getByRole("radio", { name: /^Member/ }).check();
    await second.getByRole("button", { name: "Send invitation" }).click();
    await expect(second.getByText(/Invitation sent/)).toBeVisible();
    await first.goto(await invitationPath(person.email));
    await first.getByRole("button", { name: /Accept and join Beta Co/ }).click();
    await expect(first).toHaveURL(/\/client-dashboard$/);

    // Accepting switched to Beta: Beta's proposals only.
    await first.goto("/project-status");
    await expect(first.getByRole("link", { name: beta, exact: true })).toBeVisible();
    await expect(first.getByText(alpha)).toHaveCount(0);
    // Switch to Alpha in the header: Alpha's only; Beta's proposal id is a 404 there.
    await hydrated(first);
    await first.getByLabel("Switch organisation").selectOption({ label: `Alpha Co ${stamp} (Owner)` });
    await first.getByRole("button", { name: "Switch" }).click();
    await expect(first).toHaveURL(/\/client-dashboard$/);
    await first.goto("/project-status");
    await expect(first.getByRole("link", { name: alpha, exact: true })).toBeVisible();
    await expect(first.getByText(beta)).toHaveCount(0);
    expect((await first.request.get(`/proposals/${betaId}`, { maxRedirects: 0 })).status()).toBe(404);
    // Switching to an organisation the person is not in is refused.
    const stranger = await newUserPage(browser, { baseURL: app.baseUrl });
    const strangerAccount = await registerClient(stranger, { businessName: `Gamma Co ${stamp}` });
    const forged = await first.request.post("/organisation/switch", {
      form: { organisationId: String(await orgOf(strangerAccount.email)) },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(404);
    // No organisation id in any URL of the page.
    const hrefs = await first.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.filter((h) => h.includes(String(betaOrg)) && /organisation/.test(h))).toEqual([]);
    await reviewScreenshot(first, "test-results/organisations-switcher.png", { fullPage: true });
  });
});
