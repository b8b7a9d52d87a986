/**
 * Starts and stops processes of tests/helpers/mail-worker.ts (the app's job runner with the mail
 * queue) for the multi-process mail tests and benchmarks.
 */
import { spawn, type ChildProcess } from "node:child_process";

/**
 * Starts one mail worker process.
 *
 * @param env - its environment on top of this process's: DATABASE_URL or PGLITE_DIR, SMTP_URL, FAST.
 * @returns the process, once it polls (it printed `ready`).
 */
export function startMailWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/mail-worker.ts"], {
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
