#!/usr/bin/env node
/**
 * Runs npm scripts at the same time and fails when any fails (issue #42: a test suite that fits in
 * a stop). Used by `npm test` for the checks that each keep one core busy — `tsc`, ESLint + Prettier
 * and the production build — so that on a 2-core machine they take the time of the longest instead
 * of their sum.
 *
 *   node scripts/run-parallel.mjs typecheck lint build
 *
 * Each script's output is printed whole when it ends (not interleaved), then one line per script
 * with its wall-clock time. Exit status: 0 when every script passed, else 1; a script that fails
 * does not stop the others (their messages are wanted too).
 *
 * Plain JavaScript (no tsx) so that it starts in milliseconds.
 */
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs <npm script> [<npm script> …]");
  process.exit(2);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * @param {string} name - an npm script of package.json.
 * @returns {Promise<{ name: string; code: number; seconds: number }>} its exit code (1 when it was
 *   killed by a signal) and wall-clock time.
 */
function run(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", name], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
    });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const text = Buffer.concat(output).toString().trimEnd();
      process.stdout.write(`\n── npm run ${name} (${seconds.toFixed(1)} s, exit ${code ?? "signal"}) ──\n${text ? `${text}\n` : ""}`);
      resolve({ name, code: code ?? 1, seconds });
    });
  });
}

const results = await Promise.all(names.map(run));
console.log(`\n${results.map((r) => `${r.code === 0 ? "ok  " : "FAIL"} ${r.name} ${r.seconds.toFixed(1)} s`).join("\n")}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
