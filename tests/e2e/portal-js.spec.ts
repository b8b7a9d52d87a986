/**
 * Portal first-load JavaScript budget (bench/results/portal-js.md): the sum, gzip -9, of every
 * script and modulepreload a portal page references, computed from the build's browser manifest
 * (bench/lib/page-js.ts) — and checked against what the server really sends for /login and
 * /admin, so the computation cannot drift from the pages.
 *
 * The budget is met by hydrating with Preact (preact/compat) instead of React DOM in the browser
 * while the server renders with React (vite.config.ts, app/lib/preact-dom-client.ts), so this file
 * also checks that hydration leaves the server's document as it was and logs no error.
 */
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, loginAsAdmin, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { PORTAL_JS_BUDGET, PORTAL_PAGES, pageJs, readManifest } from "../../bench/lib/page-js";

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

  test(`every portal page is within ${kb(PORTAL_JS_BUDGET)} gzipped`, () => {
    const manifest = readManifest();
    const over = PORTAL_PAGES.map((p) => ({ url: p.url, total: pageJs(p.routeId, "build/client", manifest).total })).filter(
      (p) => p.total > PORTAL_JS_BUDGET,
    );
    expect(over.map((p) => `${p.url} ${kb(p.total)}`)).toEqual([]);
  });
});

/**
 * Records, from the moment the HTML is parsed (`readyState` "interactive", before any module
 * script runs) until the root marks the document hydrated, every change to the DOM, as text.
 */
function recordHydrationMutations() {
  const log: string[] = [];
  (window as unknown as { __hydrationMutations: string[] }).__hydrationMutations = log;
  const name = (n: Node): string => {
    if (n.nodeType === Node.ELEMENT_NODE) {
      const e = n as Element;
      const rel = e.getAttribute("rel");
      return `<${e.localName}${rel ? ` rel=${rel}` : ""}>`;
    }
    return n.nodeType === Node.TEXT_NODE
      ? `text ${JSON.stringify(n.textContent)}`
      : n.nodeType === Node.COMMENT_NODE
        ? "comment"
        : `node ${n.nodeType}`;
  };
  let recording = false;
  document.addEventListener("readystatechange", () => {
    if (document.readyState === "interactive") recording = true;
  });
  new MutationObserver((mutations) => {
    if (!recording || document.documentElement.dataset.hydrated) return;
    for (const m of mutations) {
      const target = name(m.target);
      if (m.type === "childList") {
        m.removedNodes.forEach((n) => log.push(`removed ${name(n)} from ${target}`));
        m.addedNodes.forEach((n) => log.push(`added ${name(n)} to ${target}`));
      } else if (m.type === "attributes") {
        log.push(`attribute ${m.attributeName} of ${target}`);
      } else {
        log.push(`text of ${target}: ${JSON.stringify(m.oldValue)} → ${JSON.stringify(m.target.textContent)}`);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true, characterDataOldValue: true });
}

/**
 * What hydration may change: comments (React's `<!-- -->` between adjacent texts and Suspense
 * markers go, Preact may add its own) and text nodes (Preact renders an empty string as an empty
 * text node where React renders none, so texts may shift from one node to the next; it writes
 * what the components render); the scripts React Router streamed the loader data in go (they
 * have run); the hoisted modulepreload links move back into `<body>`
 * (app/lib/preact-dom-client.ts). The browser itself hides `nonce` attributes. No element may be
 * added, removed or moved, and no attribute changed.
 */
const ALLOWED = [
  /^(removed|added) comment (from|to) /,
  /^removed <script> from <body>$/,
  /^(removed|added) text ".*" (from|to) /,
  /^text of text /,
  /^(removed <link rel=modulepreload> from <head>|added <link rel=modulepreload> to <body>)$/,
  /^attribute nonce of /,
];

/**
 * Opens each of `urls` and waits for hydration; expects no DOM change beyond {@link ALLOWED} and
 * no console error or warning.
 */
async function expectCleanHydration(page: Page, urls: string[]) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${page.url()}: console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: page error: ${e.message || String(e)}`));
  await page.addInitScript(recordHydrationMutations);
  for (const url of urls) {
    await page.goto(url);
    await hydrated(page);
    const mutations = await page.evaluate(() => (window as unknown as { __hydrationMutations: string[] }).__hydrationMutations);
    expect(mutations.length, `${url}: no mutation recorded at all — is the recorder working?`).toBeGreaterThan(0);
    expect(
      mutations.filter((m) => !ALLOWED.some((a) => a.test(m))),
      `${url}: DOM changes while hydrating`,
    ).toEqual([]);
    // Still styled: the server's stylesheet link is in place.
    await expect(page.locator('head > link[rel="stylesheet"]')).toHaveCount(1);
  }
  expect(problems).toEqual([]);
}

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
    await expectCleanHydration(page, ["/ambassador/dashboard", "/ambassador/submit-proposal", "/ambassador/earnings"]);
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
});
