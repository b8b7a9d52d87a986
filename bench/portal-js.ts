/**
 * Prints the first-load JavaScript of every portal page of the current build (gzip -9, the
 * method of bench/lib/page-js.ts) and, with `--chunks`, what each chunk of the largest page holds
 * (its modules, from the build's Vite manifest, grouped by package). The figures of
 * bench/results/portal-js.md are this script's output, one build per step.
 *
 *   npm run build && npx tsx bench/portal-js.ts [--chunks] [--json out.json]
 */
import fs from "node:fs";
import { PORTAL_PAGES, pageJs, readManifest, portalBudget } from "./lib/page-js";

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const manifest = readManifest();
const rows = PORTAL_PAGES.map((p) => ({ ...p, js: pageJs(p.routeId, "build/client", manifest) }));
console.log("| page | KB gz | budget |");
console.log("| ---- | ----: | -----: |");
for (const r of rows) console.log(`| ${r.url} | ${kb(r.js.total)} | ${kb(portalBudget(r.url))} |`);
const json = process.argv.indexOf("--json");
if (json > 0) fs.writeFileSync(process.argv[json + 1]!, JSON.stringify(Object.fromEntries(rows.map((r) => [r.url, r.js.total])), null, 1));
if (process.argv.includes("--chunks")) {
  const largest = rows.reduce((a, b) => (b.js.total > a.js.total ? b : a));
  console.log(`\n${largest.url}:`);
  for (const f of [...largest.js.files].sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(6)} ${f.file}`);
}
