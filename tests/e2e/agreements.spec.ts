/**
 * The agency's offer, versions, accept and sign, certificates (docs/product.md#offers,
 * #offer-versions, #accept-and-sign, #certificates): the admin writes an offer with three line items
 * and a deposit, a draft stays invisible, sending mails the client, who reads it at 390 px and accepts
 * by typed name and tick; the certificate PDF's hash is SHA-256 of the canonical form computed here;
 * /verify says standing, then voided after the admin changes the price; a stale tab is refused; the
 * acceptance works without JavaScript; an ambassador's proposal is accepted the same way.
 */
import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import { pdfText } from "../helpers/pdf";
import {
  adminPage,
  expect,
  hydrated,
  login,
  givePaymentInstructions,
  mailTo,
  newUserPage,
  registerAmbassador,
  registerClient,
  test,
  verificationMail,
  uniqueIp,
  verificationPath,
} from "./fixtures";

/** The documented canonical form, written again here (not imported): sorted keys, no whitespace. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const object = value as Record<string, unknown>;
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
    .join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

async function requestProposal(page: Page, name: string): Promise<void> {
  await page.goto("/proposal-request");
  await page.getByLabel("Project name (optional)").fill(name);
  await page.getByLabel("Project details").fill(`Details of ${name}\nSecond line of the brief.`);
  await page.getByLabel("Timeline (optional)").fill("Before summer");
  await page.getByLabel("Budget (optional)").fill("4,000");
  await page.getByLabel("Target audience (optional)").fill("Night owls who like pancakes");
  await page.getByLabel("Design inspiration (optional)").fill("https://example.com/inspiration");
  await page.getByLabel("Number of pages (optional)").fill("7");
  await page.getByLabel("Website goal (optional)").selectOption("Creative");
  await page.getByRole("button", { name: "Submit request" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Proposal request submitted successfully." })).toBeVisible();
}

async function fillItem(admin: Page, n: number, description: string, quantity: string, price: string) {
  await admin.getByLabel(`Item ${n} description`).fill(description);
  await admin.getByLabel(`Item ${n} quantity`).fill(quantity);
  await admin.getByLabel(`Item ${n} unit price`).fill(price);
}

test("offer → draft hidden → send → accept and sign → certificate → version 2 voids → stale tab refused", async ({
  page,
  browser,
  sql,
}) => {
  test.setTimeout(180_000);
  await givePaymentInstructions(sql);
  const client = await registerClient(page, { businessName: "Pancake House" });
  const name = `Pancake site ${Date.now()}`;
  await requestProposal(page, name);
  const id = (await sql.query(`select id from proposal where project_name = $1`, [name])).rows[0].id as number;

  // The admin sees every field of the request.
  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals/${id}`);
  const request = admin.getByRole("region", { name: "The client's request" });
  for (const text of [
    `Details of ${name}`,
    "Second line of the brief.",
    "Before summer",
    "$4,000.00",
    "Night owls who like pancakes",
    "https://example.com/inspiration",
    "7",
    "Creative",
  ]) {
    await expect(request).toContainText(text);
  }
  await expect(admin.getByTestId("offer-state")).toHaveText("No offer sent yet: the client sees nothing until you send one.");
  await admin.getByRole("link", { name: "Write the offer" }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/proposals/${id}/offer$`));
  await hydrated(admin);

  // The offer: three items, a 30 % deposit, a validity date.
  const scope = `Scope ${Date.now()}: design, build and launch.\nTraining included.`;
  await admin.getByLabel("Scope of the work").fill(scope);
  await admin.getByRole("button", { name: "+ Add item" }).click();
  await admin.getByRole("button", { name: "+ Add item" }).click();
  await fillItem(admin, 1, "Design", "1", "1,500");
  await fillItem(admin, 2, "Pages", "5", "400");
  await fillItem(admin, 3, "Hosting setup", "1", "250");
  await expect(admin.getByTestId("offer-total")).toHaveText("$3,750.00");
  await admin.getByLabel("Estimated timeline").fill("6 weeks");
  await admin.getByLabel("Deposit", { exact: true }).selectOption("percent");
  await admin.getByLabel("Deposit amount or percentage").fill("30");
  await admin.getByLabel("Offer valid until").fill("2030-12-31");
  await admin.getByRole("button", { name: "Save draft" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Draft saved. The client does not see it.");

  // The draft reaches the client nowhere: not the page, not its data.
  const html = await (await page.request.get(`/proposals/${id}`)).text();
  const loaderData = await (await page.request.get(`/proposals/${id}.data`)).text();
  for (const body of [html, loaderData]) {
    expect(body).not.toContain("Hosting setup");
    expect(body).not.toContain("Scope ");
  }

  // Send: version 1, a mail with the link, status Awaiting acceptance.
  await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 1 sent to the client.");
  expect((await sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("awaiting_acceptance");
  const offerMail = await mailTo(client.email, /^Your offer is ready/);
  const link = /(\/proposals\/\d+)/.exec(offerMail.text ?? "")![1]!;
  expect(link).toBe(`/proposals/${id}`);

  // The client reads it in full on a phone, on the proposal page and on the signing page it links to.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link);
  await page.getByRole("link", { name: "Review and accept version 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/proposals/${id}/accept$`));
  const offer = page.getByRole("region", { name: /The agency's offer — version 1/ });
  await expect(offer).toContainText("design, build and launch.");
  await expect(offer).toContainText("Training included.");
  for (const text of ["Design", "Pages", "Hosting setup", "5 × $400.00", "$3,750.00", "30 % ($1,125.00)", "6 weeks", "Dec 31, 2030"]) {
    await expect(offer).toContainText(text);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

  // Accept and sign: the name and the tick are both required.
  await hydrated(page);
  // Without the tick, the server refuses (the browser's own check is bypassed by a direct post).
  const unticked = await page.request.post(`${link}/accept`, {
    form: { intent: "accept-offer", typedName: "Ann Pancake", version: "1" },
  });
  expect(unticked.status()).toBe(400);
  expect((await sql.query(`select count(*)::int as n from proposal_acceptance where proposal_id = $1`, [id])).rows[0].n).toBe(0);
  await page.getByLabel("Your full name").fill("Ann Pancake");
  await page.getByLabel("I have read and agree to these terms").check();
  await expect(page.getByTestId("after-signing")).toContainText("After you sign, you pay the deposit: Pay $1,125.00 now (deposit).");
  await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
  // #37: the deposit invoice is issued at once and the client lands on it, to pay in the same sitting.
  await expect(page).toHaveURL(/\/view-invoice\/\d+\?signed=1$/);
  await expect(page.getByText("You accepted and signed the offer.")).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$1,125.00");
  await expect(page.getByTestId("deposit-sentence")).toContainText("Pay $1,125.00 now (deposit). The remaining $2,625.00 is due by");
  await page.goto(`${link}/accept`);
  await expect(page.getByTestId("offer-acceptance")).toContainText("You accepted version 1 as Ann Pancake");

  // The certificate: name, version and the hash of the canonical form computed here.
  const [{ terms, sha256: storedHash }] = (
    await sql.query(`select terms, sha256 from proposal_version where proposal_id = $1 and number = 1`, [id])
  ).rows;
  const expectedHash = sha256(canonical(terms));
  expect(storedHash).toBe(expectedHash);
  const href = await page.getByRole("link", { name: "Download the certificate of acceptance (PDF)" }).getAttribute("href");
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  const text = await pdfText(await download.body());
  expect(text).toContain("Certificate of acceptance");
  expect(text).toContain("Ann Pancake");
  expect(text).toContain(client.email);
  expect(text).toMatch(/Version:\s*1/);
  expect(text).toContain(expectedHash);
  const certificateId = /certificate\/([A-Za-z0-9_-]+)/.exec(href!)![1]!;
  await mailTo(client.email, /^Certificate of acceptance/);

  // Anyone checks it: standing.
  const stranger = await newUserPage(browser);
  await stranger.goto(`/verify/${certificateId}`);
  await expect(stranger.getByTestId("verify-state")).toHaveText("This acceptance stands.");
  await expect(stranger.getByTestId("verify-hash")).toHaveText(expectedHash);
  await expect(stranger.getByText(client.email)).toHaveCount(0);
  expect((await stranger.request.get(`/verify/unknown-certificate-000`)).status()).toBe(404);
  // Another signed-in client cannot download it.
  const other = await newUserPage(browser);
  await registerClient(other);
  expect((await other.request.get(href!)).status()).toBe(404);

  // The admin changes the price: version 2 voids the acceptance.
  await admin.reload();
  await hydrated(admin);
  await admin.getByLabel("Item 1 unit price").fill("1,750");
  await admin.getByRole("button", { name: "Send to client (version 2)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 2 sent to the client.");
  await expect(admin.getByTestId("version-history")).toContainText("Acceptance of version 1 voided by version 2");
  await expect(admin.getByTestId("version-history")).toContainText("$3,750.00");
  await stranger.reload();
  await expect(stranger.getByTestId("verify-state")).toContainText("This acceptance was voided by version 2 of the terms");
  await mailTo(client.email, /^Acceptance of version 1 voided/);

  // The client must accept version 2; the History shows the change. Two tabs: a third version meanwhile.
  await page.goto(link);
  await expect(page.getByTestId("version-history")).toContainText("Acceptance of version 1 voided by version 2");
  await expect(page.getByTestId("version-history")).toContainText("$4,000.00");
  // The second tab runs without JavaScript, so no live update refreshes it: it still shows version 2.
  const staleContext = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
    extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
    viewport: { width: 390, height: 844 },
  });
  const secondTab = await staleContext.newPage();
  await secondTab.goto(`${link}/accept`);
  await expect(secondTab.getByRole("button", { name: "Accept version 2 and sign" })).toBeVisible();
  await admin.getByLabel("Estimated timeline").fill("8 weeks");
  await admin.getByRole("button", { name: "Send to client (version 3)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 3 sent to the client.");
  await secondTab.getByLabel("Your full name").fill("Ann Pancake");
  await secondTab.getByLabel("I have read and agree to these terms").check();
  await secondTab.getByRole("button", { name: "Accept version 2 and sign" }).click();
  const stale = secondTab.getByTestId("stale-version");
  await expect(stale).toContainText("you saw version 2, the current one is version 3");
  await expect(stale).toContainText("What changed in version 3");
  await expect(stale).toContainText("8 weeks");
  expect(
    (await sql.query(`select count(*)::int as n from proposal_acceptance where proposal_id = $1 and voided_at is null`, [id])).rows[0].n,
  ).toBe(0);
  // The new terms are shown with their own button.
  await secondTab.getByLabel("Your full name").fill("Ann Pancake");
  await secondTab.getByLabel("I have read and agree to these terms").check();
  await secondTab.getByRole("button", { name: "Accept version 3 and sign" }).click();
  await expect(secondTab.getByText("You accepted version 3.")).toBeVisible();
  const accepted = await sql.query(
    `select version_number, typed_name, ip, user_agent from proposal_acceptance where proposal_id = $1 and voided_at is null`,
    [id],
  );
  expect(accepted.rows).toEqual([expect.objectContaining({ version_number: 3, typed_name: "Ann Pancake" })]);
  expect(accepted.rows[0].user_agent).toBeTruthy();
  expect(accepted.rows[0].ip).toBeTruthy();

  // The deposit invoice of version 1 holds the offer's items; a re-acceptance issued no second one, and
  // Generate invoice names it before making another (#37).
  const { rows: issued } = await sql.query(
    `select i.number, i.deposit_cents, array_agg(it.description order by it.position) as items
       from invoice i join invoice_item it on it.invoice_id = i.id where i.proposal_id = $1 group by i.id`,
    [id],
  );
  expect(issued).toEqual([expect.objectContaining({ deposit_cents: 112_500, items: ["Design", "Pages (5 × $400.00)", "Hosting setup"] })]);
  await admin.goto(`/admin/generate-invoice/${id}`);
  await expect(admin.getByTestId("existing-invoices")).toContainText(issued[0].number);
  for (const p of [admin, stranger, other, secondTab]) await p.close();
});

test("accepting works without JavaScript", async ({ browser, sql }) => {
  test.setTimeout(120_000);
  await givePaymentInstructions(sql);
  const page = await newUserPage(browser, { javaScriptEnabled: false });
  const client = await registerClient(page);
  const name = `No-JS site ${Date.now()}`;
  await requestProposal(page, name);
  const id = (await sql.query(`select id from proposal where project_name = $1`, [name])).rows[0].id as number;
  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals/${id}/offer`);
  await hydrated(admin);
  await admin.getByLabel("Scope of the work").fill("Everything, without scripts.");
  await admin.getByRole("button", { name: "Send to client (version 1)" }).click();
  await expect(admin.locator("#offer-error")).toHaveText("Version 1 sent to the client.");
  await mailTo(client.email, /^Your offer is ready/);

  await page.goto(`/proposals/${id}`);
  await page.getByRole("link", { name: "Review and accept version 1" }).click();
  await page.getByLabel("Your full name").fill("Nora Script");
  await page.getByLabel("I have read and agree to these terms").check();
  await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
  await expect(page.getByText("You accepted version 1.")).toBeVisible();
  await expect(page.getByTestId("offer-acceptance")).toContainText("Nora Script");
  const { rows } = await sql.query(`select typed_name, version_number from proposal_acceptance where proposal_id = $1`, [id]);
  expect(rows).toEqual([{ typed_name: "Nora Script", version_number: 1 }]);
  await admin.close();
  await page.close();
});

test("an ambassador's proposal is version 1 at submission and is accepted the same way", async ({ page, browser, sql }) => {
  test.setTimeout(120_000);
  await givePaymentInstructions(sql);
  const ambassador = await registerAmbassador(page);
  const clientPage = await newUserPage(browser);
  const client = await registerClient(clientPage, { referralCode: ambassador.referralCode });
  await clientPage.goto(verificationPath(await verificationMail(client.email)));
  await clientPage.getByRole("button", { name: `Yes, verify ${client.email}` }).click();
  await expect(clientPage.getByRole("status").filter({ hasText: "verified" })).toBeVisible();
  const name = `Referred cafe ${Date.now()}`;
  await page.goto("/ambassador/submit-proposal");
  await page.getByLabel("Client name").fill("Cafe Owner");
  await page.getByLabel("Client email").fill(client.email);
  await page.getByLabel("Project name (optional)").fill(name);
  await page.getByLabel("Project details").fill("A cafe website with a menu.");
  await page.getByLabel("Budget (optional)").fill("3,000");
  await page.getByRole("button", { name: /Submit/ }).click();
  await expect(page.getByText("Proposal submitted successfully!")).toBeVisible();
  const id = (await sql.query(`select id from proposal where project_name = $1`, [name])).rows[0].id as number;

  await clientPage.setViewportSize({ width: 390, height: 844 });
  await clientPage.goto("/client-dashboard");
  const awaiting = clientPage.getByRole("region", { name: "Proposals awaiting your approval" });
  await expect(awaiting).toContainText(name);
  await awaiting.getByRole("listitem").filter({ hasText: name }).getByRole("link", { name: "Review and accept" }).click();
  await expect(clientPage).toHaveURL(new RegExp(`/proposals/${id}/accept$`));
  const offer = clientPage.getByRole("region", { name: /The agency's offer — version 1/ });
  await expect(offer).toContainText("A cafe website with a menu.");
  await expect(offer).toContainText("$3,000.00");
  await hydrated(clientPage);
  await clientPage.getByLabel("Your full name").fill("Cafe Owner");
  await clientPage.getByLabel("I have read and agree to these terms").check();
  await clientPage.getByRole("button", { name: "Accept version 1 and sign" }).click();
  await expect(clientPage.getByRole("status").filter({ hasText: "You accepted version 1." })).toBeVisible();
  expect((await sql.query(`select client_approved_at from proposal where id = $1`, [id])).rows[0].client_approved_at).toBeInstanceOf(Date);

  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals/${id}`);
  await expect(admin.getByTestId("offer-acceptance")).toContainText("Accepted by Cafe Owner (version 1).");
  const certificate = await admin.getByRole("link", { name: "Certificate of acceptance (PDF)" }).getAttribute("href");
  expect((await admin.request.get(certificate!)).status()).toBe(200);
  // The ambassador cannot download it (the admin route's guard), nor the client's route.
  await login(page, ambassador.email);
  expect((await page.request.get(certificate!, { maxRedirects: 0 })).status()).toBe(302);
  await admin.close();
  await clientPage.close();
});
