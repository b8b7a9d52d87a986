/**
 * Phone layouts and accessibility over every page, with the demo data (docs/product.md#phone-layouts):
 * - at 390×844, as admin, client, ambassador and signed out: no sideways scrolling
 *   (`scrollWidth <= 390`), a header at most 64 px tall, and a Menu that opens and whose links
 *   work — with JavaScript and without;
 * - axe-core at 390 and 1280 px with reduced motion: no violation;
 * - label in name (WCAG 2.5.3): every visible button and link's accessible name contains its
 *   visible words.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { expect, expectNoSidewaysScroll, test as base } from "./fixtures";
import { contextFor, startDemoApp, visit, type DemoApp, type Role } from "./demo-app";

/**
 * The demo app of this worker: started and seeded once per worker, on the first test that needs
 * it, and stopped when the worker ends. The tests below are independent (each has its own context
 * and sign-in, and none writes what another reads), so they spread over the workers instead of
 * running one after the other on one worker for minutes (issue #42); the `sweep` project in
 * playwright.config.ts caps them at two workers, so at most two demo apps run at once.
 */
const test = base.extend<object, { app: DemoApp }>({
  app: [
    async ({}, use) => {
      const app = await startDemoApp("phone");
      await use(app);
      await app.stop();
    },
    // A budget for a hang (as the spec's beforeAll had): the start and the seed on a busy machine.
    { scope: "worker", timeout: 240_000 },
  ],
});

// A budget per test for a busy machine (the admin's pages, some 60 of them, are split over several tests below).
test.describe.configure({ mode: "parallel", timeout: 420_000 });

const ROLES: (Role | null)[] = ["admin", "client", "ambassador", null];
const pagesOf = (app: DemoApp, role: Role | null) => (role ? app.pages[role] : app.pages.public);
const name = (role: Role | null) => role ?? "signed out";
/**
 * Into how many tests each role's pages are split for the checks with JavaScript (every page is in
 * exactly one part: part k of n takes the pages at positions k, k + n, k + 2n …, so that each
 * part gets pages from every section of the area). The admin's pages took ≈ 4 min under load in one
 * test, longer than any other spec; a part is now about as long as the client's or a main spec.
 */
const PARTS: Record<string, number> = { admin: 4, client: 2, ambassador: 1, "signed out": 1 };
const partOf = <T>(list: T[], k: number, n: number) => list.filter((_, i) => i % n === k);

/**
 * Waits (up to 3 s) for React to hydrate a page that ships JavaScript. Public pages ship none
 * (`handle.hydrate: false`): waiting for them cost 3 s per visit, 45 s of the sweep (issue #42).
 */
async function hydratedIfScripted(page: Page) {
  if ((await page.locator("script[type=module]").count()) === 0) return;
  await page
    .locator("html[data-hydrated]")
    .waitFor({ state: "attached", timeout: 3_000 })
    .catch(() => {});
}

/**
 * The words a person sees on each visible button and link, and the accessible name given by
 * aria-label: the name must contain the visible words (WCAG 2.5.3 label in name).
 */
async function labelInNameFailures(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const norm = (text: string) =>
      text
        .replace(/[\u2190-\u21ff\u25a0-\u25ff…]/g, " ")
        .replace(/\s+/g, " ")
        .trim()
        .toLowerCase();
    const failures: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("a[href], button, summary, [role=button], [role=link], input[type=submit]")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      const label = el.getAttribute("aria-label");
      if (label === null) continue; // the name is the content itself
      const visible = norm(el instanceof HTMLInputElement ? el.value : el.innerText);
      if (visible && !norm(label).includes(visible)) failures.push(`"${visible}" not in "${label}"`);
    }
    return failures;
  });
}

/** Axe-core's rule sets this sweep checks (WCAG 2.2 AA and axe's best practices). */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Axe-core's violations and the label-in-name failures of the page as it is now, one line each. */
async function accessibilityProblems(page: Page, path: string, width: number): Promise<string[]> {
  const problems: string[] = [];
  // Every rule of the tags runs; only violations are reported in full (tests/e2e/axe.ts).
  const results = await axeBuilder(page).withTags(AXE_TAGS).analyze();
  for (const v of results.violations) {
    problems.push(
      `${path} at ${width} px: ${v.id} (${v.impact}) ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(" | ")}`,
    );
  }
  for (const failure of await labelInNameFailures(page)) problems.push(`${path} at ${width} px: label in name: ${failure}`);
  return problems;
}

/** Resizes the viewport and waits two frames, so that media queries and resize listeners have applied. */
async function resize(page: Page, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

for (const role of ROLES) {
  // One load and hydration per page serves both widths (issue #42: the sweep loaded every page three
  // times with JavaScript, once per check): at 390×844 sideways scroll, header, menu and axe, then the
  // same page resized to 1280×900 for axe again. Nothing is skipped: every page, both widths, in one
  // of the role's parts; the first part also follows every link of the menu.
  const parts = PARTS[name(role)]!;
  for (let part = 0; part < parts; part++) {
    const which = parts > 1 ? ` (pages ${part + 1} of ${parts})` : "";
    test(`390×844, ${name(role)}${which}: no sideways scroll, header ≤ 64 px, the menu opens and its links work (with JavaScript); axe-core and label in name at 390 and 1280 px on every page`, async ({
      browser,
      app,
    }) => {
      const context = await contextFor(browser, app, role, { width: 390 });
      const page = await context.newPage();
      const problems: string[] = [];
      const pages = partOf(pagesOf(app, role), part, parts);
      expect(pages.length).toBeGreaterThan(0);
      for (const path of pages) {
        await resize(page, 390, 844);
        await visit(page, path);
        await hydratedIfScripted(page);
        await expectNoSidewaysScroll(page, path, 390);
        problems.push(...(await accessibilityProblems(page, path, 390)));
        const header = (await page.locator("header").first().boundingBox())!;
        expect(header.height, `${path} header`).toBeLessThanOrEqual(64);
        const menu = page.locator("header details.menu");
        await expect(menu.locator("summary"), `${path} Menu button`).toBeVisible();
        await menu.locator("summary").click();
        const nav = menu.getByRole("navigation");
        await expect(nav).toBeVisible();
        expect((await page.locator("header").first().boundingBox())!.height, `${path} header with the menu open`).toBeLessThanOrEqual(64);
        await expectNoSidewaysScroll(page, `${path} (menu open)`, 390);
        await menu.locator("summary").click();
        await expect(nav).toBeHidden();
        // As on a page just loaded: nothing hovered, nothing focused.
        await page.mouse.move(0, 0);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await resize(page, 1280, 900);
        problems.push(...(await accessibilityProblems(page, path, 1280)));
      }
      expect(problems).toEqual([]);
      if (part === 0) {
        await resize(page, 390, 844);
        // Every link of the menu leads to its page. Each is followed from the page the one before
        // led to when that page's menu has it, else from the first page (issue #42: loading the
        // first page again for every link cost a full load and hydration each). A navigation closes
        // the menu (it is keyed by the path); a link to the page itself may leave it open, so that
        // page is then loaded afresh.
        const first = pagesOf(app, role)[0]!;
        await visit(page, first);
        const hrefs = await page.locator("header details.menu nav a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
        expect(hrefs.length).toBeGreaterThan(2);
        const menu = page.locator("header details.menu");
        let here = first;
        for (const href of hrefs) {
          if ((await menu.locator(`nav a[href="${href}"]`).count()) === 0) {
            await visit(page, first);
            here = first;
          }
          await menu.locator("summary").click();
          await menu.locator(`nav a[href="${href}"]`).click();
          await expect(page).toHaveURL((url) => url.pathname === href);
          if (href === here) await visit(page, href);
          else await expect(menu.getByRole("navigation")).toBeHidden();
          here = href;
        }
      }
      await context.close();
    });
  }
}

for (const role of ROLES) {
  test(`390×844, ${name(role)}: the same without JavaScript`, async ({ browser, app }) => {
    const context = await contextFor(browser, app, role, { width: 390, javaScript: false });
    const page = await context.newPage();
    for (const path of pagesOf(app, role)) {
      await visit(page, path);
      await expectNoSidewaysScroll(page, path, 390);
      expect((await page.locator("header").first().boundingBox())!.height, `${path} header`).toBeLessThanOrEqual(64);
    }
    const first = pagesOf(app, role)[0]!;
    await visit(page, first);
    const summary = page.locator("header details.menu summary");
    await summary.click();
    const links = page.locator("header details.menu nav a");
    await expect(links.first()).toBeVisible();
    const target = (await links.last().getAttribute("href"))!;
    await links.last().click();
    await expect(page).toHaveURL((url) => url.pathname === target);
    if (role) {
      // Logout is in the menu too, and works without JavaScript.
      await page.locator("header details.menu summary").click();
      await page.locator("header details.menu").getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$|\/$/);
    }
    await context.close();
  });
}

test("ambassador dashboard: summary, proposals 10 per page, and “Submit another proposal for this client” prefilled", async ({
  browser,
  app,
}) => {
  const context = await contextFor(browser, app, "ambassador", { width: 390 });
  const page = await context.newPage();
  const { rows } = await app.sql.query(
    `select count(*)::int as n, (select count(*)::int from "user" r where r.referred_by_id = u.id) as clients
       from proposal p join "user" u on u.id = p.ambassador_id where u.email = 'ambassador@demo.local' group by u.id`,
  );
  const { n, clients } = rows[0] as { n: number; clients: number };
  expect(n).toBeGreaterThan(10);
  await visit(page, "/ambassador/dashboard");
  const summary = page.getByRole("region", { name: "Summary" });
  await expect(summary.getByRole("definition").first()).toHaveText(String(clients));
  await expect(summary).toContainText(`Proposals${n}`);
  const list = page.getByRole("list", { name: "Your proposals" }).getByRole("listitem");
  await expect(list).toHaveCount(10);
  await expect(page.getByText(`Page 1 of ${Math.ceil(n / 10)}`)).toBeVisible();
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page.getByText(`Page 2 of ${Math.ceil(n / 10)}`)).toBeVisible();
  const item = list.filter({ has: page.getByRole("link", { name: "Submit another proposal for this client" }) }).first();
  const email = (await item.textContent())!.match(/\(([^)\s]+@[^)\s]+)\)/)![1]!;
  await item.getByRole("link", { name: "Submit another proposal for this client" }).click();
  await expect(page).toHaveURL(/\/ambassador\/submit-proposal\?from=\d+$/);
  await expect(page.getByLabel("Client email")).toHaveValue(email);
  // Another ambassador's proposal cannot be used.
  const other = (
    await app.sql.query(
      `select p.id from proposal p join "user" u on u.id = p.ambassador_id where u.email <> 'ambassador@demo.local' limit 1`,
    )
  ).rows[0].id;
  expect((await page.request.get(`/ambassador/submit-proposal?from=${other}`)).status()).toBe(404);
  await context.close();
});
