/**
 * Process entry point: reads the configuration, serves static files (or Vite in
 * development), mounts the application router and listens on PORT.
 *
 * `npm start` runs it in production mode on the built app (`build/`). With
 * `WEB_CONCURRENCY` above 1 (PostgreSQL only) this process becomes a node:cluster primary
 * that starts that many server processes sharing the port: the first one alone (it applies
 * migrations and creates the first admin), the others once it listens. A server process that
 * dies is replaced; SIGINT/SIGTERM stop them all. The app is stateless between requests
 * (sessions, rate limits and the outbox live in PostgreSQL), so any process can answer.
 */
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import { createPageCache } from "./page-cache";
import { forwardedForWarning, hsts, httpsDetector, securityHeaders } from "./security";

type AppModule = typeof import("./app");

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const production = process.env.NODE_ENV === "production";
  const app = express();
  app.disable("x-powered-by");
  let appModule: AppModule;

  if (production) {
    appModule = (await import(path.join(root, "build/server/index.js"))) as AppModule;
  } else {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ root, server: { middlewareMode: true } });
    app.use(viteServer.middlewares);
    appModule = (await viteServer.ssrLoadModule(path.join(root, "server/app.ts"))) as AppModule;
  }

  let env;
  try {
    env = appModule.parseEnv(process.env);
  } catch (error) {
    if (error instanceof appModule.EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  app.set("trust proxy", parseTrustProxy(env.TRUST_PROXY));
  const pageCache = createPageCache();
  const isHttps = httpsDetector(app.get("trust proxy fn"));
  const warnForwardedFor = forwardedForWarning(app.get("trust proxy fn"), (line) => console.error(line));
  app.use(hsts);
  app.use(securityHeaders({ development: !production }));
  // Level 3: within 10 % of level 6 in size for half its CPU (dynamic pages are compressed per request).
  app.use(compression({ level: 3 }));
  if (production) {
    app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
    // Other public files (favicon, screenshots, robots …) all have an extension: page
    // requests skip the file-system lookup.
    const publicFiles = express.static(path.join(root, "build/client"), { maxAge: "1h", index: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  let server;
  try {
    server = await appModule.createServerApp(env);
  } catch (error) {
    if (error instanceof appModule.DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  app.use(server.router);

  // Prerendered public pages are answered before express; everything else goes through it.
  const listener = http.createServer((req, res) => {
    warnForwardedFor(req);
    if (!(production && pageCache.serve(req, res, isHttps))) app(req, res);
  });
  listener.listen(env.PORT, env.HOST, () => {
    const address = listener.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    const worker = cluster.isWorker ? ` [process ${cluster.worker!.id} of ${env.WEB_CONCURRENCY}]` : "";
    console.log(`Server listening on http://localhost:${port} (database: ${env.DATABASE_URL ? "PostgreSQL" : env.pgliteDir})${worker}`);
    if (production) void pageCache.warm(`http://127.0.0.1:${port}`);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received, shutting down`);
    listener.close();
    listener.closeAllConnections();
    server.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  // A server process outlives no primary (e.g. one killed with SIGKILL).
  if (cluster.isWorker) process.on("disconnect", () => shutdown("primary gone"));
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
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!listening) return;
    console.error(`Server process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another.`);
    setTimeout(() => cluster.fork(), 500);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(0), 8_000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
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
    console.error(error);
    process.exit(1);
  });
}
