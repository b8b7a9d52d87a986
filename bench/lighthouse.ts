/**
 * Lighthouse mobile scores (performance, accessibility, best practices, SEO) for the public
 * pages, with Debian's Chromium, plus the JavaScript each page loads (transferred, gzip)
 * — — and every font request with its origin (the typeface is self-hosted: no
 * third-party request may appear). Writes bench/results/lighthouse.md.
 *
 *   npm run build && npx tsx bench/lighthouse.ts
 */
import * as chromeLauncher from "chrome-launcher";
import os from "node:os";
import lighthouse from "lighthouse";
import { startApp, writeResults } from "./lib/server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/helpers/chromium";

const PAGES = ["/", "/about", "/projects", "/project3", "/contact"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

async function main() {
  const app = await startApp();
  await new Promise((r) => setTimeout(r, 2_000)); // page cache warm-up
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  const rows: string[] = [];
  const failures: string[] = [];
  const loadBefore = os.loadavg()[0]!;
  const fonts = new Set<string>();
  const thirdParty: string[] = [];
  try {
    for (const page of PAGES) {
      const result = await lighthouse(`${app.baseUrl}${page}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      if (!result) throw new Error(`no result for ${page}`);
      const { lhr } = result;
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      const requests =
        (
          lhr.audits["network-requests"]?.details as
            { items?: { url: string; resourceType?: string; transferSize?: number; mimeType?: string }[] } | undefined
        )?.items ?? [];
      const origin = new URL(app.baseUrl).origin;
      for (const r of requests) {
        if (!r.url.startsWith("data:") && new URL(r.url).origin !== origin) thirdParty.push(`${page}: ${r.url}`);
        if (r.resourceType === "Font")
          fonts.add(
            `${new URL(r.url).origin === origin ? "same origin" : "THIRD PARTY"} ${new URL(r.url).pathname} (${((r.transferSize ?? 0) / 1024).toFixed(1)} KB)`,
          );
      }
      const jsBytes = requests.filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
      const lcp = lhr.audits["largest-contentful-paint"]?.displayValue ?? "";
      const cls = lhr.audits["cumulative-layout-shift"]?.displayValue ?? "";
      rows.push(`| \`${page}\` | ${scores.join(" | ")} | ${(jsBytes / 1024).toFixed(1)} KB | ${lcp} | ${cls} | ${requests.length} |`);
      for (const [i, c] of CATEGORIES.entries()) {
        if (scores[i]! < 100) {
          const failing = Object.values(lhr.audits)
            .filter((a) => a.score !== null && a.score < 1 && lhr.categories[c]?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0))
            .map((a) => a.id);
          failures.push(`- \`${page}\` ${c} ${scores[i]}: ${failing.join(", ")}`);
        }
      }
      console.log(rows.at(-1));
    }
  } finally {
    await chrome.kill();
    await app.stop();
  }
  const file = writeResults(
    "lighthouse",
    "Lighthouse (mobile) on the public pages",
    "npm run build && npx tsx bench/lighthouse.ts",
    `Lighthouse ${"12.8.2"}, default mobile emulation and throttling, Debian Chromium headless, production build served by our server on loopback. JS = script bytes transferred on first load (compressed; \`/contact\` also carries a ~0.3 KB inline script for its pending state).

| page | performance | accessibility | best practices | SEO | first-load JS | LCP | CLS | requests |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Machine load (1-minute load average) at the start ${loadBefore.toFixed(1)} and at the end ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores: performance scores below 100 with no JavaScript on the page (total blocking time, a late first paint) mean the CPU was taken by other work, not by the page.

Fonts loaded (from the trace's network requests): ${[...fonts].join("; ") || "none"}.
Third-party requests: ${thirdParty.length ? thirdParty.join("; ") : "none — every request went to the site's own origin"}.

${failures.length ? `Audits below 100:\n${failures.join("\n")}` : "Every category scores 100 on every page."}
`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
