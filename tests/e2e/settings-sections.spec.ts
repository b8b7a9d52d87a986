/**
 * Settings and the account page, one page per section (issue #41): the section menu (a navigation
 * with `aria-current`) reaches every section by keyboard, the old URLs and anchors land on the
 * right section, a section's save says so next to its form and persists while leaving the other
 * sections' settings alone, and each section page is axe clean with no sideways scroll on a phone.
 * An app of its own: the saves change global settings.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, newUserPage, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

const ADMIN_SECTIONS = [
  ["Company and billing details", "/admin/settings/company"],
  ["Brand", "/admin/settings/brand"],
  ["Availability", "/admin/settings/availability"],
  ["Reminders", "/admin/settings/reminders"],
  ["Payments", "/admin/settings/payments"],
  ["Commissions", "/admin/settings/commissions"],
  ["Terms", "/admin/settings/terms"],
  ["Sign-in and registration", "/admin/settings/sign-in"],
] as const;
const ACCOUNT_SECTIONS = [
  ["Profile", "/account/profile"],
  ["Security", "/account/security"],
  ["Sessions", "/account/sessions"],
  ["Privacy", "/account/privacy"],
] as const;

let app: Awaited<ReturnType<typeof startIsolatedApp>>;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  app = await startIsolatedApp("settings-sections");
});
test.afterAll(async () => app?.stop());

/** From the menu's first link, Tab to each section's link in turn and open it with Enter. */
async function walkByKeyboard(page: Page, start: string, menu: string, sections: readonly (readonly [string, string])[]) {
  for (const [index, [label, path]] of sections.entries()) {
    await page.goto(start);
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: menu });
    await nav.getByRole("link").first().focus();
    for (let i = 0; i < index; i++) await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  }
}

async function expectCleanOnPhone(page: Page, path: string) {
  const { violations } = await axeBuilder(page).analyze();
  expect(
    violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(" ")}`)),
    path,
  ).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${path}: sideways scroll`).toBeLessThanOrEqual(0);
}

test("admin settings: every section by keyboard, old URLs land on their section, a save persists and leaves the others", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  await walkByKeyboard(admin, "/admin/settings/company", "Settings sections", ADMIN_SECTIONS);

  // The old single page shows the first section, marked current; its old anchors open their section.
  await admin.goto("/admin/settings");
  await expect(admin.getByRole("heading", { level: 2, name: "Company and billing details" })).toBeVisible();
  await expect(
    admin.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Company and billing details" }),
  ).toHaveAttribute("aria-current", "page");
  // (A document load each: a hash-only change of the same page is no navigation.)
  await admin.goto("/admin");
  await admin.goto("/admin/settings#payment-instructions");
  await expect(admin).toHaveURL(/\/admin\/settings\/payments#payment-instructions$/);
  await expect(admin.getByLabel("Payment instructions (optional)")).toBeVisible();
  await admin.goto("/admin");
  await admin.goto("/admin/settings#logo-title");
  await expect(admin).toHaveURL(/\/admin\/settings\/brand#logo-title$/);
  await expect(admin.getByLabel("Logo file")).toBeVisible();

  // Terms saved on their page: the message, the value after a reload, the company name untouched.
  await admin.goto("/admin/settings/company");
  await hydrated(admin);
  await admin.getByLabel("Company name").fill("Harbor Light Studio");
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("✅ Settings saved.")).toBeVisible();
  await admin.goto("/admin/settings/terms");
  await hydrated(admin);
  await admin.getByLabel("Terms and conditions (optional)").fill("Payment within 30 days.");
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("✅ Settings saved.")).toBeVisible();
  await admin.reload();
  await expect(admin.getByLabel("Terms and conditions (optional)")).toHaveValue("Payment within 30 days.");
  const { rows } = await app.sql.query("select company_name, terms_and_conditions, commission_rate_bps from settings where id = 1");
  expect(rows[0]).toEqual({
    company_name: "Harbor Light Studio",
    terms_and_conditions: "Payment within 30 days.",
    commission_rate_bps: 1500,
  });

  // A refusal stays next to its field on the section's page, nothing saved.
  await admin.goto("/admin/settings/commissions");
  await hydrated(admin);
  await admin.getByLabel("Ambassador commission (%)").fill("150");
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("The rate must be between 0 and 100 %.")).toBeVisible();
  await expect(admin).toHaveURL(/\/admin\/settings\/commissions$/);

  // Each section on a phone: axe clean, no sideways scroll.
  await admin.setViewportSize({ width: 390, height: 844 });
  for (const [, path] of ADMIN_SECTIONS) {
    await admin.goto(path);
    await expectCleanOnPhone(admin, path);
  }
  await admin.context().close();
});

test("account: every section by keyboard, old URLs land on their section, a save persists", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await newUserPage(browser, { baseURL: app.baseUrl });
  const client = await registerClient(page);
  await walkByKeyboard(page, "/account/profile", "Account sections", ACCOUNT_SECTIONS);

  await page.goto("/account");
  await expect(page.getByRole("navigation", { name: "Account sections" }).getByRole("link", { name: "Profile" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.goto("/account#close-account");
  await expect(page).toHaveURL(/\/account\/privacy#close-account$/);
  await expect(page.getByRole("heading", { name: "Close your account" })).toBeVisible();
  await page.goto("/account?my-data=queued");
  await expect(page).toHaveURL(/\/account\/privacy\?my-data=queued$/);
  await page.goto("/account/profile");
  await page.goto("/account#two-factor");
  await expect(page).toHaveURL(/\/account\/security#two-factor$/);

  // The profile saved on its page; a form of another section posted here is refused.
  await page.goto("/account/profile");
  await hydrated(page);
  const profile = page.locator("#profile");
  await profile.getByLabel("Business name").fill("Renamed Bakery");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByText("Your profile has been saved.")).toBeVisible();
  await page.reload();
  await expect(page.locator("#profile").getByLabel("Business name")).toHaveValue("Renamed Bakery");
  const wrong = await page.request.post("/account/profile", { form: { intent: "revoke-other-sessions", confirm: "yes" }, maxRedirects: 0 });
  expect(wrong.status()).toBe(400);
  const { rows } = await app.sql.query(`select business_name from "user" where email = $1`, [client.email]);
  expect(rows[0].business_name).toBe("Renamed Bakery");

  await page.setViewportSize({ width: 390, height: 844 });
  for (const [, path] of ACCOUNT_SECTIONS) {
    await page.goto(path);
    await expectCleanOnPhone(page, path);
  }
  await page.context().close();
});
