/**
 * An earlier release of this repository, checked out beside the current one for benches that
 * compare against it or run its code (bench/org-migration-scale.ts, bench/portfolio-throughput.ts).
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs git in this checkout; @returns its trimmed standard output. @throws {Error} on a non-zero exit. */
export async function git(...args: string[]): Promise<string> {
  return (await execFileAsync("git", args, { maxBuffer: 1 << 24 })).stdout.trim();
}

/**
 * Runs a command in `cwd` and keeps its output (shown in the error on failure).
 *
 * @param options.env - variables on top of this process's environment.
 * @param options.echo - when given, each output line is also printed with this prefix (e.g. `[old]`).
 * @returns the command's standard output and error, interleaved.
 * @throws {Error} on a non-zero exit, with the output's last 4,000 characters.
 */
export function sh(
  cmd: string,
  args: string[],
  cwd: string,
  options: { env?: Record<string, string>; echo?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const take = (d: Buffer) => {
      out += d;
      if (options.echo) for (const line of String(d).split("\n").filter(Boolean)) console.log(`  ${options.echo} ${line}`);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${out.slice(-4000)}`)),
    );
  });
}

/**
 * `commit` in a detached git worktree under the system's temporary folder (reused when it exists),
 * with its dependencies: a hard-linked copy of this checkout's node_modules (never a symlink;
 * nothing downloaded) when every package the commit's lockfile names is locked here at the same
 * version and integrity, else `npm ci` in the worktree.
 *
 * @param name - the folder's prefix (the folder is `<tmp>/<name>-<first 10 hex of commit>`).
 * @returns the worktree's directory and a sentence on how its node_modules was made.
 */
export async function releaseWorktree(commit: string, name: string): Promise<{ dir: string; modules: string }> {
  const dir = path.join(os.tmpdir(), `${name}-${commit.slice(0, 10)}`);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    await git("worktree", "prune");
    await git("worktree", "add", "--detach", dir, commit);
  }
  if (fs.existsSync(path.join(dir, "node_modules"))) return { dir, modules: "kept from an earlier run" };
  type Lock = { packages: Record<string, { version?: string; integrity?: string }> };
  const oldLock = JSON.parse(await git("show", `${commit}:package-lock.json`)) as Lock;
  const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as Lock;
  const differing = Object.entries(oldLock.packages).filter(
    ([key, p]) =>
      key.startsWith("node_modules/") && (lock.packages[key]?.version !== p.version || lock.packages[key]?.integrity !== p.integrity),
  );
  if (differing.length === 0) {
    await execFileAsync("cp", ["-al", path.resolve("node_modules"), path.join(dir, "node_modules")]);
    return {
      dir,
      modules: `hard-linked copy of this checkout's node_modules (all ${Object.keys(oldLock.packages).length - 1} locked packages at the same versions)`,
    };
  }
  console.log(
    `${differing.length} locked packages differ (${differing
      .slice(0, 5)
      .map(([k]) => k)
      .join(", ")}…): npm ci in ${dir}`,
  );
  await sh("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], dir);
  return { dir, modules: `npm ci (${differing.length} locked packages differ from this checkout's)` };
}
