/**
 * Benchmark helpers: start the built app (production mode) on a free port with its own
 * data directory or PostgreSQL database, and describe the machine for the results file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, spawnApp, type AppProcess } from "../../tests/helpers/app-server";

export { freePort };
export type RunningApp = AppProcess;

/** Starts the built app with the benchmark admin (admin@bench.test / admin-bench-password), its own data directory and LOG_LEVEL=warn. */
export async function startApp(env: Record<string, string> = {}, options: { discardStdout?: boolean } = {}): Promise<RunningApp> {
  if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` first.");
  return spawnApp(
    {
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      ADMIN_EMAIL: "admin@bench.test",
      ADMIN_PASSWORD: "admin-bench-password",
      DATA_DIR: env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-")),
      // No request log: at tens of thousands of requests per second it would be collected in this process.
      LOG_LEVEL: "warn",
      ...env,
    },
    options,
  );
}

/** One line describing the machine, for results files. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Writes a results file with the standard header (date, machine, command). */
export function writeResults(name: string, title: string, command: string, body: string): string {
  const file = path.join("bench/results", `${name}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `# ${title}\n\n- Date: ${new Date().toISOString()}\n- Machine: ${machine()}\n- Command: \`${command}\`\n\n${body.trim()}\n`,
  );
  return file;
}
