/**
 * Portal first-load JavaScript budget (bench/results/portal-js.md, ADR 010): the sum, gzip -9, of
 * every script and modulepreload a portal page references, computed from the build's browser
 * manifest (bench/lib/page-js.ts) — and checked against what the server really sends for /login
 * and /admin, so the computation cannot drift from the pages. 125 KB for /login, /register,
 * /forgot-password and /reset-password, 155 KB for every other portal page (raised from 130 KB: see portalBudget).
 *
 * The client entry chunk holds React DOM and nothing in build/client mentions Preact (ADR 010).
 *
 * Also: React DOM hydrates the server's document without changing it (tests/e2e/hydration.ts),
 * and links navigate on the client after hydration.
 */
import fs from "node:fs";
import path from "node:path";
import { adminPage, expect, hydrated, loginAsAdmin, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { expectCleanHydration } from "./hydration";
import { PORTAL_PAGES, pageJs, portalBudget, readManifest } from "../../bench/lib/page-js";

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The script and modulepreload URLs of an HTML page. */
function referencedScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g)) urls.add(m[1]!);
  return [...urls].filter((u) => u.startsWith("/assets/")).sort();
}

test.describe("portal first-load JavaScript", () => {
  test("the manifest computation lists exactly the scripts /login and /admin reference", async ({ page }) => {
    const manifest = readManifest();
    const base = process.env.E2E_BASE_URL!;
    const login = await (await fetch(`${base}/login`)).text();
    expect(referencedScripts(login)).toEqual(
      pageJs("routes/auth/login", "build/client", manifest)
        .files.map((f) => f.file)
        .sort(),
    );
    await loginAsAdmin(page);
    const admin = await (await page.request.get(`${base}/admin`)).text();
    expect(referencedScripts(admin)).toEqual(
      pageJs("routes/admin/dashboard", "build/client", manifest)
        .files.map((f) => f.file)
        .sort(),
    );
  });

  test("the browser runs React DOM: it is in the client entry chunk, and no Preact is anywhere in the build", () => {
    const manifest = readManifest();
    const entry = fs.readFileSync(path.join("build/client", manifest.entry.module), "utf8");
    expect(entry).toContain('rendererPackageName:"react-dom"');
    const withPreact = fs
      .readdirSync("build/client", { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(js|html|json)$/.test(f) && /preact/i.test(fs.readFileSync(path.join("build/client", f), "utf8")));
    expect(withPreact).toEqual([]);
  });

  test("every portal page is within its budget: 125 KB gzipped for the four sign-in pages, 155 KB for the others", () => {
    const manifest = readManifest();
    const over = PORTAL_PAGES.map((p) => ({ url: p.url, total: pageJs(p.routeId, "build/client", manifest).total })).filter(
      (p) => p.total > portalBudget(p.url),
    );
    expect(over.map((p) => `${p.url} ${kb(p.total)} > ${kb(portalBudget(p.url))}`)).toEqual([]);
  });
});

test.describe("hydration of the server-rendered document", () => {
  test("signed-out pages", async ({ page }) => {
    await expectCleanHydration(page, ["/login", "/register", "/register/ambassador", "/forgot-password", "/reset-password"]);
  });

  test("client pages", async ({ page }) => {
    await registerClient(page);
    await expectCleanHydration(page, ["/client-dashboard", "/proposal-request", "/project-status", "/account"]);
  });

  test("ambassador pages", async ({ page }) => {
    await registerAmbassador(page);
    await expectCleanHydration(page, [
      "/ambassador/dashboard",
      "/ambassador/submit-proposal",
      "/ambassador/earnings",
      "/ambassador/payouts",
    ]);
  });

  test("admin pages", async ({ browser }) => {
    const page = await adminPage(browser);
    await expectCleanHydration(page, ["/admin", "/admin/proposals", "/admin/users", "/admin/invoices", "/admin/settings", "/admin/audit"]);
    await page.context().close();
  });

  test("after hydration, links navigate on the client and the title follows", async ({ browser }) => {
    const page = await newUserPage(browser);
    await page.goto("/login");
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByRole("navigation", { name: "Portal" }).first().getByRole("link", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page).toHaveTitle(/Create a client account/);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.context().close();
  });

  test("after hydration, a table row's form, confirmation link and cancel work on the client (list-navigation.tsx)", async ({
    browser,
  }) => {
    const client = await newUserPage(browser);
    const { email } = await registerClient(client);
    await client.context().close();
    const page = await adminPage(browser);
    const listPath = `/admin/users?q=${encodeURIComponent(email)}`;
    await page.goto(listPath);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const row = page.getByRole("row").filter({ hasText: email });
    // A row's form (ListForm): the switch posts on the client, its toast answers, the list is the same.
    const pause = row.getByRole("switch", { name: /Pause reminders/ });
    await expect(pause).toHaveAttribute("aria-checked", "false");
    await pause.click();
    await expect(page.getByText(`Reminders are paused for ${email}.`)).toBeVisible();
    await expect(pause).toHaveAttribute("aria-checked", "true");
    // A row's confirmation link (ConfirmLink through ListLink): the question opens under the row.
    await row.getByRole("link", { name: `Delete ${email}` }).click();
    await expect(page).toHaveURL(/confirm=delete-user/);
    const dialog = page.getByRole("alertdialog", { name: `Delete ${email}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect(new URL(page.url()).search).not.toContain("confirm=");
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.context().close();
  });
});
