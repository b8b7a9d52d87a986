/**
 * The rough edges people hit (issue #27), each where a browser can see it: plural forms, the
 * "Searching…" state, the result of a proposal request shown where the user is, the accent colour's
 * contrast in both themes, no "Live Site" link without an address, the 404 footer, the optional
 * phone number, whose portal the sign-in page is.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, newUserPage, PASSWORD, registerClient, test, uniqueEmail } from "./fixtures";

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test("counts use the singular for one: '1 proposal', not '1 proposals'", async ({ browser, page, sql }) => {
  const { email } = await registerClient(page);
  const project = `Plural ${uid()}`;
  await sql.query(
    `insert into proposal (source, status, project_details, client_id, project_name) select 'client', 'pending', 'x', id, $2 from "user" where email = $1`,
    [email, project],
  );
  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
  await expect(admin.getByRole("navigation", { name: "Pages of proposals" })).toContainText(/^1 proposal(?!s)/);
  await admin.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await expect(admin.getByRole("navigation", { name: "Pages of users" })).toContainText(/^1 user(?!s)/);
  await admin.context().close();
});

test("'Searching…' shows for the search form's own submission only, not when a link of the page is followed", async ({ browser }) => {
  const admin = await adminPage(browser);
  await admin.goto("/admin/users");
  await hydrated(admin);
  const button = admin.getByRole("search").getByRole("button");
  // Hold every data request of the page for a moment, so that the pending state can be seen.
  let release!: () => void;
  let held = new Promise<void>((resolve) => (release = resolve));
  await admin.route("**/admin/users.data*", async (route) => {
    await held;
    await route.continue();
  });
  // A link of the page (a row's Delete opens its confirmation on the same page): no "Searching…".
  await admin
    .getByRole("link", { name: /^Delete / })
    .first()
    .click();
  // The navigation's status (the global search's own status region sits in the header too).
  await expect(admin.locator("header [role=status]", { hasText: "Loading…" })).toHaveCount(1);
  await expect(button).toHaveText("Search");
  release();
  await expect(admin).toHaveURL(/confirm=delete-user/);
  await expect(button).toHaveText("Search");
  // The search form's own submission: "Searching…" until the results arrive.
  held = new Promise<void>((resolve) => (release = resolve));
  await admin.getByLabel("Search by e-mail or business name").fill("example");
  await button.click();
  await expect(button).toHaveText("Searching…");
  release();
  await expect(admin).toHaveURL(/q=example/);
  await expect(button).toHaveText("Search");
  await admin.context().close();
});

test("on a phone, the result of a proposal request is scrolled into view and focused", async ({ browser }) => {
  const page = await newUserPage(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await registerClient(page);
  await page.goto("/proposal-request");
  await hydrated(page);
  await page.getByLabel("Project details").fill("A bakery website with online orders.");
  await page.getByRole("button", { name: "Submit request" }).scrollIntoViewIfNeeded();
  await page.getByRole("button", { name: "Submit request" }).click();
  const result = page.getByTestId("request-result");
  await expect(result).toContainText("Proposal request submitted successfully.");
  await expect(result).toBeInViewport();
  await expect(result).toBeFocused();
  await page.context().close();
});

/** The axe contrast violations of the page, as readable lines. */
async function contrastViolations(page: Page): Promise<string[]> {
  const { violations } = await axeBuilder(page).withRules(["color-contrast"]).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${page.url()} ${n.target.join(" ")}: ${n.failureSummary}`));
}

test("a custom accent colour takes over links, the active navigation item and buttons, and passes contrast in both themes", async ({
  browser,
  sql,
}) => {
  test.setTimeout(120_000);
  const { rows } = await sql.query("select accent_color from settings where id = 1");
  const before = (rows[0]?.accent_color as string | undefined) ?? "";
  await sql.query(
    "insert into settings (id, accent_color) values (1, '#0f766e') on conflict (id) do update set accent_color = excluded.accent_color",
  );
  try {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, colorScheme, reducedMotion: "reduce" });
      const page = await context.newPage();
      await registerClient(page);
      for (const path of ["/client-dashboard", "/meetings/book", "/project-status", "/proposal-request"]) {
        await page.goto(path);
        expect(await contrastViolations(page), `${colorScheme} ${path}`).toEqual([]);
      }
      // The active navigation item and a primary button take the accent (teal), not the default violet.
      await page.goto("/meetings");
      const active = page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Meetings" });
      const hue = async (selector: ReturnType<Page["locator"]>, property: "color" | "backgroundColor") =>
        selector.evaluate((el, prop) => getComputedStyle(el)[prop], property);
      const activeColor = await hue(active, "color");
      const buttonColor = await hue(page.getByRole("link", { name: "Book a meeting" }), "backgroundColor");
      for (const color of [activeColor, buttonColor]) {
        const [r, g] = (color.match(/[\d.]+/g) ?? []).map(Number) as [number, number];
        // Teal: green and blue above red (the default violet has blue and red above green).
        expect(g, `${colorScheme} ${color}`).toBeGreaterThan(r);
      }
      if (colorScheme === "light") expect(buttonColor).toBe("rgb(15, 118, 110)");
      await context.close();
    }
  } finally {
    await sql.query("update settings set accent_color = $1 where id = 1", [before]);
  }
});

test("a project without a live address shows no Live Site link; one with it does", async ({ page }) => {
  await page.goto("/project1");
  await expect(page.locator("#main").getByRole("link", { name: "GitHub", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Live Site" })).toHaveCount(0);
  await page.goto("/project2");
  await expect(page.getByRole("link", { name: "Live Site" })).toHaveAttribute("href", /^https:\/\//);
});

test("the 404 page's footer sits at the bottom of a phone's screen", async ({ browser }) => {
  const page = await newUserPage(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/no-such-page");
  const footer = page.locator("footer").last();
  const box = (await footer.boundingBox())!;
  expect(box.y + box.height).toBeGreaterThanOrEqual(844 - 1);
  await page.context().close();
});

test("the phone number is optional at client registration unless Settings require it", async ({ browser, sql }) => {
  const page = await newUserPage(browser);
  await page.goto("/register");
  await expect(page.getByLabel("Phone (optional)")).toBeVisible();
  const email = uniqueEmail("nophone");
  await page.getByLabel("Business name").fill("No Phone Studio");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/client-dashboard$/);
  const { rows } = await sql.query('select phone from "user" where email = $1', [email]);
  expect(rows[0].phone).toBeNull();
  await page.context().close();

  // With the setting on, the server refuses a registration without a phone (even a forged post).
  await sql.query(
    "insert into settings (id, require_client_phone) values (1, true) on conflict (id) do update set require_client_phone = true",
  );
  try {
    const other = await newUserPage(browser);
    await other.goto("/register");
    await expect(other.getByLabel("Phone", { exact: true })).toBeVisible();
    const refused = await other.request.post("/register", {
      form: { businessName: "Forged", email: uniqueEmail("forged"), password: PASSWORD, phone: "" },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("Phone is required.");
    await other.context().close();
  } finally {
    await sql.query("update settings set require_client_phone = false where id = 1");
  }
});

test("the sign-in page says whose portal it is", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Client Portal" }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("portal-owner")).toContainText(/client portal, run by Alex Rivera/i);
});

test("without JavaScript, '+ Add item' adds a row and shows no 'required' error for fields not filled in yet", async ({
  browser,
  page,
  sql,
}) => {
  const { email } = await registerClient(page);
  const project = `Rows ${uid()}`;
  const { rows } = await sql.query(
    `insert into proposal (source, status, project_details, client_id, project_name) select 'client', 'pending', 'x', id, $2 from "user" where email = $1 returning id`,
    [email, project],
  );
  const admin = await adminPage(browser, { javaScriptEnabled: false });
  await admin.goto(`/admin/proposals/${rows[0].id}/offer`);
  await admin.getByLabel("Scope of the work").fill("");
  await admin.getByLabel("Item 1 description").fill("Design");
  await admin.getByRole("button", { name: "+ Add item" }).click();
  await expect(admin.getByLabel("Item 2 description")).toBeVisible();
  await expect(admin.getByLabel("Item 1 description")).toHaveValue("Design");
  await expect(admin.getByText(/required|Describe the scope/i)).toHaveCount(0);
  await expect(admin.locator('[aria-invalid="true"]')).toHaveCount(0);
  await admin.context().close();
});
