#!/usr/bin/env node
/**
 * `npm test`: every check of the project, overlapped so that the 2-core machine is kept busy
 * (issue #42: a test suite that fits in a stop). Nothing is left out; only the order changes:
 *
 *   build ‖ typecheck ‖ lint ‖ vitest (the last three niced)
 *   build done                     → Playwright's browser projects (`sweep`, `main`)
 *   all of the above done          → Playwright's `hostile` and `fuzz` projects, one worker, alone
 *
 * Why this is safe: vitest needs none of the build's outputs (`build/`, `public/generated/`,
 * `.react-router/`), so it starts at once; the browser tests wait mostly on the server, the mails
 * and hydration (≈ 1 core for two workers), so vitest's ≈ 340 s of CPU runs in the core they
 * leave idle. The critical path is the build, then the browser tests: typecheck, lint and vitest
 * run at nice 5 so that these get the CPU first (the three have minutes of slack: they only have
 * to end before hostile and fuzz start). `hostile` measures /healthz latency during attacks and `fuzz`
 * loads the server for 60 s: they start only when everything else has ended, on one worker, so
 * nothing else runs beside them (as in playwright.config.ts, where they depend on the others).
 *
 *   node scripts/test.mjs [--report-dir DIR] [--vitest-args "…"] [--playwright-args "…"]
 *
 * --report-dir: also writes there vitest's and Playwright's JSON reports (vitest.json,
 *   playwright-browser.json, playwright-alone.json), each part's CPU time (`<part>.time`, GNU
 *   time: wall user sys) and parts.json (each part's start and end, in seconds from the start, and
 *   exit code): used by bench/test-speed.sh.
 * --vitest-args, --playwright-args: extra arguments (split on spaces) for vitest and for the
 *   browser projects' Playwright run (e.g. `--workers=3`); the hostile + fuzz run keeps one worker.
 *
 * Output: each part's lines as they come, prefixed with its name; at the end one line per part
 * with its wall-clock time. Exit status: 0 when every part passed, else 1. A failing part does not
 * stop the others (their messages are wanted too); when the build fails the browser tests cannot
 * run and are reported as not run.
 *
 * Plain JavaScript (no tsx) so that it starts in milliseconds.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const args = process.argv.slice(2);
/** @param {string} name @returns {string | undefined} the value after `--name`. */
function option(name) {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}
const reportDir = option("report-dir") ? path.resolve(option("report-dir")) : undefined;
const split = (/** @type {string | undefined} */ s) => (s ?? "").split(" ").filter(Boolean);
const vitestArgs = split(option("vitest-args"));
const playwrightArgs = split(option("playwright-args"));
if (reportDir) fs.mkdirSync(reportDir, { recursive: true });

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const timed = reportDir !== undefined && fs.existsSync("/usr/bin/time");
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
/** @type {{ name: string; start: number; end: number; code: number | null }[]} */
const parts = [];

/**
 * Runs one part and streams its output, each line prefixed with its name.
 *
 * @param {string} name - the part's label (also its `.time` file's name).
 * @param {string} command - the program.
 * @param {string[]} commandArgs - its arguments.
 * @param {{ nice?: number; env?: Record<string, string> }} [options] - a lower CPU priority for it
 *   and its children; extra environment.
 * @returns {Promise<number>} its exit code (1 when killed by a signal).
 */
function run(name, command, commandArgs, options = {}) {
  const start = seconds();
  // `nice` (coreutils) before the command starts its children (npm, vitest's workers): they inherit it.
  const niced = options.nice && fs.existsSync("/usr/bin/nice") ? ["/usr/bin/nice", "-n", String(options.nice), command] : [command];
  const [program, ...programArgs] = timed
    ? ["/usr/bin/time", "-f", "%e %U %S", "-o", path.join(reportDir, `${name}.time`), ...niced, ...commandArgs]
    : [...niced, ...commandArgs];
  return new Promise((resolve) => {
    const child = spawn(program, programArgs, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0", ...options.env },
    });
    const prefix = `${name} │ `;
    for (const stream of [child.stdout, child.stderr])
      readline.createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
    child.on("close", (code) => {
      const end = seconds();
      parts.push({ name, start, end, code });
      process.stdout.write(`${prefix}── ended in ${(end - start).toFixed(1)} s, exit ${code ?? "signal"} ──\n`);
      resolve(code ?? 1);
    });
  });
}

const report = (/** @type {string} */ file) => (reportDir ? path.join(reportDir, file) : "");

const typecheck = run("typecheck", npm, ["run", "typecheck"], { nice: 5 });
const lint = run("lint", npm, ["run", "lint"], { nice: 5 });
const build = run("build", npm, ["run", "build"]);
const vitest = run(
  "vitest",
  npx,
  [
    "vitest",
    "run",
    ...vitestArgs,
    ...(reportDir ? ["--reporter=default", "--reporter=json", `--outputFile=${report("vitest.json")}`] : []),
  ],
  { nice: 5 },
);
const playwright = (/** @type {string} */ name, /** @type {string[]} */ extra, /** @type {string} */ json) =>
  run(name, npx, ["playwright", "test", ...extra, ...(reportDir ? ["--reporter=list,json"] : [])], {
    env: reportDir ? { PLAYWRIGHT_JSON_OUTPUT_NAME: report(json) } : {},
  });

const browser = build.then((code) =>
  code === 0 ? playwright("e2e", ["--project=sweep", "--project=main", ...playwrightArgs], "playwright-browser.json") : null,
);
await Promise.all([typecheck, lint, vitest, browser]);
const alone =
  (await build) === 0
    ? await playwright("e2e-alone", ["--project=hostile", "--project=fuzz", "--no-deps", "--workers=1"], "playwright-alone.json")
    : null;

const results = [
  ["typecheck", await typecheck],
  ["lint", await lint],
  ["build", await build],
  ["vitest", await vitest],
  ["e2e", await browser],
  ["e2e-alone", alone],
];
if (reportDir) fs.writeFileSync(report("parts.json"), `${JSON.stringify(parts, null, 2)}\n`);
const line = (/** @type {string} */ name, /** @type {number | null} */ code) => {
  const part = parts.find((p) => p.name === name);
  if (code === null) return `FAIL ${name}: not run (the build failed)`;
  return `${code === 0 ? "ok  " : "FAIL"} ${name} ${part.start.toFixed(0)}–${part.end.toFixed(0)} s`;
};
console.log(`\n${results.map(([name, code]) => line(name, code)).join("\n")}\nnpm test: ${seconds().toFixed(0)} s`);
process.exit(results.every(([, code]) => code === 0) ? 0 : 1);
