/**
 * axe-core for the browser tests: one way to build the checker, so that every spec pays the least
 * for the same rules (issue #42: a test suite that fits in a stop).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core's minified build, evaluated only in a document that has no `axe` yet. In legacy mode
 * `analyze()` evaluates the source it is given twice per call (once itself, once more to inject it
 * into every frame), and by default that source is axe.js (1.5 MB): per call that was ≈ 0.12 s of
 * Chromium and Playwright CPU more than this guarded axe.min.js (650 KB), which a document evaluates
 * once however often it is checked (bench/results/test-speed.md). Same axe-core, same rules.
 */
const AXE_SOURCE = `if (!window.axe) {\n${fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")}\n}`;

/**
 * An axe-core checker of the page as it is now; chain `.withTags(…)`, `.withRules(…)`,
 * `.include(…)` as needed, then `.analyze()`.
 *
 * - Legacy mode: axe runs in the page itself (`axe.run`) instead of running in each frame and
 *   finishing in a blank page that `@axe-core/playwright` opens, injects axe into and closes for
 *   every call (≈ 35 % of the phone sweep's CPU). What it gives up — cross-origin frames — our
 *   pages have none (no iframe in app/); same-origin frames are still checked.
 * - axe-core is evaluated once per document ({@link AXE_SOURCE}).
 * - Violations only (`resultTypes`): every rule still runs on every node; only the passes and the
 *   inapplicable and incomplete results, which no test reads, are reported with one node each.
 *
 * @param page - the page to check (its current document, at its current viewport).
 * @returns the builder; `.analyze()` resolves to axe's results, whose `violations` the specs check.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page, axeSource: AXE_SOURCE }).setLegacyMode(true).options({ resultTypes: ["violations"] });
}
