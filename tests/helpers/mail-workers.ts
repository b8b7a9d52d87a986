/**
 * Starts and stops processes of tests/helpers/mail-worker.ts (the app's job runner with the mail
 * queue) for the multi-process mail tests and benchmarks.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

let built: Promise<string> | undefined;

/**
 * tests/helpers/mail-worker.ts built once per process (esbuild, packages external, as
 * `npm run build:server` builds the server) into node_modules/.cache, where its packages resolve:
 * a worker then starts as plain Node instead of through tsx (≈ 1 s less CPU per start). The
 * file is removed when this process exits.
 *
 * @returns the path of the built worker.
 */
function builtWorker(): Promise<string> {
  built ??= (async () => {
    // node_modules/.cache does not exist in a fresh clone until something writes there.
    fs.mkdirSync(path.resolve("node_modules/.cache"), { recursive: true });
    const dir = fs.mkdtempSync(path.resolve("node_modules/.cache/mail-worker-"));
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, "mail-worker.mjs");
    await build({
      entryPoints: ["tests/helpers/mail-worker.ts"],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outfile,
      logLevel: "warning",
    });
    return outfile;
  })();
  built.catch(() => (built = undefined));
  return built;
}

/**
 * Starts one mail worker process.
 *
 * @param env - its environment on top of this process's: DATABASE_URL or PGLITE_DIR, SMTP_URL, FAST.
 * @returns the process, once it polls (it printed `ready`).
 */
export async function startMailWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [await builtWorker()], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`mail worker exited (${code}) before it was ready`)));
  });
}

/** Resolves when the process has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve())));
}
