/**
 * `npm start`'s first step (issue #41): runs `npm run build` only when the sources changed since
 * the last build, and says which way it went.
 *
 * The fingerprint is a SHA-256 over the path and content of every file the build reads: `app/`,
 * `server/` and `public/` (without `public/generated/`, which the build writes, and without test
 * files), `package.json`, `package-lock.json`, the build's configuration files and its three build
 * scripts. A successful build writes the fingerprint to `build/.source-stamp`; the next start
 * compares. A missing stamp, a missing `build/server/main.js` or any changed file means a build.
 * `--force` always builds. Run from the project directory (npm does that).
 *
 * Exit code: 0 when the build is current or was made, else the build's exit code.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Directories whose files the build reads (relative to the project directory). */
export const SOURCE_DIRS = ["app", "server", "public"] as const;
/** Single files the build reads; a missing one counts as empty. */
export const SOURCE_FILES = [
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "scripts/optimize-images.ts",
  "scripts/compress-assets.ts",
  "scripts/build-server.ts",
] as const;
/** Where a successful build leaves its fingerprint. */
export const STAMP_FILE = path.join("build", ".source-stamp");

const IGNORED_DIRS = new Set(["node_modules", "generated", ".react-router"]);
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

function listFiles(root: string, dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!IGNORED_DIRS.has(entry.name)) listFiles(root, rel, out);
    } else if (entry.isFile() && !TEST_FILE.test(entry.name)) out.push(rel);
  }
}

/**
 * The sources' fingerprint: hex SHA-256 over each file's relative path and content, in path order.
 *
 * @param root - the project directory.
 */
export function sourceFingerprint(root: string): string {
  const files: string[] = [];
  for (const dir of SOURCE_DIRS) listFiles(root, dir, files);
  files.push(...SOURCE_FILES);
  files.sort();
  const hash = createHash("sha256");
  for (const rel of files) {
    hash.update(rel).update("\0");
    try {
      hash.update(fs.readFileSync(path.join(root, rel)));
    } catch {
      hash.update("(missing)");
    }
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * Whether a build is needed, and why (one sentence for the console).
 *
 * @param root - the project directory.
 */
export function buildNeeded(root: string): { needed: boolean; reason: string; fingerprint: string } {
  const fingerprint = sourceFingerprint(root);
  const stampPath = path.join(root, STAMP_FILE);
  if (!fs.existsSync(path.join(root, "build", "server", "main.js")))
    return { needed: true, reason: "No build yet: building.", fingerprint };
  if (!fs.existsSync(stampPath)) return { needed: true, reason: "The build has no source stamp: building.", fingerprint };
  const stamp = fs.readFileSync(stampPath, "utf8").trim();
  if (stamp !== fingerprint) return { needed: true, reason: "Sources changed since the last build: building.", fingerprint };
  const when = fs.statSync(stampPath).mtime.toISOString().replace("T", " ").slice(0, 16);
  return { needed: false, reason: `Sources unchanged since the last build (${when} UTC): skipping the build.`, fingerprint };
}

function main(): number {
  const root = process.cwd();
  const force = process.argv.includes("--force");
  const check = buildNeeded(root);
  if (!force && !check.needed) {
    console.log(check.reason);
    return 0;
  }
  console.log(force ? "--force: building." : check.reason);
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) return result.status ?? 1;
  // The stamp is the state the build started from: a file saved during the build triggers the next one.
  fs.mkdirSync(path.dirname(path.join(root, STAMP_FILE)), { recursive: true });
  fs.writeFileSync(path.join(root, STAMP_FILE), `${check.fingerprint}\n`);
  console.log("Build done; its source stamp is in build/.source-stamp.");
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(main());
}
