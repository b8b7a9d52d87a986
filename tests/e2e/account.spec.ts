/**
 * The account page (docs/product.md#account-page) in Chromium against the built app: profile,
 * e-mail change (links read from the SMTP server's mail), password change and remote sign-out
 * ending another browser context's session, TOTP two-factor (codes computed from the shown
 * secret) with and without JavaScript, "Require two-factor for admins", and passkeys with
 * Chromium's virtual authenticator.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as OTPAuth from "otpauth";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { spawnApp, type AppProcess } from "../helpers/app-server";
import { startIsolatedApp } from "./global-setup";
import {
  ADMIN,
  PASSWORD,
  SERVER_ANSWER,
  expect,
  fillFields,
  hydrated,
  logout,
  mailTo,
  registerClient,
  test,
  uniqueEmail,
  uniqueIp,
} from "./fixtures";

async function otherBrowser(browser: Browser, baseURL: string | undefined, javaScriptEnabled = true): Promise<BrowserContext> {
  return browser.newContext({ baseURL, javaScriptEnabled, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
}

/** Signs in through the /login form. */
async function signInForm(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await fillFields(page, { Email: email, Password: password });
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Registers a client on `page` and signs the same client in from a second browser context. */
async function clientInTwoBrowsers(page: Page, browser: Browser, baseURL: string | undefined) {
  const client = await registerClient(page);
  const other = await otherBrowser(browser, baseURL);
  const otherPage = await other.newPage();
  await signInForm(otherPage, client.email);
  await expect(otherPage).toHaveURL(/\/client-dashboard$/);
  return { client, other, otherPage };
}

test.describe("profile, e-mail and password", () => {
  test("a client edits the profile; errors stay next to the field", async ({ page, sql }) => {
    const client = await registerClient(page);
    await page.goto("/account/profile");
    const profile = page.locator("#profile");
    await fillFields(profile, { "Business name": "Renamed Bakery", Phone: "not a phone" });
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(profile.getByText("Phone may contain only digits")).toBeVisible();
    await fillFields(profile, { Phone: "+1 202 555 0177", "Website (optional)": "https://renamed.example" });
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(profile.getByText("Your profile has been saved.")).toBeVisible();
    const { rows } = await sql.query(`select business_name, phone, website from "user" where email = $1`, [client.email]);
    expect(rows[0]).toEqual({ business_name: "Renamed Bakery", phone: "+1 202 555 0177", website: "https://renamed.example" });
  });

  test("an e-mail change applies from the link in the mail; the old address is told", async ({ page, sql, browser, baseURL }) => {
    const client = await registerClient(page);
    const newEmail = uniqueEmail("moved");
    await page.goto("/account/profile");
    const section = page.locator("#email");
    await fillFields(section, { "New e-mail address": newEmail, "Current password": PASSWORD });
    await section.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(section.getByText("We sent a confirmation link")).toBeVisible();
    expect((await sql.query(`select 1 from "user" where email = $1`, [client.email])).rowCount).toBe(1);

    const mail = await mailTo(newEmail, /^Confirm your new e-mail address — /);
    const link = /(http\S+confirm-email\?token=[\w-]+)/.exec(mail.text ?? "")![1]!;
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByText(`becomes ${newEmail}`)).toBeVisible();
    await page.getByRole("button", { name: "Confirm new e-mail" }).click();
    await expect(page.getByText("Your e-mail address has been changed.")).toBeVisible();
    const notice = await mailTo(client.email, /^Your e-mail address was changed — /);
    expect(notice.text).toContain(newEmail);
    // The link works once.
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByText("This link is invalid, expired or already used.")).toBeVisible();

    // A taken address is refused next to the field.
    const otherContext = await otherBrowser(browser, baseURL);
    const other = await registerClient(await otherContext.newPage());
    await otherContext.close();
    await page.goto("/account/profile");
    await fillFields(section, { "New e-mail address": other.email, "Current password": PASSWORD });
    await section.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(section.getByText("An account with this e-mail already exists.")).toBeVisible();
  });

  test("a password change ends the session of another browser, keeps this one, and sends a notice", async ({ page, browser, baseURL }) => {
    const { client, other, otherPage } = await clientInTwoBrowsers(page, browser, baseURL);

    await page.goto("/account/security");
    const section = page.locator("#password");
    await fillFields(section, {
      "Current password": "wrong-password",
      "New password": "brand-new-pass-1",
      "Repeat the new password": "brand-new-pass-1",
    });
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(section.getByText("Wrong password.")).toBeVisible();
    await otherPage.goto("/project-status");
    await expect(otherPage).toHaveURL(/\/project-status$/);

    await fillFields(section, {
      "Current password": PASSWORD,
      "New password": "brand-new-pass-1",
      "Repeat the new password": "brand-new-pass-1",
    });
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Your password has been changed. You were signed out everywhere else.")).toBeVisible();

    await otherPage.goto("/client-dashboard");
    await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Fclient-dashboard$/);
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await mailTo(client.email, /^Your password was changed — /);
    await other.close();
  });

  test("the session list shows both browsers; signing one out sends it to /login", async ({ page, browser, baseURL }) => {
    const { other, otherPage } = await clientInTwoBrowsers(page, browser, baseURL);

    await page.goto("/account/sessions");
    const list = page.getByRole("list", { name: "Active sessions" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list.getByRole("listitem").filter({ hasText: "This device" })).toHaveCount(1);
    await expect(list.getByRole("listitem").first()).toContainText(/Chrom\w* on Linux/);
    const otherRow = list.getByRole("listitem").filter({ hasNotText: "This device" });
    await expect(otherRow).toContainText("Last active");
    await otherRow.getByRole("link", { name: "Sign out" }).click();
    await otherRow.getByRole("button", { name: "Yes, sign out" }).click();
    await expect(page.getByText("That session has been signed out.")).toBeVisible();
    await expect(list.getByRole("listitem")).toHaveCount(1);

    await otherPage.goto("/proposal-request");
    await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Fproposal-request$/);
    await other.close();
  });
});

/** Sets up TOTP from /account; @returns the authenticator and the backup codes shown. */
async function setUpTotp(page: Page): Promise<{ totp: OTPAuth.TOTP; backupCodes: string[] }> {
  const section = page.locator("#two-factor");
  await section.getByLabel("Password").fill(currentPassword(page));
  await section.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(section.getByRole("img", { name: "QR code of the two-factor secret" }).locator("svg")).toBeVisible();
  const secret = (await section.getByTestId("totp-secret").textContent())!.trim();
  const backupCodes = await section.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
  expect(backupCodes).toHaveLength(10);
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  await section.getByLabel("Code from your app").fill("000000" === totp.generate() ? "111111" : "000000");
  await section.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(section.getByText("That code is not valid. Try again.")).toBeVisible(SERVER_ANSWER);
  await section.getByLabel("Code from your app").fill(totp.generate());
  await section.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(section.getByText("Two-factor authentication is on.", { exact: true })).toBeVisible(SERVER_ANSWER);
  return { totp, backupCodes };
}

const passwords = new WeakMap<Page, string>();
function currentPassword(page: Page): string {
  return passwords.get(page) ?? PASSWORD;
}

/** A code of a later period than any used so far (each code is accepted once). */
const nextCode = (totp: OTPAuth.TOTP) => totp.generate({ timestamp: Date.now() + 30_000 });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`two-factor with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("enable, sign in with a code, wrong code refused, backup code once, disable", async ({ page, sql }) => {
      // A budget for a hang: 8 password checks and 7 sign-in steps, each waited for as long as it takes (SERVER_ANSWER).
      test.setTimeout(180_000);
      const client = await registerClient(page);
      await page.goto("/account/security");
      if (javaScriptEnabled) await hydrated(page);
      const { totp, backupCodes } = await setUpTotp(page);
      expect((await sql.query(`select two_factor_enabled from "user" where email = $1`, [client.email])).rows[0]).toEqual({
        two_factor_enabled: true,
      });
      await logout(page);

      // The password alone is not enough.
      await signInForm(page, client.email);
      await expect(page).toHaveURL(/\/login\/two-factor$/, SERVER_ANSWER);
      await page.goto("/client-dashboard");
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await signInForm(page, client.email);
      await expect(page).toHaveURL(/\/login\/two-factor$/, SERVER_ANSWER);
      await page.getByLabel("Code").fill(totp.generate({ timestamp: Date.now() + 5 * 60_000 }));
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText("That code is not valid. Try again.")).toBeVisible(SERVER_ANSWER);
      const code = nextCode(totp);
      await page.getByLabel("Code").fill(code);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);
      await logout(page);

      // The same code again is refused.
      await signInForm(page, client.email);
      await page.getByLabel("Code").fill(code);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText(/already been used/)).toBeVisible(SERVER_ANSWER);
      await page.goto("/client-dashboard");
      await expect(page).toHaveURL(/\/login\?redirectTo=/);

      // A backup code works once.
      await signInForm(page, client.email);
      await page.getByLabel("Code").fill(backupCodes[0]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);
      await logout(page);
      await signInForm(page, client.email);
      await page.getByLabel("Code").fill(backupCodes[0]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText("That code is not valid. Try again.")).toBeVisible(SERVER_ANSWER);
      await page.getByLabel("Code").fill(backupCodes[1]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);

      // Disable: password + code.
      await page.goto("/account/security");
      const section = page.locator("#two-factor");
      await fillFields(section, { Password: PASSWORD, "Code from your app, or a backup code": "99999-zzzzz" });
      await section.getByRole("button", { name: "Turn off two-factor" }).click();
      await expect(section.getByText("That code is not valid. Try again.")).toBeVisible(SERVER_ANSWER);
      await fillFields(section, { Password: PASSWORD, "Code from your app, or a backup code": backupCodes[2]! });
      await section.getByRole("button", { name: "Turn off two-factor" }).click();
      await expect(page.getByText("Two-factor authentication is off.")).toBeVisible(SERVER_ANSWER);
      await logout(page);
      await signInForm(page, client.email);
      await expect(page).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);
    });
  });
}

test("Require two-factor for admins: an admin without it is sent to set it up first (JavaScript off for the admin)", async ({
  browser,
}) => {
  // A budget for a hang: the isolated app's start alone may take up to 180 s on a busy machine
  // (spawnApp's own limit), then the flow (4 sign-in steps, 2 password checks) up to 120 s.
  test.setTimeout(300_000);
  const app = await startIsolatedApp("admin2fa");
  try {
    const settingsContext = await otherBrowser(browser, app.baseUrl);
    const page = await settingsContext.newPage();
    await signInForm(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/admin$/, SERVER_ANSWER);
    await page.goto("/admin/settings/sign-in");
    // Hydrated first: a click before hydration posts the form natively, which shows "Settings
    // saved."; after it, the revalidation that follows the save already sends this admin (who has
    // no two-factor) to set it up. Either way the setting is saved; the test takes one path.
    await hydrated(page);
    await page.getByLabel("Require two-factor for admins").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page).toHaveURL(/\/account\/security\?setup=two-factor/, SERVER_ANSWER);
    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/account\/security\?setup=two-factor/);
    await settingsContext.close();

    const noJs = await otherBrowser(browser, app.baseUrl, false);
    const admin = await noJs.newPage();
    passwords.set(admin, ADMIN.password);
    await signInForm(admin, ADMIN.email, ADMIN.password);
    await expect(admin).toHaveURL(/\/account\/security\?setup=two-factor/, SERVER_ANSWER);
    await expect(admin.getByText("An admin must use two-factor authentication")).toBeVisible(SERVER_ANSWER);
    const { totp } = await setUpTotp(admin);
    await admin.goto("/admin/settings/sign-in");
    await expect(admin).toHaveURL(/\/admin\/settings\/sign-in$/);
    await expect(admin.getByLabel("Require two-factor for admins")).toBeChecked();

    // Signing in again asks for the code, then the admin pages open.
    await admin.context().clearCookies();
    await signInForm(admin, ADMIN.email, ADMIN.password);
    await expect(admin).toHaveURL(/\/login\/two-factor$/, SERVER_ANSWER);
    await admin.getByLabel("Code").fill(nextCode(totp));
    await admin.getByRole("button", { name: "Verify" }).click();
    await expect(admin).toHaveURL(/\/admin$/, SERVER_ANSWER);
    await noJs.close();
  } finally {
    await app.stop();
  }
});

test("without JavaScript, /login says passkeys need it and the password form still works", async ({ browser, baseURL }) => {
  const context = await otherBrowser(browser, baseURL, false);
  const page = await context.newPage();
  await page.goto("/login");
  await expect(page.getByText("Signing in with a passkey needs JavaScript.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sign in with a passkey" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
  await signInForm(page, ADMIN.email, ADMIN.password);
  await expect(page).not.toHaveURL(/\/login/);
  await context.close();
});

test.describe("passkeys", () => {
  let app: AppProcess;
  let dataDir: string;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // WebAuthn's relying party must be a host name, not 127.0.0.1: a second instance on the
    // same database, reached as localhost.
    dataDir = fs.mkdtempSync(path.join(process.env.E2E_TMP ?? os.tmpdir(), "passkey-"));
    app = await spawnApp(
      {
        BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
        OWNER_EMAIL: "owner@portfolio.test",
        DATABASE_URL: process.env.E2E_DATABASE_URL!,
        DATA_DIR: dataDir,
        SMTP_URL: process.env.E2E_SMTP_URL ?? "",
      },
      { hostname: "localhost" },
    );
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("register a passkey with the virtual authenticator, sign out, sign in with it, rename and remove it", async ({ browser }) => {
    const context = await otherBrowser(browser, app.baseUrl);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const client = await registerClient(page);
    await page.goto("/account/security");
    await hydrated(page);
    const section = page.locator("#passkeys");
    await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
    await section.getByLabel("Name of the new passkey (optional)").fill("Work laptop");
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByText("The passkey has been added.")).toBeVisible();
    await expect(section.getByRole("list", { name: "Your passkeys" }).getByRole("listitem")).toHaveCount(1);
    await expect(section.getByText("Work laptop", { exact: true })).toBeVisible();

    await logout(page);
    await page.goto("/login");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Sign in with a passkey" })).toBeVisible();
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await page.goto("/account/security");
    await expect(page.getByText(`Signed in as ${client.email}.`)).toBeVisible();

    await section.getByLabel("New name for Work laptop").fill("Home laptop");
    await section.getByRole("button", { name: "Rename" }).click();
    await expect(section.getByText("The passkey has been renamed.")).toBeVisible();
    await expect(section.getByText("Home laptop", { exact: true })).toBeVisible();
    await section.getByRole("link", { name: "Remove" }).click();
    await section.getByRole("button", { name: "Yes, remove" }).click();
    await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
    await context.close();
  });
});
