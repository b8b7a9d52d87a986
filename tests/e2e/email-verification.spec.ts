/**
 * docs/product.md#email-verification in a real browser against the built app: the portal
 * banner, "Resend link" as a plain form post (no JavaScript), and the link of the mail the real
 * SMTP server received.
 */
import {
  expect,
  fillFields,
  hydrated,
  loginAsAdmin,
  PASSWORD,
  registerAmbassador,
  registerClient,
  test,
  uniqueEmail,
  uniqueIp,
  verificationMail,
  verificationPath,
} from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { reviewScreenshot } from "./review-screenshot";

test.describe("e-mail verification without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the banner's Resend link mails a new link; opening it verifies the address and the banner goes", async ({ page, sql, baseURL }) => {
    const client = await registerClient(page);
    const first = await verificationMail(client.email);
    expect(first.text).toContain(`${baseURL}/verify-email?token=`);

    await page.goto("/client-dashboard");
    const banner = page.getByRole("region", { name: "E-mail verification" });
    await expect(banner).toContainText(`Verify your e-mail address. We sent a link to ${client.email}.`);
    await banner.getByRole("button", { name: "Resend link" }).click();
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByRole("status").filter({ hasText: "new verification link" })).toHaveText(
      `We e-mailed a new verification link to ${client.email}, unless it is verified already.`,
    );
    const second = await verificationMail(client.email, first);
    expect((await sql.query(`select email_verified from "user" where email = $1`, [client.email])).rows[0].email_verified).toBe(false);

    // Opening the link (as a mail provider's link scanner does) changes nothing: the page asks.
    await page.goto(verificationPath(second));
    await expect(page.getByText(`Someone created an account with ${client.email}.`)).toBeVisible();
    expect((await sql.query(`select email_verified from "user" where email = $1`, [client.email])).rows[0].email_verified).toBe(false);
    await page.getByRole("button", { name: `Yes, verify ${client.email}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "verified" })).toHaveText("Your e-mail address is verified. Thank you!");
    expect((await sql.query(`select email_verified from "user" where email = $1`, [client.email])).rows[0].email_verified).toBe(true);
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await expect(banner).toHaveCount(0);

    // A tampered link is refused and offers a new one.
    await page.goto(`${verificationPath(second).slice(0, -3)}xyz`);
    await expect(page.getByRole("alert")).toHaveText("This verification link is invalid or has expired. Sign in and ask for a new one.");
    await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();
  });

  test("“This was not me”: the account that used the address is closed and signed out, the address is free", async ({
    page,
    browser,
    sql,
  }) => {
    const attacker = await registerClient(page);
    const link = verificationPath(await verificationMail(attacker.email));
    const owner = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    const ownerPage = await owner.newPage();
    await ownerPage.goto(link);
    await ownerPage.getByRole("link", { name: "This was not me" }).click();
    await expect(ownerPage.getByRole("alertdialog")).toContainText(`Close the account that used ${attacker.email}?`);
    await ownerPage.getByRole("button", { name: "Yes, close it" }).click();
    await expect(ownerPage.getByRole("status").filter({ hasText: "free again" })).toBeVisible();
    const [row] = (await sql.query(`select email, closed_at from "user" where email = $1`, [attacker.email])).rows;
    expect(row).toBeUndefined();
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/login/);
    await owner.close();
  });

  test("ambassadors see the banner too", async ({ page }) => {
    await registerAmbassador(page);
    await page.goto("/ambassador/dashboard");
    await expect(page.getByRole("region", { name: "E-mail verification" }).getByRole("button", { name: "Resend link" })).toBeVisible();
    await reviewScreenshot(page, "test-results/verify-banner-1280.png");
  });
});

test.describe("e-mail verification banner on a 390 px wide screen", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("does not scroll sideways", async ({ page }) => {
    await registerClient(page, { email: `a-rather-long-mailbox-name-${Date.now()}@example.com` });
    await page.goto("/client-dashboard");
    await expect(page.getByRole("region", { name: "E-mail verification" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await reviewScreenshot(page, "test-results/verify-banner-390.png");
  });
});

test.describe("with “Require e-mail verification to sign in” on", () => {
  test.describe.configure({ timeout: 180_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  test.beforeAll(async () => {
    test.setTimeout(180_000); // a fresh database and server
    app = await startIsolatedApp("verify");
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("the admin turns it on; a new client is not signed in, sign-in is refused with a resend option until the mailed link is opened", async ({
    browser,
  }) => {
    const newPage = async () =>
      (await browser.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } })).newPage();
    const admin = await newPage();
    await loginAsAdmin(admin);
    await admin.goto("/admin/settings/sign-in");
    await hydrated(admin);
    await admin.getByLabel("Require e-mail verification to sign in").check();
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText("✅ Settings saved.")).toBeVisible();
    expect((await app.sql.query("select require_email_verification from settings where id = 1")).rows[0].require_email_verification).toBe(
      true,
    );

    const page = await newPage();
    const email = uniqueEmail("must-verify");
    await page.goto("/register");
    await hydrated(page);
    await fillFields(page, { "Business name": "Careful Co", Email: email, "Phone (optional)": "301 555 0100", Password: PASSWORD });
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/login\?verify=sent$/, { timeout: 30_000 }); // password hashing on a busy machine
    await expect(page.getByRole("status").filter({ hasText: "inbox" })).toHaveText(
      "Check your inbox: we e-mailed you a link to verify your e-mail address. Open it, then sign in.",
    );
    expect((await page.context().cookies()).filter((c) => c.name.includes("session_token"))).toEqual([]);

    await fillFields(page, { Email: email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Verify your e-mail address before signing in: open the link we e-mailed you, or ask for a new one below.",
      { timeout: 30_000 },
    );
    await expect(page).toHaveURL(/\/login/);
    const first = await verificationMail(email);
    await page.getByRole("button", { name: "Resend the verification link" }).click();
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByRole("status").filter({ hasText: "new verification link" })).toHaveText(
      "If this address has an account that is not verified yet, we e-mailed it a new verification link.",
    );
    const second = await verificationMail(email, first);

    await page.goto(verificationPath(second));
    await page.getByRole("button", { name: `Yes, verify ${email}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "verified" })).toHaveText("Your e-mail address is verified. Thank you!");
    await page.getByRole("link", { name: "Sign in" }).click();
    await fillFields(page, { Email: email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/, { timeout: 30_000 });
    await expect(page.getByRole("region", { name: "E-mail verification" })).toHaveCount(0);
    await admin.context().close();
    await page.context().close();
  });
});
