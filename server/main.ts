/**
 * Process entry point: reads the configuration, serves static files (or Vite in
 * development), mounts the application router and listens on PORT.
 *
 * `npm run build` compiles this file to `build/server/main.js` (esbuild, plain JavaScript);
 * `npm run serve` runs that with plain `node` in production mode on the built app (`build/`);
 * `npm run dev` runs this source through tsx with Vite. With `WEB_CONCURRENCY` above 1
 * (PostgreSQL only) this process becomes a node:cluster primary that starts that many server
 * processes sharing the port: the first one alone (it applies migrations and creates the first
 * admin), the others once it listens. A server process that dies is replaced. The app is
 * stateless between requests (sessions, rate limits and the outbox live in PostgreSQL), so any
 * process can answer.
 *
 * Graceful shutdown (SIGTERM or SIGINT, docs/product.md#operations): /readyz turns 503, the
 * live-update streams are closed (the browsers reconnect elsewhere; a stream is never counted as
 * a request in flight), the job queue takes no new job, the listener stops accepting connections,
 * requests in flight are answered (idle keep-alive connections are closed) and running jobs (a mail
 * being sent, an export being built) finish, then the database is closed. Whatever is still running after SHUTDOWN_TIMEOUT_MS is cut off and the process exits
 * with code 1 (0 otherwise). A cluster primary forwards the signal and exits with 1 when a
 * server process did, or did not stop in time.
 */
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { createPageCache } from "./page-cache";
import { normaliseTarget, requestLineRefusal, writeRefusal } from "./request-line";
import { forwardedForWarning, hsts, httpsDetector, securityHeaders } from "./security";

type AppModule = typeof import("./app");

/** How often the listener looks for connections past their header or request deadline (ms). */
const CONNECTIONS_CHECK_MS = 1_000;

// server/main.ts (development) or build/server/main.js (compiled): the project root holds package.json.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = fs.existsSync(path.join(here, "..", "package.json")) ? path.resolve(here, "..") : path.resolve(here, "..", "..");

/** A line on stderr before the app's logger is loaded (the same JSON shape). */
function earlyError(msg: string, error?: unknown) {
  const scrub = (text?: string) => text?.replace(/(:\/\/[^\s:/@]*:)[^\s@/]*@/g, "$1***@");
  const err = error instanceof Error ? { type: error.name, message: scrub(error.message), stack: scrub(error.stack) } : undefined;
  process.stderr.write(`${JSON.stringify({ level: "fatal", time: new Date().toISOString(), pid: process.pid, msg, err })}\n`);
}

async function main() {
  const production = process.env.NODE_ENV === "production";
  const app = express();
  app.disable("x-powered-by");
  // Requests are answered below, once the app is loaded; in development Vite's HMR web socket
  // shares this server (no second port that two dev servers, or a test's, would fight over).
  // Expired header and request deadlines are looked for every second (Node's default, 30 s, kept a
  // slow-header connection open up to half a minute past its deadline).
  const listener = http.createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS });
  let appModule: AppModule;

  if (production) {
    appModule = (await import(path.join(root, "build/server/index.js"))) as AppModule;
  } else {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ root, server: { middlewareMode: true, hmr: { server: listener } } });
    app.use(viteServer.middlewares);
    appModule = (await viteServer.ssrLoadModule(path.join(root, "server/app.ts"))) as AppModule;
  }

  const { logger } = appModule;
  let env;
  try {
    env = appModule.parseEnv(process.env);
  } catch (error) {
    if (error instanceof appModule.EnvError) {
      // One plain line on stderr for the operator; it names the variable and never holds a secret value (see parseEnv).
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Issue #36 (slow clients): 408 and closed when the headers, or the whole request, are late; a silent connection is closed.
  listener.headersTimeout = env.HTTP_HEADERS_TIMEOUT_MS;
  listener.requestTimeout = env.HTTP_REQUEST_TIMEOUT_MS;
  listener.timeout = env.HTTP_IDLE_TIMEOUT_MS;
  /** The site's own host (BETTER_AUTH_URL): an absolute-form request target may name it. */
  const ownHosts = [new URL(env.origin).host];
  app.set("trust proxy", parseTrustProxy(env.TRUST_PROXY));
  // The pages (and the published case studies among them) are read from the app once it runs.
  let publicPagePaths: () => Promise<string[]> = async () => [];
  const pageCache = createPageCache(
    () => publicPagePaths(),
    (page, error) => logger.warn({ err: error, page }, "page cache: could not prerender"),
  );
  const isHttps = httpsDetector(app.get("trust proxy fn"));
  const warnForwardedFor = forwardedForWarning(app.get("trust proxy fn"), (line) => console.error(line));
  const trustProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  /** Whether the direct peer is a trusted proxy (its X-Forwarded-Host is read). */
  const trustsPeer = (req: http.IncomingMessage) => trustProxy(req.socket.remoteAddress ?? "", 0);
  app.use(hsts);
  app.use(securityHeaders({ development: !production }));
  // Level 3: within 10 % of level 6 in size for half its CPU (dynamic pages are compressed per request).
  app.use(compression({ level: 3 }));
  if (production) {
    // Scripts and styles as precompressed at build (scripts/compress-assets.ts): brotli, else gzip, else as they are.
    app.use(
      "/assets",
      expressStaticGzip(path.join(root, "build/client/assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gzip"],
        serveStatic: { immutable: true, maxAge: "1y", index: false },
      }),
    );
    // Other public files (favicon, screenshots, robots …) all have an extension: page
    // requests skip the file-system lookup.
    const publicFiles = express.static(path.join(root, "build/client"), { maxAge: "1h", index: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  let server;
  try {
    server = await appModule.createServerApp(env);
  } catch (error) {
    // One plain line for the operator: a locked data directory, or a configuration the database refuses.
    if (error instanceof appModule.DataDirLockedError || error instanceof appModule.EnvError) process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, "server failed to start");
    process.exit(1);
  }
  app.use(server.router);
  publicPagePaths = () => server.publicPagePaths();
  server.onPublicPagesChanged(() => pageCache.invalidate());

  let inFlight = 0;
  // Prerendered public pages are answered before express; everything else goes through it.
  const { requests } = server;
  listener.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = process.hrtime.bigint();
    const id = requests.id(req);
    warnForwardedFor(req);
    // A path, method or Host no route can answer: 400/405 here, not a 500 further in. An
    // absolute-form target (`GET http://host/login`) becomes its path first, or 400 for another host.
    const refusal = normaliseTarget(req, ownHosts) ?? requestLineRefusal(req, trustsPeer(req));
    if (refusal) {
      writeRefusal(res, refusal);
      return requests.written(req, refusal.status, id, started);
    }
    // A prerendered page is written in full right here: nothing stays in flight.
    const status = production ? pageCache.serve(req, res, isHttps, id) : 0;
    if (status) return requests.written(req, status, id, started);
    // Live-update streams (docs/product.md#live-updates) are long-lived: answered here, outside
    // express (no compression buffering) and outside the count of requests in flight.
    if (req.url === "/events" || req.url?.startsWith("/events?")) return server.events(req, res);
    inFlight++;
    res.once("close", () => inFlight--);
    requests.track(req, res, id, started);
    app(req, res);
  });
  listener.listen(env.PORT, env.HOST, () => {
    const address = listener.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info(
      {
        url: `http://localhost:${port}`,
        database: env.DATABASE_URL ? "PostgreSQL" : env.pgliteDir,
        process: cluster.isWorker ? `${cluster.worker!.id} of ${env.WEB_CONCURRENCY}` : undefined,
      },
      `server listening on http://localhost:${port}`,
    );
    if (production) void pageCache.warm(`http://127.0.0.1:${port}`);
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    const deadline = started + env.SHUTDOWN_TIMEOUT_MS;
    logger.info({ signal, inFlight, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, "shutting down: not ready, finishing requests in flight");
    server.markStopping();
    // ADR 019: no new job from now on; the running ones get until the same deadline.
    const jobsStopped = server.stopJobs(env.SHUTDOWN_TIMEOUT_MS).catch((error: unknown) => {
      logger.error({ err: error }, "shutdown: stopping the job queue failed");
    });
    // Stops accepting; idle keep-alive connections are closed now, busy ones once their response is written.
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    const sweep = setInterval(() => listener.closeIdleConnections(), 250);
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), Math.max(0, deadline - Date.now())).unref()),
    ]);
    clearInterval(sweep);
    if (timedOut) {
      logger.error({ inFlight, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, "shutdown deadline reached: cutting off the requests still in flight");
      listener.closeAllConnections();
    }
    // Running jobs finish by the deadline (the queue fails — so retries — any still running then);
    // a backstop ends a close that hangs.
    const backstop = setTimeout(
      () => {
        logger.error("shutdown: closing the services did not finish within 5 s of the deadline");
        logger.flush();
        process.exit(1);
      },
      Math.max(0, deadline - Date.now()) + 5_000,
    ).unref();
    await jobsStopped;
    let failed = timedOut;
    try {
      await server.close();
    } catch (error) {
      logger.error({ err: error }, "shutdown: closing the services failed");
      failed = true;
    }
    clearTimeout(backstop);
    logger.info({ durationMs: Date.now() - started, exitCode: failed ? 1 : 0 }, "stopped");
    logger.flush();
    process.exit(failed ? 1 : 0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // A server process outlives no primary (e.g. one killed with SIGKILL).
  if (cluster.isWorker) process.on("disconnect", () => void shutdown("primary gone"));
}

/**
 * `TRUST_PROXY`: "true"/"false", a hop count, or express's names/addresses/subnets, comma-separated
 * (default "false": no proxy is trusted, the client IP is the connection's address).
 */
function parseTrustProxy(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * Cluster primary: forks `count` server processes (the first alone until it listens) and
 * replaces any that dies afterwards. Exits with the first process's code if it fails to start.
 */
function runPrimary(count: number) {
  let listening = false;
  let stopping = false;
  let failures = 0;
  const first = cluster.fork();
  first.once("exit", (code) => {
    if (!listening) process.exit(code ?? 1);
  });
  first.once("listening", () => {
    listening = true;
    for (let i = 1; i < count; i++) cluster.fork();
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (code !== 0) failures++;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failures ? 1 : 0);
      return;
    }
    if (!listening) return;
    primaryLog("error", `server process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    setTimeout(() => cluster.fork(), 500);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    primaryLog("info", `${signal} received: stopping the server processes`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // Each server process has SHUTDOWN_TIMEOUT_MS (requests and running jobs) and 5 s to close its services.
    const timeout = Number(process.env.SHUTDOWN_TIMEOUT_MS) || 10_000;
    setTimeout(() => {
      primaryLog("error", "server processes did not stop in time");
      process.exit(1);
    }, timeout + 8_000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/** The primary loads no app code: its few lines are written directly, in the logger's JSON shape. */
function primaryLog(level: "info" | "error", msg: string) {
  const line = `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, msg })}\n`;
  (level === "info" ? process.stdout : process.stderr).write(line);
}

// Optional .env file next to package.json; real environment variables win.
const envFile = path.join(root, ".env");
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
// An invalid value falls through to the server process, whose parseEnv explains it.
const processes = Number(process.env.WEB_CONCURRENCY ?? 1);
if (cluster.isPrimary && Number.isInteger(processes) && processes > 1 && process.env.DATABASE_URL) {
  runPrimary(processes);
} else {
  main().catch((error) => {
    earlyError("server failed to start", error);
    process.exit(1);
  });
}
