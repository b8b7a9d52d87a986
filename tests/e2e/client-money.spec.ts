/**
 * The client's money view and the agency's brand (docs/product.md#client-invoices,
 * docs/product.md#client-dashboard, docs/product.md#invoice-view, docs/product.md#invoice-pdf,
 * docs/product.md#settings, docs/product.md#notifications). Settings are global, so these
 * tests run on an app instance of their own.
 */
import type { Browser, Page } from "@playwright/test";
import { pdfText } from "../helpers/pdf";
import { addressesOf, expect, hydrated, loginAsAdmin, registerClient, test, uniqueEmail, uniqueIp, waitForMail } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

type App = Awaited<ReturnType<typeof startIsolatedApp>>;

const ADDRESS_LINE = "12 Harbour Road";
const ADDRESS = `${ADDRESS_LINE}\nPortsmouth PO1 2AB`;
const INSTRUCTIONS = "Bank transfer to IBAN GB00 TEST 1234 5678, reference = invoice number";
const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A real 1×1 PNG. */
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function newPage(browser: Browser, app: App, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() }, ...options });
  return context.newPage();
}

/** The settings form's fields as the page posts them (no JavaScript path). */
function settingsForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    companyName: "Harbour Studio",
    supportEmail: "",
    defaultTimeline: "",
    allowNewClients: "on",
    commissionRatePercent: "15",
    companyAddress: ADDRESS,
    taxId: "GB123456789",
    paymentInstructions: INSTRUCTIONS,
    paymentLinkTemplate: "",
    accentColor: "",
    ...overrides,
  };
}

let invoiceNumber = 0;

/** Inserts a proposal of the client and its invoice (one item); @returns the invoice id and number. */
async function insertInvoice(
  app: App,
  clientEmail: string,
  opts: { cents: number; dueDate: string; status: "paid" | "unpaid"; projectStatus: string; project: string },
) {
  const { rows: users } = await app.sql.query('select id from "user" where email = $1', [clientEmail]);
  const clientId = users[0].id as string;
  const { rows: proposals } = await app.sql.query(
    "insert into proposal (client_id, source, status, project_name, project_details) values ($1, 'client', $2, $3, 'A website') returning id",
    [clientId, opts.projectStatus, opts.project],
  );
  const number = `INV-2026-${String(9000 + ++invoiceNumber)}`;
  const { rows } = await app.sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents, paid_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(mins => $8)) returning id`,
    [
      number,
      proposals[0].id,
      clientId,
      opts.dueDate,
      opts.status,
      opts.cents,
      opts.status === "paid" ? new Date() : null,
      100 - invoiceNumber,
    ],
  );
  await app.sql.query("insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Website work', $2)", [
    rows[0].id,
    opts.cents,
  ]);
  // A paid invoice is one whose payments cover it (ADR 013).
  if (opts.status === "paid")
    await app.sql.query(
      "insert into payments (invoice_id, amount_cents, currency, method, received_at) values ($1, $2, 'USD', 'other', now())",
      [rows[0].id, opts.cents],
    );
  return { id: rows[0].id as number, number };
}

test.describe("client money view and agency brand", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  let app: App;
  let admin: Page;
  test.beforeAll(async ({ browser }, testInfo) => {
    testInfo.setTimeout(180_000); // starting an app of its own takes a while on a busy machine
    app = await startIsolatedApp("money");
    admin = await newPage(browser, app);
    await loginAsAdmin(admin);
    const saved = await admin.request.post("/admin/settings", { form: settingsForm() });
    expect(saved.status()).toBe(200);
  });
  test.afterAll(async () => {
    await admin?.context().close();
    await app?.stop();
  });

  test("a client sees their balance, all invoices, bill-from/bill-to, payment instructions and the PDF; another client sees none", async ({
    browser,
  }) => {
    const client = await newPage(browser, app);
    const account = await registerClient(client, { businessName: "Blue Cafe Ltd", website: "https://bluecafe.example" });
    const paid = await insertInvoice(app, account.email, {
      cents: 10_000,
      dueDate: isoDay(-40),
      status: "paid",
      projectStatus: "completed",
      project: "Old site",
    });
    const unpaid = await insertInvoice(app, account.email, {
      cents: 25_000,
      dueDate: isoDay(20),
      status: "unpaid",
      projectStatus: "closed",
      project: "Shop",
    });
    const overdue = await insertInvoice(app, account.email, {
      cents: 40_050,
      dueDate: isoDay(-3),
      status: "unpaid",
      projectStatus: "completed",
      project: "Menu",
    });

    await client.goto("/client-dashboard");
    const balance = client.getByRole("region", { name: "Your balance" });
    await expect(balance.getByTestId("balance-outstanding")).toContainText("$650.50");
    await expect(balance.getByTestId("balance-outstanding")).toContainText("2 unpaid invoices");
    await expect(balance.getByTestId("balance-overdue")).toHaveText("$400.50 (1 invoice)");

    // The header's Invoices link (after Proposal Request) leads to all three, newest first, no toggle touched.
    const nav = client.getByRole("navigation", { name: "Portal" });
    await expect(nav.getByRole("link")).toContainText(["Dashboard", "Project Status", "Proposal Request", "Invoices"]);
    await nav.getByRole("link", { name: "Invoices" }).click();
    await expect(client).toHaveURL(/\/invoices$/);
    const list = client.getByRole("list", { name: "Invoices" });
    await expect(list.getByRole("heading", { level: 2 })).toHaveText([overdue.number, unpaid.number, paid.number]);
    await expect(list.getByRole("listitem").filter({ hasText: overdue.number })).toContainText("Overdue");
    await expect(list.getByRole("listitem").filter({ hasText: unpaid.number })).toContainText("Unpaid");
    await expect(list.getByRole("listitem").filter({ hasText: paid.number })).toContainText("Paid");
    await expect(list.getByRole("listitem").filter({ hasText: overdue.number })).toContainText("$400.50");

    // The invoice page: bill-from (Settings), bill-to (the client's account), payment instructions; no Pay now without a template.
    await list.getByRole("link", { name: unpaid.number, exact: true }).click();
    await expect(client.getByRole("heading", { name: `Invoice ${unpaid.number}` })).toBeVisible();
    await expect(client.getByTestId("bill-from")).toContainText(ADDRESS_LINE);
    await expect(client.getByTestId("bill-from")).toContainText("Tax ID: GB123456789");
    await expect(client.getByTestId("bill-to")).toContainText("Blue Cafe Ltd");
    await expect(client.getByTestId("bill-to")).toContainText(account.email);
    await expect(client.getByTestId("payment-instructions")).toHaveText(INSTRUCTIONS);
    await expect(client.getByRole("link", { name: /Pay now/ })).toHaveCount(0);

    const pdf = await client.request.get(`/view-invoice/${unpaid.id}/pdf`);
    expect(pdf.status()).toBe(200);
    const text = await pdfText(await pdf.body());
    for (const expected of [ADDRESS_LINE, "Portsmouth PO1 2AB", "Blue Cafe Ltd", INSTRUCTIONS, unpaid.number, "$250.00"])
      expect(text).toContain(expected);
    expect(text).not.toContain("Pay online");

    // With a template, Pay now carries the number and the amount (on the page and in the PDF); a paid invoice has none.
    const template = "https://pay.example.com/checkout?invoice={number}&amount={amount}";
    expect((await admin.request.post("/admin/settings", { form: settingsForm({ paymentLinkTemplate: template }) })).status()).toBe(200);
    await client.reload();
    await expect(client.getByRole("link", { name: /Pay now/ })).toHaveAttribute(
      "href",
      `https://pay.example.com/checkout?invoice=${unpaid.number}&amount=250.00`,
    );
    const pdfWithLink = await pdfText(await (await client.request.get(`/view-invoice/${unpaid.id}/pdf`)).body());
    expect(pdfWithLink).toContain(`amount=250.00`);
    await client.goto(`/view-invoice/${paid.id}`);
    await expect(client.getByText("Paid", { exact: true }).first()).toBeVisible();
    await expect(client.getByRole("link", { name: /Pay now/ })).toHaveCount(0);

    // Another client: nothing owed, no invoices, 404 on every URL of the first client's invoices.
    const other = await newPage(browser, app);
    await registerClient(other, { businessName: "Other Co" });
    await other.goto("/client-dashboard");
    // A new client's dashboard leads with their first step; it shows no balance of anyone's (#27).
    await expect(other.getByRole("heading", { name: "Your first step" })).toBeVisible();
    await expect(other.getByRole("region", { name: "Your balance" })).toHaveCount(0);
    await expect(other.getByText("$650.50")).toHaveCount(0);
    await other.goto("/invoices");
    await expect(other.getByText("No invoices yet.")).toBeVisible();
    for (const invoice of [paid, unpaid, overdue]) {
      const page = await other.goto(`/view-invoice/${invoice.id}`);
      expect(page?.status()).toBe(404);
      await expect(other.getByText("Invoice not found")).toBeVisible();
      await expect(other.getByText("Blue Cafe Ltd")).toHaveCount(0);
      expect((await other.request.get(`/view-invoice/${invoice.id}/pdf`)).status()).toBe(404);
    }
    await client.context().close();
    await other.context().close();
  });

  test("settings refuse a bad colour, an http payment link, an oversized or scripted logo; nothing is saved", async () => {
    const before = await app.sql.query("select * from settings");
    await admin.goto("/admin/settings/brand");
    await hydrated(admin);

    // In the browser (the same schema as the server).
    await admin.getByLabel("Accent colour (optional)").fill("#ffff00");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText(/White text on #ffff00 has a contrast of only .* Choose a darker colour\./)).toBeVisible();
    await admin.getByLabel("Accent colour (optional)").fill("");
    await admin.goto("/admin/settings/payments");
    await hydrated(admin);
    await admin.getByLabel("Payment link (optional)").fill("http://pay.example.com/{number}");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText(/The payment link must be a full https:\/\/ address/)).toBeVisible();

    // And on the server, for a post that skips the browser's check.
    for (const [field, value, message] of [
      ["accentColor", "#ffff00", "Choose a darker colour."],
      ["accentColor", "blue", "Enter the accent colour as a hex code like #1d3fa3."],
      ["paymentLinkTemplate", "http://pay.example.com/{number}", "must be a full https:// address"],
      ["paymentLinkTemplate", "javascript:alert(1)", "must be a full https:// address"],
    ] as const) {
      const response = await admin.request.post("/admin/settings", { form: settingsForm({ companyName: "Changed", [field]: value }) });
      expect(response.status(), `${field}=${value}`).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect((await app.sql.query("select * from settings")).rows).toEqual(before.rows);

    // Logos: over 200 KB (checked in the browser, then on the server), over the route's 256 KB body limit, and an SVG with a script.
    await admin.goto("/admin/settings/brand");
    await hydrated(admin);
    const big = Buffer.alloc(210 * 1024);
    big.set(PNG_HEADER);
    await admin.getByLabel("Logo file").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
    await admin.getByRole("button", { name: "Upload logo" }).click();
    await expect(admin.getByRole("alert").filter({ hasText: "The logo is larger than 200 KB." })).toBeVisible();
    const serverBig = await admin.request.post("/admin/settings", {
      multipart: { intent: "upload-logo", logo: { name: "big.png", mimeType: "image/png", buffer: big } },
    });
    expect(serverBig.status()).toBe(400);
    expect(await serverBig.text()).toContain("The logo is larger than 200 KB.");
    const huge = await admin.request.post("/admin/settings", {
      multipart: { intent: "upload-logo", logo: { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(300 * 1024) } },
    });
    expect(huge.status()).toBe(413);
    expect(await huge.text()).toContain("too large");

    const scripted = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    await admin.getByLabel("Logo file").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: scripted });
    await admin.getByRole("button", { name: "Upload logo" }).click();
    await expect(admin.getByRole("alert").filter({ hasText: "This SVG contains scripts" })).toBeVisible();
    const handler = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10" onclick="alert(1)"/></svg>');
    const serverHandler = await admin.request.post("/admin/settings", {
      multipart: { intent: "upload-logo", logo: { name: "logo.svg", mimeType: "image/svg+xml", buffer: handler } },
    });
    expect(serverHandler.status()).toBe(400);
    expect((await app.sql.query("select count(*)::int as n from brand_logo")).rows[0].n).toBe(0);
    expect((await app.sql.query("select * from settings")).rows).toEqual(before.rows);
  });

  test("a saved logo and accent colour appear in every portal header and in a notification e-mail", async ({ browser }) => {
    const support = uniqueEmail("support");
    expect(
      (await admin.request.post("/admin/settings", { form: settingsForm({ supportEmail: support, accentColor: "#0f5132" }) })).status(),
    ).toBe(200);
    await admin.goto("/admin/settings/brand");
    await hydrated(admin);
    await admin.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: TINY_PNG });
    await admin.getByRole("button", { name: "Upload logo" }).click();
    await expect(admin.getByText("Logo saved.")).toBeVisible();
    const { rows } = await app.sql.query("select version, content_type from brand_logo");
    expect(rows).toEqual([{ version: expect.stringMatching(/^[0-9a-f]{20}$/), content_type: "image/png" }]);
    const logoPath = `/brand/logo/${rows[0].version}`;

    // The admin header: the logo links to /admin; the accent colour is the portal's --accent.
    const adminBrand = admin.getByTestId("portal-brand");
    await expect(adminBrand).toHaveAttribute("href", "/admin");
    await expect(adminBrand.locator("img")).toHaveAttribute("src", logoPath);
    await expect(admin.locator(".portal-root")).toHaveAttribute("style", /--accent:\s*light-dark\(#0f5132/);
    await expect(admin.getByRole("button", { name: "Save settings" })).toHaveCSS("background-color", "rgb(15, 81, 50)");

    // Served with a long cache and a policy that runs nothing.
    const logo = await admin.request.get(logoPath);
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/png");
    expect(logo.headers()["cache-control"]).toContain("max-age=31536000");
    expect(logo.headers()["content-security-policy"]).toContain("sandbox");
    expect([...(await logo.body())]).toEqual([...TINY_PNG]);

    // The client's header: the logo links to the client's home.
    const client = await newPage(browser, app);
    await registerClient(client, { businessName: "Logo Test Co" });
    await client.goto("/project-status");
    await expect(client.getByTestId("portal-brand")).toHaveAttribute("href", "/client-dashboard");
    await expect(client.getByTestId("portal-brand").locator("img")).toHaveAttribute("src", logoPath);
    await client.setViewportSize({ width: 390, height: 800 });
    await expect(client.getByTestId("portal-brand").locator("img")).toBeVisible();

    // A notification (a proposal request, mailed to the support address) shows the hosted logo and the accent colour.
    const project = `Logo mail ${Date.now()}`;
    const posted = await client.request.post("/proposal-request", { form: { projectName: project, projectDetails: "A bakery site" } });
    expect(posted.status()).toBeLessThan(400);
    const mail = await waitForMail((m) => addressesOf(m.to).includes(support) && (m.text ?? "").includes(project));
    expect(mail.html).toContain(`<img src="${app.baseUrl}${logoPath}"`);
    expect(mail.html).toContain("background:#0f5132");
    expect(mail.text).toContain(project);
    expect(mail.text).not.toContain("<img");
    await client.context().close();
  });
});
