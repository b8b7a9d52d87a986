/**
 * The first-run checklist on a fresh install's admin dashboard (issue #41): six steps, each link
 * leading to its form; after each form is saved the dashboard ticks that step ("n of 6 done"), and
 * the list is gone once all are done. Settings are global: an app of its own.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

let app: Awaited<ReturnType<typeof startIsolatedApp>>;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  app = await startIsolatedApp("setup");
});
test.afterAll(async () => app?.stop());

async function expectTicked(admin: Page, done: string[]) {
  await admin.goto("/admin");
  const all = ["company-name", "billing-details", "payments", "availability", "brand", "terms"];
  if (done.length === all.length) {
    await expect(admin.getByTestId("setup-checklist")).toHaveCount(0);
    return;
  }
  await expect(admin.getByTestId("setup-progress")).toHaveText(`${done.length} of 6 done. Each step ticks itself once it is saved.`);
  for (const id of all) await expect(admin.getByTestId(`setup-${id}`), id).toHaveAttribute("data-done", String(done.includes(id)));
}

/** Follows a step's link from the dashboard, fills its form and saves. */
async function doStep(admin: Page, link: string, fill: (page: Page) => Promise<void>, save: string, saved: string) {
  await admin.goto("/admin");
  await admin.getByRole("region", { name: "Set up your agency" }).getByRole("link", { name: link }).click();
  await hydrated(admin);
  await fill(admin);
  await admin.getByRole("button", { name: save }).click();
  await expect(admin.getByText(saved)).toBeVisible();
}

test("a fresh install's checklist ticks after each step and goes when all are done", async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  await expectTicked(admin, []);
  const { violations } = await axeBuilder(admin).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);

  const settings = ["Save settings", "Settings saved."] as const;
  await doStep(admin, "Company name", (p) => p.getByLabel("Company name").fill("Harbor Light Studio"), ...settings);
  await expectTicked(admin, ["company-name"]);
  await doStep(
    admin,
    "Address and tax ID",
    async (p) => {
      await p.getByLabel("Company address").fill("1 Harbor Road\nPortsmouth");
      await p.getByLabel("Tax ID (optional)").fill("GB123456789");
    },
    ...settings,
  );
  await expectTicked(admin, ["company-name", "billing-details"]);
  await doStep(admin, "How clients pay", (p) => p.getByLabel("Payment instructions (optional)").fill("IBAN GB00 0000 0000"), ...settings);
  await expectTicked(admin, ["company-name", "billing-details", "payments"]);
  await doStep(
    admin,
    "Time zone and weekly hours",
    async (p) => {
      await p.getByLabel("Your time zone").selectOption("Europe/London");
    },
    "Save availability",
    "Availability saved.",
  );
  await expectTicked(admin, ["company-name", "billing-details", "payments", "availability"]);
  await doStep(admin, "Brand", (p) => p.getByLabel("Accent colour (optional)").fill("#0f766e"), ...settings);
  await expectTicked(admin, ["company-name", "billing-details", "payments", "availability", "brand"]);
  await doStep(
    admin,
    "Terms and conditions",
    (p) => p.getByLabel("Terms and conditions (optional)").fill("Payment within 30 days."),
    ...settings,
  );
  await expectTicked(admin, ["company-name", "billing-details", "payments", "availability", "brand", "terms"]);
});
