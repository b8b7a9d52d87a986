/**
 * Screenshots of issue #41's admin console at 390 and 1280 px, light and dark, on a fresh install
 * with a long company name and a logo: the sidebar (the Menu open on a phone), the global search's
 * results (the open list at 1280, the results page at 390), the first-run checklist, a settings
 * section (with its section menu) and the contact form's success (docs/screenshots/contact-success-*). Each page passes axe first. Writes small PNGs to docs/screenshots/console-*.png — run on
 * demand: `SCREENSHOTS=1 npx playwright test tests/e2e/screenshots-console.spec.ts --workers=1`.
 */
import fs from "node:fs";
import path from "node:path";
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { adminPage, expect, hydrated, newUserPage, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

test.skip(!process.env.SCREENSHOTS, "writes docs/screenshots/: run with SCREENSHOTS=1");

const OUT = path.resolve("docs/screenshots");
const LONG_NAME = "Northern Lights Creative Web Design and Development Studio";

async function expectAxeClean(page: Page, what: string) {
  const { violations } = await axeBuilder(page).analyze();
  expect(
    violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(" ")}`)),
    what,
  ).toEqual([]);
}

test.describe.serial("console screenshots", () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    app = await startIsolatedApp("console-shots");
    fs.mkdirSync(OUT, { recursive: true });
    const admin = await adminPage(browser, { baseURL: app.baseUrl });
    await admin.goto("/admin/settings");
    await hydrated(admin);
    await admin.getByLabel("Company name").fill(LONG_NAME);
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText("Settings saved.")).toBeVisible();
    const logo = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" rx="10" fill="#0f766e"/><text x="100" y="40" font-family="sans-serif" font-size="28" font-weight="700" fill="#fff" text-anchor="middle">NLC</text></svg>`,
      ),
    )
      .png()
      .toBuffer();
    await admin.goto("/admin/settings/brand");
    await hydrated(admin);
    await admin.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await admin.getByRole("button", { name: "Upload logo" }).click();
    await expect(admin.getByText("Logo saved.")).toBeVisible();
    await admin.context().close();
    // Two clients for the search, each in its own browser (a signed-in one is sent on from /register).
    for (const businessName of ["Harbor Light Bakery", "Harbor Street Dental"]) {
      const client = await newUserPage(browser, { baseURL: app.baseUrl });
      await registerClient(client, { businessName });
      await client.context().close();
    }
  });
  test.afterAll(async () => app?.stop());

  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      test(`${colorScheme} ${width}`, async ({ browser }) => {
        test.setTimeout(360_000);
        const page = await adminPage(browser, { baseURL: app.baseUrl });
        await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        const shot = (name: string) => path.join(OUT, `console-${name}-${width}-${colorScheme}.png`);

        // The sidebar (the Menu on a phone) and the checklist.
        await page.goto("/admin");
        await hydrated(page);
        await expectAxeClean(page, `dashboard ${colorScheme} ${width}`);
        await page.getByTestId("setup-checklist").screenshot({ path: shot("checklist") });
        if (width === 390) await page.locator("header details.menu summary").click();
        await page.screenshot({ path: shot("sidebar") });

        // Search results.
        if (width === 390) {
          await page.goto("/admin/search?q=harbor");
        } else {
          await page.goto("/admin");
          await hydrated(page);
          await page.keyboard.press("Control+k");
          await page.keyboard.type("harbor");
          await expect(page.getByRole("option").first()).toBeVisible();
          await page.keyboard.press("ArrowDown");
        }
        await expectAxeClean(page, `search ${colorScheme} ${width}`);
        await page.screenshot({ path: shot("search") });

        // A settings section (issue #41: one page per section, with the section menu).
        await page.goto("/admin/settings/company");
        await hydrated(page);
        await expectAxeClean(page, `settings ${colorScheme} ${width}`);
        await page.screenshot({ path: shot("settings") });
        await page.context().close();

        // The contact form's success, as a visitor (issue #41: focused and in view after Send).
        const visitor = await newUserPage(browser, { baseURL: app.baseUrl });
        await visitor.emulateMedia({ colorScheme, reducedMotion: "reduce" });
        await visitor.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        // A public page sends no JavaScript (it never hydrates): the form posts and the page reloads.
        await visitor.goto("/contact");
        await visitor.getByLabel("Name").fill("Dana Visitor");
        await visitor.getByLabel("Email").fill("dana.visitor@example.com");
        await visitor.getByLabel("Message", { exact: true }).fill("Can you build a bakery site?");
        await visitor.getByRole("button", { name: "Send Message" }).click();
        await expect(visitor.getByTestId("contact-result")).toBeInViewport();
        await expectAxeClean(visitor, `contact ${colorScheme} ${width}`);
        await visitor.screenshot({ path: path.join(OUT, `contact-success-${width}-${colorScheme}.png`) });
        await visitor.context().close();
      });
    }
  }
});
