/**
 * Lighthouse mobile scores (performance, accessibility, best practices, SEO) for the public
 * pages and six portal pages (issue #29: /login; /client-dashboard, /project-status and the
 * account settings page /account signed in as the demo client; /admin and /admin/proposals as
 * the demo admin, on a database filled by `seedDemo`), with Debian's Chromium, plus total
 * blocking time, the JavaScript each page loads (transferred, gzip) and every font request with
 * its origin (the typeface is self-hosted: no third-party request may appear). Each page is
 * measured `LIGHTHOUSE_RUNS` times (default 3) and the run with the median performance score is
 * reported, with the median TBT and every run's score and TBT. Targets: 100 on the public pages;
 * performance ≥ 95 and TBT ≤ 150 ms on the portal pages. The 1-minute load average is recorded
 * before and after (the machine may be shared). Writes bench/results/lighthouse.md.
 *
 * The case studies are served from the database (issue #40, ADR 024): `/project3` is one of the four
 * the migration seeded (with its screenshots), and `/lighthouse-check` is one the bench creates and
 * publishes through the admin's use-cases before the server starts (text only).
 *
 *   npm run build && npx tsx bench/lighthouse.ts [--portal | --public]
 *   (--portal: the six portal pages only; --public: the public pages only — home and both case studies
 *   among them —, its results put above the previous file's, which is kept below as the earlier run)
 */
import * as chromeLauncher from "chrome-launcher";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";
import { eq } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { user } from "../app/db/schema";
import { caseStudyDraftSchema } from "../app/features/portfolio/case-study.schema";
import { createCaseStudy, publishCaseStudy, saveCaseStudyDraft } from "../app/features/portfolio/case-studies.server";
import { renderOgImage } from "../app/features/portfolio/og-image.server";
import { parseForm } from "../tests/helpers/portal";
import { DEMO_ACCOUNTS, DEMO_SIZE, seedDemo } from "../scripts/seed-demo";
import { startApp, writeResults } from "./lib/server";
import { signIn } from "./lib/sign-in";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/helpers/chromium";

/** Each page with the demo account it is loaded as (none: signed out). */
const PAGES: [string, "client" | "admin" | null][] = [
  ["/", null],
  ["/about", null],
  ["/projects", null],
  ["/project3", null],
  ["/lighthouse-check", null],
  ["/contact", null],
  ["/login", null],
  ["/client-dashboard", "client"],
  ["/project-status", "client"],
  ["/account", "client"],
  ["/admin", "admin"],
  ["/admin/proposals", "admin"],
];
const PUBLIC = new Set(["/", "/about", "/projects", "/project3", "/lighthouse-check", "/contact"]);
/** The case study made and published through the admin's use-cases (served from the database only). */
const DB_CASE_STUDY = {
  title: "Lighthouse Check",
  slug: "lighthouse-check",
  summary: "A booking site for a climbing gym, published from the admin.",
  description: "",
  role: "Lead developer",
  timeline: "2026",
  outcome: "Shipped",
  color: "#4338ca",
  problem: "Members booked classes by phone, and **half the calls** came at opening time.",
  solution: "A booking page with waiting lists and reminders by e-mail.",
  features: "Class calendar\nWaiting lists\nReminders",
  tech: "React, PostgreSQL",
  impact: "Phone calls fell by 70 % in the first month.",
  github: "",
  live: "https://example.com",
};
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const RESULTS = "bench/results/lighthouse.md";

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
  await handle.migrate();
  await seedDemo(handle.db, DEMO_SIZE);
  // A case study written, saved and published the way the admin's editor does it.
  const [adminRow] = await handle.db.select().from(user).where(eq(user.email, DEMO_ACCOUNTS.admin));
  const adminActor = { id: adminRow!.id, role: "admin" as const, email: adminRow!.email };
  const caseStudyId = await createCaseStudy(handle.db, adminActor, { title: DB_CASE_STUDY.title });
  const draft = parseForm(caseStudyDraftSchema, DB_CASE_STUDY);
  if (!draft.value) throw new Error(`case study draft refused: ${JSON.stringify(draft.error)}`);
  await saveCaseStudyDraft(handle.db, adminActor, caseStudyId, draft.value);
  await publishCaseStudy(handle.db, adminActor, caseStudyId, renderOgImage);
  await handle.close();
  const app = await startApp({ DATA_DIR: dataDir });
  await new Promise((r) => setTimeout(r, 2_000)); // page cache warm-up
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin),
  };
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  const rows: string[] = [];
  const failures: string[] = [];
  const loadBefore = os.loadavg();
  // --portal: the portal pages, and `/` (no JavaScript) as a control of what the machine's load costs.
  const publicOnly = process.argv.includes("--public");
  const pages = process.argv.includes("--portal")
    ? PAGES.filter(([page]) => page === "/" || !PUBLIC.has(page))
    : publicOnly
      ? PAGES.filter(([page]) => PUBLIC.has(page))
      : PAGES;
  const misses: string[] = [];
  const fonts = new Set<string>();
  const thirdParty: string[] = [];
  // Signed-in pages run in a browser context of their own holding the session cookie (Chromium
  // drops a Cookie header passed as an extra header), with Lighthouse's storage reset off.
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const { hostname } = new URL(app.baseUrl);
  try {
    for (const [page, as] of pages) {
      const flags = { port: chrome.port, output: "json" as const, logLevel: "error" as const, onlyCategories: [...CATEGORIES] };
      const runs = [];
      const failed: string[] = [];
      // A run Lighthouse could not complete (runtimeError, no performance score) is listed and
      // replaced by another, at most RUNS times over.
      for (let run = 0; runs.length < RUNS && run < 2 * RUNS; run++) {
        let result;
        if (as) {
          const context = await browser.createBrowserContext();
          await context.setCookie(
            ...cookies[as].split("; ").map((pair) => {
              const [name, value] = pair.split(/=(.*)/s) as [string, string];
              return { name, value, domain: hostname, path: "/" };
            }),
          );
          result = await lighthouse(`${app.baseUrl}${page}`, { ...flags, disableStorageReset: true }, undefined, await context.newPage());
          await context.close();
        } else {
          result = await lighthouse(`${app.baseUrl}${page}`, flags);
        }
        if (!result) throw new Error(`no result for ${page}`);
        if (result.lhr.runtimeError || result.lhr.categories.performance?.score == null) {
          failed.push(result.lhr.runtimeError?.code ?? "no performance score");
          console.log(`${page} run ${run + 1}: failed (${failed.at(-1)}), load ${os.loadavg()[0]!.toFixed(1)}`);
          continue;
        }
        const perf = Math.round((result.lhr.categories.performance?.score ?? 0) * 100);
        const tbt = Math.round(result.lhr.audits["total-blocking-time"]?.numericValue ?? 0);
        runs.push({ lhr: result.lhr, perf, tbt, load: os.loadavg()[0]! });
        console.log(`${page} run ${run + 1}: performance ${perf}, TBT ${tbt} ms, load ${os.loadavg()[0]!.toFixed(1)}`);
      }
      if (runs.length === 0) throw new Error(`${page}: every Lighthouse run failed (${failed.join(", ")})`);
      // The run with the median performance score; TBT is the median of the runs.
      const { lhr } = [...runs].sort((a, b) => a.perf - b.perf)[Math.floor(runs.length / 2)]!;
      const tbtMedian = median(runs.map((r) => r.tbt));
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      if (!PUBLIC.has(page) && (scores[0]! < 95 || tbtMedian > 150))
        misses.push(
          `\`${page}\`: performance ${scores[0]}, TBT ${tbtMedian} ms (runs: ${runs.map((r) => `${r.perf}/${r.tbt} ms at load ${r.load.toFixed(1)}`).join(", ")})`,
        );
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
      const fcp = lhr.audits["first-contentful-paint"]?.displayValue ?? "";
      const si = lhr.audits["speed-index"]?.displayValue ?? "";
      const cls = lhr.audits["cumulative-layout-shift"]?.displayValue ?? "";
      if (lhr.finalDisplayedUrl !== `${app.baseUrl}${page}`) throw new Error(`${page} ended at ${lhr.finalDisplayedUrl}`);
      rows.push(
        `| \`${page}\`${as ? ` (${as})` : ""} | ${scores.join(" | ")} | ${tbtMedian} ms | ${runs.map((r) => `${r.perf} / ${r.tbt}`).join(", ")}${failed.length ? ` (failed runs, replaced: ${failed.join(", ")})` : ""} | ${(jsBytes / 1024).toFixed(1)} KB | ${fcp} | ${lcp} | ${si} | ${cls} | ${requests.length} |`,
      );
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
    await browser.disconnect();
    await chrome.kill();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const previous = publicOnly && fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8").replace(/^# .*\n/, "") : "";
  const file = writeResults(
    "lighthouse",
    "Lighthouse (mobile) on the public and portal pages",
    `npm run build && npx tsx bench/lighthouse.ts${publicOnly ? " --public" : process.argv.includes("--portal") ? " --portal" : ""}`,
    `Lighthouse ${"12.8.2"}, default mobile emulation and throttling (simulated), median of ${RUNS} runs per page (the run with the median performance score; TBT = median total blocking time of the runs; "runs" lists each run's performance / TBT in ms), Debian Chromium headless, production build served by our server on loopback, database filled by \`seedDemo\` (${DEMO_SIZE.users} users, ${DEMO_SIZE.proposals} proposals, ${DEMO_SIZE.invoices} invoices); portal pages signed in as the demo account named. JS = script bytes transferred on first load (compressed; \`/contact\` also carries a ~0.3 KB inline script for its pending state). Targets: 100 everywhere on the public pages, performance ≥ 95 and TBT ≤ 150 ms on the portal pages. Portal pages are \`noindex\` on purpose and have no meta description, so their SEO score (is-crawlable, meta-description) is not a target.

| page | performance | accessibility | best practices | SEO | TBT | runs (perf / TBT ms) | first-load JS | FCP | LCP | SI | CLS | requests |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Machine load (load average 1/5/15 min) at the start ${loadBefore.map((l) => l.toFixed(1)).join(" / ")} and at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " / ",
      )} on ${os.cpus().length} cores: on a public page, which runs no JavaScript, a performance score below 100 (total blocking time, a late first paint) means the CPU was taken by other work, not by the page.

${publicOnly ? "No portal page in this run." : misses.length ? `Portal pages below target (performance ≥ 95, TBT ≤ 150 ms):\n${misses.map((m) => `- ${m}`).join("\n")}` : "Every portal page measured meets performance ≥ 95 and TBT ≤ 150 ms."}

Fonts loaded (from the trace's network requests): ${[...fonts].join("; ") || "none"}.
Third-party requests: ${thirdParty.length ? thirdParty.join("; ") : "none — every request went to the site's own origin"}.

${failures.length ? `Audits below 100:\n${failures.join("\n")}` : "Every category scores 100 on every page."}
${publicOnly ? `\nThe public pages only (\`--public\`); \`/project3\` is a case study from the database (seeded by migration 0030, with its screenshots), \`/lighthouse-check\` one created, saved and published by the bench through the admin's use-cases (issue #40).\n\n---\n\n## Earlier run\n${previous.replace(/^## /gm, "### ")}` : ""}`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
