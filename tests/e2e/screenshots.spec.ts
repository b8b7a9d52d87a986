/**
 * Screenshots of the dashboards and the booking page (issue #27) at 390 and 1280 px, light and
 * dark, on the demo data with a custom accent colour; each page passes axe first. Writes small PNGs
 * to docs/screenshots/ — run on demand: `SCREENSHOTS=1 npx playwright test tests/e2e/screenshots.spec.ts --workers=1`.
 */
import fs from "node:fs";
import path from "node:path";
import { axeBuilder } from "./axe";
import { expect, test, uniqueIp } from "./fixtures";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../scripts/seed-demo";
import { startDemoApp, type DemoApp } from "./demo-app";

test.skip(!process.env.SCREENSHOTS, "writes docs/screenshots/: run with SCREENSHOTS=1");

const OUT = path.resolve("docs/screenshots");
const PAGES = [
  { name: "client-dashboard", role: "client" as const, path: "/client-dashboard" },
  { name: "booking", role: "client" as const, path: "/meetings/book" },
  { name: "admin-dashboard", role: "admin" as const, path: "/admin" },
];

test.describe.serial("screenshots", () => {
  let app: DemoApp;
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    app = await startDemoApp("screens");
    await app.sql.query("update settings set accent_color = '#0f766e' where id = 1");
    fs.mkdirSync(OUT, { recursive: true });
  });
  test.afterAll(async () => app?.stop());

  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      test(`${colorScheme} ${width}`, async ({ browser }) => {
        test.setTimeout(180_000);
        for (const role of ["client", "admin"] as const) {
          const context = await browser.newContext({
            baseURL: app.baseUrl,
            colorScheme,
            reducedMotion: "reduce",
            timezoneId: "America/New_York",
            viewport: { width, height: width === 390 ? 844 : 900 },
            extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
          });
          const page = await context.newPage();
          await page.request.post("/login", { form: { email: DEMO_ACCOUNTS[role], password: DEMO_PASSWORD } });
          for (const shot of PAGES.filter((p) => p.role === role)) {
            await page.goto(shot.path);
            await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
            const { violations } = await axeBuilder(page).analyze();
            expect(
              violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(" ")}`)),
              `${shot.name} ${colorScheme} ${width}`,
            ).toEqual([]);
            await page.screenshot({
              path: path.join(OUT, `${shot.name}-${width}-${colorScheme}.png`),
              fullPage: width === 390 ? false : true,
            });
          }
          await context.close();
        }
      });
    }
  }
});
