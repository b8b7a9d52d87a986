/**
 * Starts the built app (`build/server/main.js`, compiled from `server/main.ts`; production mode) in a child process on a free
 * port and waits for /healthz — shared by the browser tests and the benchmarks.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface AppProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed so far. */
  output: () => string;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * @param env - environment on top of this process's (DATA_DIR, DATABASE_URL, SMTP_URL, ADMIN_*, …);
 *   PORT, HOST and BETTER_AUTH_URL are set for the chosen port unless given; TRUST_PROXY is
 *   `loopback` unless given (tests and benchmarks stand in for a proxy on the same host and set
 *   X-Forwarded-For to spread their requests over client IPs).
 * @param options.hostname - the host name of the base URL (default 127.0.0.1; the server listens on 127.0.0.1).
 * @param options.discardStdout - send the process's standard output (its request log) to /dev/null instead of
 *   collecting it (benchmarks at tens of thousands of requests per second); `output()` then holds stderr only.
 * @param options.args - node's arguments (default `build/server/main.js`; e.g. `--import tsx server/main.ts`).
 * @param options.startTimeoutMs - how long it may take to become healthy (default 60 s).
 * @param options.cwd - the process's working directory (default this one's; e.g. another checkout's build).
 * @throws {Error} with the process output when it exits or is not healthy in time.
 */
export async function spawnApp(
  env: Record<string, string>,
  options: { hostname?: string; discardStdout?: boolean; args?: string[]; startTimeoutMs?: number; cwd?: string } = {},
): Promise<AppProcess> {
  const port = await freePort();
  // `hostname: "localhost"` for WebAuthn, whose relying party cannot be an IP address.
  const baseUrl = `http://${options.hostname ?? "127.0.0.1"}:${port}`;
  let output = "";
  const child = spawn(process.execPath, options.args ?? ["build/server/main.js"], {
    cwd: options.cwd,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BETTER_AUTH_URL: baseUrl,
      TRUST_PROXY: "loopback",
      ...env,
    },
    stdio: ["ignore", options.discardStdout ? "ignore" : "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  let stopping = false;
  // A server that crashes under a test takes its reason with it: say why, with the tail of its output
  // (a kill the test sends itself, a signal, is not a crash).
  child.once("exit", (code) => {
    if (!stopping && code !== null && code !== 0)
      console.error(`app server ${baseUrl} exited with code ${code}; its last output:\n${output.slice(-6000)}`);
  });
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await new Promise((r) => child.once("exit", r));
  };
  // A budget for a hang, not a speed check: a shared 2-core machine under load took over 60 s to start the built app.
  const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl, output: () => output, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stopping = true;
  child.kill("SIGKILL");
  throw new Error(`app server did not become healthy:\n${output}`);
}
