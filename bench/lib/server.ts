/**
 * Benchmark helpers: start the built app (production mode) on a free port with its own
 * data directory or PostgreSQL database, and describe the machine for the results file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningApp {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `server/main.ts` on the built app and waits until /healthz answers. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` first.");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BETTER_AUTH_URL: baseUrl,
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      ADMIN_EMAIL: "admin@bench.test",
      ADMIN_PASSWORD: "admin-bench-password",
      DATA_DIR: env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-")),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app exited:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null) return;
      child.kill(signal);
      await new Promise((r) => child.once("exit", r));
    },
  };
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
  fs.writeFileSync(file, `# ${title}\n\n- Date: ${new Date().toISOString()}\n- Machine: ${machine()}\n- Command: \`${command}\`\n\n${body.trim()}\n`);
  return file;
}
