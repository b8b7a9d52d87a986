/**
 * The rough edges of issue #41, each where a browser can see it: the contact form's answer where a
 * phone user looks (with and without JavaScript), a real <title> on record-not-found pages, every
 * signing error at once, an unpaid balance said before an account is closed, a cancelled Checkout,
 * instant confirmation and the meetings' place from Settings, the day chips by arrow keys.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, loginAsAdmin, mailTo, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The axe violations of the page (WCAG 2.x A/AA and best practices), as readable lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await axeBuilder(page).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(" ")}: ${n.failureSummary}`));
}

for (const javaScriptEnabled of [true, false]) {
  test(`contact form on a phone ${javaScriptEnabled ? "with" : "without"} JavaScript: the success is focused and in view, a refused field is focused`, async ({
    browser,
    sql,
  }) => {
    test.setTimeout(240_000);
    const page = await newUserPage(browser, { javaScriptEnabled });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/contact");
    const name = `Phone ${uid()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Email").fill("phone.visitor@example.com");
    await page.getByLabel("Message", { exact: true }).fill("Can you build a bakery site?");
    await page.getByRole("button", { name: "Send Message" }).click();
    const result = page.getByTestId("contact-result");
    await expect(result).toHaveText("Message sent successfully!");
    await expect(result).toBeFocused();
    await expect(result).toBeInViewport();
    expect((await sql.query(`select count(*)::int as n from contact_message where user_name = $1`, [name])).rows[0].n).toBe(1);
    // axe runs as a script: on the page with JavaScript (the same markup without it).
    if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
    if (javaScriptEnabled) await page.screenshot({ path: "docs/screenshots/contact-success-390.png" });

    // The server refuses a field the browser let through (a phone number with letters): that field
    // has the focus, its message next to it, and it is in view.
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Email").fill("phone.visitor@example.com");
    await page.getByLabel("Phone (optional)").fill("call me maybe");
    await page.getByLabel("Message", { exact: true }).fill("Second message");
    await page.getByRole("button", { name: "Send Message" }).click();
    const phone = page.getByLabel("Phone (optional)");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toBeFocused();
    await expect(phone).toBeInViewport();
    await expect(page.getByText("Phone may contain only digits, spaces and + ( ) - .")).toBeVisible();
    await expect(result).not.toBeFocused();
    expect((await sql.query(`select count(*)::int as n from contact_message where user_name = $1`, [name])).rows[0].n).toBe(1);
    await page.context().close();
  });
}

test("record-not-found pages have a real <title> in every area, axe clean (document-title)", async ({ browser }) => {
  test.setTimeout(240_000);
  const client = await newUserPage(browser);
  await registerClient(client);
  const ambassador = await newUserPage(browser);
  await registerAmbassador(ambassador);
  const admin = await adminPage(browser);
  const cases: Array<[Page, string, RegExp]> = [
    [client, "/proposals/987654321", /^Proposal not found \| Client Portal$/],
    [client, "/meetings/987654321/reschedule", /not found \| Client Portal$/i],
    [client, "/view-invoice/987654321", /\S/],
    [admin, "/admin/proposals/987654321", /^Proposal not found \| Admin Console$/],
    [admin, "/admin/organisations/987654321", /not found \| Admin Console$/i],
    [ambassador, "/ambassador/proposals/987654321", /not found \| Ambassador Portal$/i],
    [client, "/verify/unknown-certificate-id", /\S/],
  ];
  for (const [page, path, title] of cases) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page, path).toHaveTitle(title);
    const { violations } = await axeBuilder(page).withRules(["document-title"]).analyze();
    expect(violations, path).toEqual([]);
  }
  expect(await axeViolations(admin)).toEqual([]);
  for (const page of [client, ambassador, admin]) await page.context().close();
});

/** A proposal of a new client with version 1 of an offer sent: the client's page and the proposal id. */
async function sentOffer(browser: import("@playwright/test").Browser, sql: import("pg").Pool, javaScriptEnabled: boolean) {
  const page = await newUserPage(browser, { javaScriptEnabled });
  const client = await registerClient(page);
  const name = `Sign ${uid()}`;
  await page.request.post("/proposal-request", { form: { projectName: name, projectDetails: "A site to sign for." } });
  const id = (await sql.query(`select id from proposal where project_name = $1`, [name])).rows[0].id as number;
  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals/${id}/offer`);
  await hydrated(admin);
  await admin.getByLabel("Scope of the work").fill("Design and build.");
  await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 1 sent to the client.");
  await mailTo(client.email, /^Your offer is ready/);
  await admin.context().close();
  return { page, id };
}

for (const javaScriptEnabled of [true, false]) {
  test(`signing page ${javaScriptEnabled ? "with" : "without"} JavaScript: every error at once, the first refused field focused`, async ({
    browser,
    sql,
  }) => {
    test.setTimeout(240_000);
    const { page, id } = await sentOffer(browser, sql, javaScriptEnabled);
    await page.goto(`/proposals/${id}/accept`);
    if (javaScriptEnabled) await hydrated(page);
    await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
    const name = page.getByLabel("Your full name");
    const agree = page.getByLabel("I have read and agree to these terms");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(agree).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#accept-typedName-error")).toHaveText("Type your full name.");
    await expect(page.locator("#accept-agree-error")).toHaveText("Tick “I have read and agree to these terms” to accept.");
    await expect(name).toBeFocused();
    // axe runs as a script: on the page with JavaScript (the same markup without it).
    if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
    // The name only: the tick is still asked for, and now it is the first refused field.
    await name.fill("Nora Script");
    await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
    await expect(agree).toHaveAttribute("aria-invalid", "true");
    await expect(name).not.toHaveAttribute("aria-invalid", "true");
    await expect(agree).toBeFocused();
    expect((await sql.query(`select count(*)::int as n from proposal_acceptance where proposal_id = $1`, [id])).rows[0].n).toBe(0);
    await agree.check();
    await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
    await expect(page.getByText("You accepted version 1.")).toBeVisible();
    expect((await sql.query(`select typed_name from proposal_acceptance where proposal_id = $1`, [id])).rows).toEqual([
      { typed_name: "Nora Script" },
    ]);
    await page.context().close();
  });
}

test("closing an account with an unpaid balance says so first, and is refused until it is acknowledged", async ({ browser, sql }) => {
  test.setTimeout(240_000);
  const page = await newUserPage(browser);
  const client = await registerClient(page);
  const name = `Owed ${uid()}`;
  await page.request.post("/proposal-request", { form: { projectName: name, projectDetails: "Owed work." } });
  const { id: proposalId, organisation_id: organisationId } = (
    await sql.query(`select id, organisation_id from proposal where project_name = $1`, [name])
  ).rows[0];
  const number = `INV-EDGE-${uid()}`;
  const { id: invoiceId } = (
    await sql.query(
      `insert into invoice (number, proposal_id, client_id, organisation_id, due_date, status, total_cents)
       select $1, $2, id, $4, '2031-03-01', 'unpaid', 125000 from "user" where email = $3 returning id`,
      [number, proposalId, client.email, organisationId],
    )
  ).rows[0];
  await sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Build', 125000)`, [
    invoiceId,
  ]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/account/privacy#close-account");
  await hydrated(page);
  const note = page.getByTestId("unpaid-on-closing");
  await expect(note).toContainText("You have an unpaid balance of $1,250.00. Closing your account does not cancel it.");
  await expect(note).toContainText(`${number}: $1,250.00 due`);
  await page.getByRole("link", { name: "Close my account…" }).click();
  const box = page.getByLabel("I understand that closing my account does not cancel this balance: it stays due.");
  await expect(box).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // A post without the box (a script, an old page) is refused by the server, next to the box.
  const refused = await page.request.post("/account/privacy", {
    form: { intent: "close-account", confirm: "yes", password: "secret-pass-1" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(409);
  expect((await sql.query(`select closed_at from "user" where email = $1`, [client.email])).rows[0].closed_at).toBeNull();

  await page.locator("#close-password").fill("secret-pass-1");
  await box.check();
  await page.getByRole("button", { name: "Yes, close my account" }).click();
  await expect(page).toHaveURL(/\/login\?closed=1/);
  expect((await sql.query(`select status from invoice where id = $1`, [invoiceId])).rows[0].status).toBe("unpaid");
  await page.context().close();
});

test("back from a cancelled card Checkout the invoice says nothing was charged", async ({ browser, sql }) => {
  const page = await newUserPage(browser);
  const client = await registerClient(page);
  const name = `Cancel ${uid()}`;
  await page.request.post("/proposal-request", { form: { projectName: name, projectDetails: "Paid later." } });
  const { id: proposalId, organisation_id: organisationId } = (
    await sql.query(`select id, organisation_id from proposal where project_name = $1`, [name])
  ).rows[0];
  const { id: invoiceId } = (
    await sql.query(
      `insert into invoice (number, proposal_id, client_id, organisation_id, due_date, status, total_cents)
       select $1, $2, id, $4, '2031-03-01', 'unpaid', 40000 from "user" where email = $3 returning id`,
      [`INV-CXL-${uid()}`, proposalId, client.email, organisationId],
    )
  ).rows[0];
  await sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Build', 40000)`, [invoiceId]);
  await page.goto(`/view-invoice/${invoiceId}`);
  await expect(page.getByText("Payment cancelled — nothing was charged.")).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/view-invoice/${invoiceId}?payment=cancelled`);
  await expect(page.getByText("Payment cancelled — nothing was charged. You can pay whenever you are ready.")).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$400.00");
  expect(await axeViolations(page)).toEqual([]);
  await page.context().close();
});

test.describe("booking settings on an app of its own", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(240_000);
    app = await startIsolatedApp("edges_booking");
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("instant confirmation and a video link from Settings reach the booking, the .ics (LOCATION, URL) and the mails; day chips are one Tab stop with arrow keys", async ({
    browser,
  }) => {
    const admin = await newUserPage(browser, { baseURL: app.baseUrl });
    await loginAsAdmin(admin);
    await admin.goto("/admin/settings/availability");
    await hydrated(admin);
    const link = `https://meet.example.com/edges-${uid()}`;
    await admin.getByLabel("Confirm bookings at once").check();
    await admin.getByLabel("Meeting location or video link (optional)").fill(link);
    await admin.getByRole("button", { name: "Save availability" }).click();
    await expect(admin.getByText("Availability saved.")).toBeVisible();
    await admin.reload();
    await expect(admin.getByLabel("Confirm bookings at once")).toBeChecked();
    await expect(admin.getByLabel("Meeting location or video link (optional)")).toHaveValue(link);
    expect(await axeViolations(admin)).toEqual([]);

    const page = await newUserPage(browser, { baseURL: app.baseUrl });
    const client = await registerClient(page);
    await page.goto("/meetings/book");
    await hydrated(page);
    const chips = page.getByRole("navigation", { name: "Days with free times" }).getByRole("link");
    expect(await chips.count()).toBeGreaterThan(3);
    // One Tab stop for the list: Tab from the zone's button lands on the chosen day, the next Tab leaves the list.
    await page.getByRole("button", { name: "Show free times" }).focus();
    await page.keyboard.press("Tab");
    await expect(chips.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(chips.nth(1)).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(chips.nth(2)).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(chips.nth(1)).toBeFocused();
    await page.keyboard.press("End");
    await expect(chips.last()).toBeFocused();
    await page.keyboard.press("Home");
    await expect(chips.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowRight");
    const dayHref = (await chips.nth(1).getAttribute("href"))!;
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === dayHref);
    await expect(page.locator('a[aria-current="date"]')).toHaveAttribute("href", dayHref);
    await page.keyboard.press("Tab");
    await expect(page.locator("a[data-day-chip]:focus")).toHaveCount(0);
    await expect(page.getByText(`Where: ${link}.`)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.locator('input[name="slot"]').first().check();
    await page.getByRole("button", { name: "Book meeting" }).click();
    await expect(page).toHaveURL(/\/meetings\?notice=confirmed$/);
    await expect(page.getByText("Meeting booked and confirmed. The calendar invite is on its way by e-mail.")).toBeVisible();
    const [meeting] = (
      await app.sql.query(`select m.id, m.status from meeting m join "user" u on u.id = m.user_id where u.email = $1`, [client.email])
    ).rows;
    expect(meeting.status).toBe("accepted");
    const mail = await mailTo(client.email, /^Your meeting is confirmed/);
    expect(mail.text).toContain(`Join: ${link}`);
    const ics = mail.attachments[0]!.content.toString();
    expect(ics.replace(/\r\n /g, "")).toContain(`LOCATION:${link}`);
    expect(ics.replace(/\r\n /g, "")).toContain(`URL:${link}`);
    const download = await page.request.get(`/client-dashboard/meetings/${meeting.id}/ics`);
    expect((await download.text()).replace(/\r\n /g, "")).toContain(`LOCATION:${link}`);
    await admin.context().close();
    await page.context().close();
  });
});
