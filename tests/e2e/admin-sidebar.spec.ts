/**
 * The admin console's sidebar (issue #41): links grouped by job (Work, Money, People, Site,
 * System), every link on one line at 1024–1440 px (the nav items' heights), a long company name
 * and a logo above the links and never over them, the Menu on phones with the same groups, and
 * no tools grid repeating the navigation on the dashboard. Settings are global: an app of its own.
 */
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

const LONG_NAME = "Northern Lights Creative Web Design and Development Studio of Greater Springfield";
/** A real 1×1 PNG. */
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const GROUPS = {
  Work: ["Dashboard", "Proposals", /^Messages(\d+\+? unread)?$/, "Meetings"],
  Money: ["Invoices", "Billing plans", "Card payments", "Commissions"],
  People: ["Organisations", "Users"],
  Site: ["Contact form", "Case studies", "Testimonials"],
  System: ["Settings", "Audit trail", "Mail outbox"],
};

let app: Awaited<ReturnType<typeof startIsolatedApp>>;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  app = await startIsolatedApp("sidebar");
});
test.afterAll(async () => app?.stop());

async function expectGroups(page: Page) {
  const nav = page.getByRole("navigation", { name: "Portal" });
  for (const [group, links] of Object.entries(GROUPS)) {
    await expect(nav.getByRole("group", { name: group }).getByRole("link"), group).toHaveText(links);
  }
}

test("grouped by job, one line per link at 1024–1440 px, a long name and a logo above the links; the Menu on a phone", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  await admin.goto("/admin/settings");
  await hydrated(admin);
  await admin.getByLabel("Company name").fill(LONG_NAME);
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("Settings saved.")).toBeVisible();
  await admin.goto("/admin/settings/brand");
  await hydrated(admin);
  await admin.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: TINY_PNG });
  await admin.getByRole("button", { name: "Upload logo" }).click();
  await expect(admin.getByText("Logo saved.")).toBeVisible();

  for (const width of [1024, 1152, 1280, 1440]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.goto("/admin");
    await expectGroups(admin);
    const nav = admin.getByRole("navigation", { name: "Portal" });
    const items = nav.getByTestId("nav-item");
    await expect(items).toHaveCount(16);
    const boxes = await items.evaluateAll((links) => links.map((a) => a.getBoundingClientRect().toJSON() as DOMRect));
    const heights = new Set(boxes.map((b) => Math.round(b.height)));
    expect([...heights], `${width}px: every nav item one line`).toHaveLength(1);
    expect([...heights][0]!, `${width}px`).toBeLessThanOrEqual(40);
    // The sidebar sits left of the page, the links one under another.
    const main = (await admin.locator("main").boundingBox())!;
    for (const b of boxes) expect(b.right, `${width}px`).toBeLessThanOrEqual(main.x + 1);
    // The brand (logo, the long name, "Admin Console") is above the first link and overlaps nothing.
    const brand = (await admin.getByTestId("portal-brand").boundingBox())!;
    expect(brand.y + brand.height, `${width}px brand above the links`).toBeLessThanOrEqual(boxes[0]!.top);
    await expect(admin.getByTestId("portal-brand").locator("img")).toBeVisible();
    await expect(admin.getByTestId("brand-name")).toHaveText(LONG_NAME);
    const name = (await admin.getByTestId("brand-name").boundingBox())!;
    expect(name.x + name.width, `${width}px name inside the sidebar`).toBeLessThanOrEqual(main.x + 1);
    await expect(admin.getByTestId("portal-brand").getByText("Admin Console")).toBeVisible();
    // The dashboard no longer repeats the navigation as a grid of tools.
    await expect(admin.getByRole("heading", { name: "Tools" })).toHaveCount(0);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth), `${width}px no sideways scroll`).toBeLessThanOrEqual(width);
  }

  // The active link is marked for assistive technology and by colour.
  await admin.goto("/admin/invoices");
  await expect(admin.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Invoices" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // A phone: one 56 px bar with the logo and Menu; the menu has the same groups and Logout.
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto("/admin");
  const header = (await admin.locator("header").boundingBox())!;
  expect(header.height).toBeLessThanOrEqual(64);
  await expect(admin.getByRole("navigation", { name: "Portal" })).toHaveCount(0);
  await admin.locator("header details.menu summary").click();
  await expectGroups(admin);
  await expect(admin.getByRole("navigation", { name: "Portal" }).getByRole("button", { name: "Logout" })).toBeVisible();
  await admin.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Audit trail" }).click();
  await expect(admin).toHaveURL(/\/admin\/audit$/);
});
