/**
 * Starts and stops processes of tests/helpers/mail-worker.ts (the app's job runner with the mail
 * queue) for the multi-process mail tests and benchmarks.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { bundleScripts } from "./bundled-scripts";

/** Mail worker processes of one bundle of tests/helpers/mail-worker.ts. */
export interface MailWorkers {
  /**
   * Starts one mail worker process.
   *
   * @param env - its environment on top of this process's: DATABASE_URL or PGLITE_DIR, SMTP_URL, FAST.
   * @returns the process, once it polls (it printed `ready`); rejects if it exits before.
   */
  start(env: Record<string, string>): Promise<ChildProcess>;
  /** Deletes the bundle (call it once no more workers will start, e.g. in `afterAll`). */
  remove(): void;
}

/**
 * Bundles tests/helpers/mail-worker.ts once (tests/helpers/bundled-scripts.ts, as
 * `npm run build:server` builds the server), so that each worker starts as plain Node instead of
 * through tsx (≈ 1 s less CPU per start). The caller removes the bundle with `remove()`: a vitest
 * worker is ended without its `exit` handlers, which left a node_modules/.cache/mail-worker-*
 * folder behind per run.
 *
 * @returns `start(env)` and `remove()`.
 * @throws the esbuild error when the worker does not build.
 */
export async function bundleMailWorkers(): Promise<MailWorkers> {
  const entry = "tests/helpers/mail-worker.ts";
  const bundle = await bundleScripts([entry]);
  return {
    start: async (env) => {
      const child = spawn(process.execPath, [bundle.bundleOf(entry)], {
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
    },
    remove: bundle.remove,
  };
}

/** Resolves when the process has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve())));
}
