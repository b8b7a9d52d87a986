/**
 * Dark mode (docs/product.md#dark-mode): the site follows prefers-color-scheme, passes axe's
 * contrast check in both themes, the light/dark/system toggle works without JavaScript and
 * survives a reload, and the first paint never uses the other theme.
 */
import { axeBuilder } from "./axe";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const PAGES = ["/", "/about", "/projects", "/project3", "/contact", "/login"];

/** Relative luminance (0 black … 1 white) of the body's computed background. */
async function bodyLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    canvas.fillStyle = getComputedStyle(document.body).backgroundColor;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b] = Array.from(canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)).map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  });
}

/**
 * Every element's computed colours, in document order (what the first paint uses: no script
 * runs), but the theme toggle's own buttons (which show which choice is pressed).
 */
async function paintedColours(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("body *:not([data-testid=theme-toggle] *)")).map((el) => {
      const s = getComputedStyle(el);
      return `${el.tagName}:${s.color}|${s.backgroundColor}|${s.borderTopColor}`;
    }),
  );
}

async function openWithoutJs(browser: Browser, baseURL: string, colorScheme: "light" | "dark", theme?: "light" | "dark") {
  const context = await browser.newContext({ baseURL, colorScheme, javaScriptEnabled: false, reducedMotion: "reduce" });
  if (theme) await context.addCookies([{ name: "theme", value: theme, url: baseURL }]);
  return context;
}

test.describe("dark mode", () => {
  test("with a dark system preference every page is dark and passes axe's contrast check", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: "dark", reducedMotion: "reduce" });
    const page = await context.newPage();
    for (const path of PAGES) {
      await page.goto(path);
      expect(await bodyLuminance(page), path).toBeLessThan(0.05);
      const { violations } = await axeBuilder(page).withRules(["color-contrast"]).analyze();
      expect(
        violations.flatMap((v) => v.nodes.map((n) => `${path} ${n.target.join(" ")}: ${n.failureSummary}`)),
        path,
      ).toEqual([]);
    }
    await context.close();
  });

  test("the light theme passes axe's contrast check too", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: "light", reducedMotion: "reduce" });
    const page = await context.newPage();
    for (const path of PAGES) {
      await page.goto(path);
      expect(await bodyLuminance(page), path).toBeGreaterThan(0.9);
      const { violations } = await axeBuilder(page).withRules(["color-contrast"]).analyze();
      expect(violations.flatMap((v) => v.nodes.map((n) => `${path} ${n.target.join(" ")}`))).toEqual([]);
    }
    await context.close();
  });

  test("the toggle works without JavaScript, is remembered across a reload, and System follows the preference", async ({
    browser,
    baseURL,
  }) => {
    const context = await openWithoutJs(browser, baseURL!, "light");
    const page = await context.newPage();
    await page.goto("/projects");
    expect(await bodyLuminance(page)).toBeGreaterThan(0.9);
    const toggle = page.getByRole("contentinfo").getByRole("group", { name: "Theme" });
    await expect(toggle.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");

    await toggle.getByRole("button", { name: "Dark" }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.locator("html")).toHaveClass("theme-dark");
    expect(await bodyLuminance(page)).toBeLessThan(0.05);
    await expect(toggle.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
    const cookie = (await context.cookies()).find((c) => c.name === "theme");
    expect(cookie).toMatchObject({ value: "dark", httpOnly: true, sameSite: "Lax" });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(300 * 24 * 3600);

    await page.reload();
    await expect(page.locator("html")).toHaveClass("theme-dark");
    expect(await bodyLuminance(page)).toBeLessThan(0.05);
    // Also on a portal page (server-rendered, not from the page cache).
    await page.goto("/login");
    expect(await bodyLuminance(page)).toBeLessThan(0.05);

    await page.getByRole("contentinfo").getByRole("button", { name: "Light" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator("html")).toHaveClass("theme-light");
    expect(await bodyLuminance(page)).toBeGreaterThan(0.9);

    await page.getByRole("contentinfo").getByRole("button", { name: "System" }).click();
    await expect(page.locator("html")).not.toHaveAttribute("class", /theme-/);
    expect((await context.cookies()).find((c) => c.name === "theme")).toBeUndefined();
    await context.close();
  });

  test("the first paint uses the chosen theme: a cookie's choice paints exactly like the same system preference", async ({
    browser,
    baseURL,
  }) => {
    for (const theme of ["dark", "light"] as const) {
      const other = theme === "dark" ? "light" : "dark";
      const bySystem = await openWithoutJs(browser, baseURL!, theme);
      const byCookie = await openWithoutJs(browser, baseURL!, other, theme);
      const a = await bySystem.newPage();
      const b = await byCookie.newPage();
      for (const path of ["/", "/project3", "/contact", "/login"]) {
        // The server's HTML already carries the class: nothing has to run before the first paint.
        const html = await (await b.goto(path))!.text();
        expect(html, path).toContain(`<html lang="en" class="theme-${theme}"`);
        await a.goto(path);
        const expected = await paintedColours(a);
        expect(await paintedColours(b), `${path} with theme=${theme} under a ${other} system`).toEqual(expected);
      }
      await bySystem.close();
      await byCookie.close();
    }
  });

  test("a forged theme value or return path is harmless", async ({ request }) => {
    const bad = await request.post("/theme", { form: { theme: "purple", returnTo: "/" }, maxRedirects: 0 });
    expect(bad.status()).toBe(400);
    const offsite = await request.post("/theme", { form: { theme: "dark", returnTo: "//evil.example/x" }, maxRedirects: 0 });
    expect(offsite.status()).toBe(303);
    expect(offsite.headers().location).toBe("/");
  });
});
