/**
 * Portal first-load JavaScript budget (bench/results/portal-js.md): the sum, gzip -9, of every
 * script and modulepreload a portal page references, computed from the build's browser manifest
 * (bench/lib/page-js.ts) — and checked against what the server really sends for /login and
 * /admin, so the computation cannot drift from the pages.
 */
import { expect, loginAsAdmin, test } from "./fixtures";
import { PORTAL_JS_BUDGET, PORTAL_PAGES, pageJs, readManifest } from "../../bench/lib/page-js";

/**
 * What no portal page may exceed today: a page that grows past it fails. The largest page measured
 * on 2026-11-24 after the account, brand and safe-action work landed was /account at 165.9 KB
 * (before it, 161.5 KB); the ceiling is that plus ~2 KB. The 110 KB target of {@link PORTAL_JS_BUDGET} is not reached
 * yet — React, React DOM and React Router alone weigh ≈ 110 KB — see the `fixme` below.
 */
const CEILING = 168 * 1024;

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

  test(`no portal page exceeds ${kb(CEILING)} gzipped`, () => {
    const manifest = readManifest();
    const over = PORTAL_PAGES.map((p) => ({ url: p.url, total: pageJs(p.routeId, "build/client", manifest).total })).filter(
      (p) => p.total > CEILING,
    );
    expect(over.map((p) => `${p.url} ${kb(p.total)}`)).toEqual([]);
  });

  test.fixme(`every portal page is within ${kb(PORTAL_JS_BUDGET)} gzipped (target, not met yet)`, () => {
    const manifest = readManifest();
    const over = PORTAL_PAGES.map((p) => ({ url: p.url, total: pageJs(p.routeId, "build/client", manifest).total })).filter(
      (p) => p.total > PORTAL_JS_BUDGET,
    );
    expect(over.map((p) => `${p.url} ${kb(p.total)}`)).toEqual([]);
  });
});
