/**
 * Request log, request ids and Prometheus metrics (docs/product.md#operations).
 *
 * Every HTTP request — prerendered pages and static files included — gets an id (a
 * well-formed incoming `X-Request-Id` from a proxy, else a new UUID) sent back as the
 * `X-Request-Id` response header, and, once answered, one log line: method, route id (the
 * React Router route that matched, `static` for files, `unmatched` otherwise), path, status,
 * duration in ms, user id when signed in and request id. The same route id labels the
 * `http_request_duration_seconds` histogram served at `/metrics`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { requestLogger } from "#app/lib/logger.server";
import { redactPath } from "#app/lib/redact-path";

/** What the app learns about a request while answering it (e.g. the signed-in user). */
export interface RequestLogFields {
  /** Set by the session middleware when a user is signed in. */
  userId?: string;
  /** Set when the request failed because the database could not be reached (server/request-handler.ts answers 503). */
  databaseUnavailable?: boolean;
}

/** Per-request state attached to the node request. */
export interface TrackedRequest {
  id: string;
  fields: RequestLogFields;
}

const tracked = new WeakMap<IncomingMessage, TrackedRequest>();

/** The id and log fields of a tracked request (see {@link createRequestTracker}). */
export function trackedRequest(req: IncomingMessage): TrackedRequest | undefined {
  return tracked.get(req);
}

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

/** React Router's route tree from a server build's flat route manifest. */
function routeTree(routes: ServerBuild["routes"]): RouteNode[] {
  const byParent = new Map<string | undefined, RouteNode[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node: RouteNode = { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive };
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(node);
    byParent.set(route.parentId, siblings);
  }
  const attach = (nodes: RouteNode[]) => {
    for (const node of nodes) {
      const children = byParent.get(node.id);
      if (children) node.children = attach(children);
    }
    return nodes;
  };
  return attach(byParent.get(undefined) ?? []);
}

/**
 * A function from a URL path to the id of the deepest matching route. Results are cached
 * (bounded), since matching ranks every route.
 *
 * @returns e.g. `routes/admin/outbox` for `/admin/outbox` and `/admin/outbox.data`; `static` for
 *   `/assets/…` and file names; `unmatched` when no route matches.
 */
export function createRouteResolver(routes: ServerBuild["routes"]): (pathname: string) => string {
  const tree = routeTree(routes);
  const cache = new Map<string, string>();
  return (pathname) => {
    let id = cache.get(pathname);
    if (id) return id;
    if (pathname === "/_root.data") id = "root";
    else if (pathname === "/healthz" || pathname === "/readyz" || pathname === "/metrics") id = pathname.slice(1);
    else if (pathname.startsWith("/assets/") || (/\.[a-z0-9]+$/i.test(pathname) && !pathname.endsWith(".data"))) id = "static";
    else {
      const path = pathname.endsWith(".data") ? pathname.slice(0, -5) || "/" : pathname;
      id = matchRoutes(tree as RouteObject[], path)?.at(-1)?.route.id ?? "unmatched";
    }
    if (cache.size >= 2_000) cache.clear();
    cache.set(pathname, id);
    return id;
  };
}

export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<"method" | "route" | "status">;
  mailEvents: Counter<"outcome">;
}

/**
 * The process's Prometheus registry: default Node metrics, request durations by method, route
 * and status, outbox and job-queue counts (read at scrape time) and database pool counts.
 *
 * @param sources.outboxCounts - pending and failed outbox rows (queried per scrape).
 * @param sources.jobCounts - jobs per queue and state (ADR 019; queried per scrape).
 * @param sources.poolStats - the PostgreSQL pool's connection counts (absent with PGlite).
 */
export function createMetrics(sources: {
  outboxCounts(): Promise<{ pending: number; failed: number }>;
  jobCounts?(): Promise<Array<{ queue: string; state: string; count: number }>>;
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Open live-update streams of this process (docs/product.md#live-updates). */
  liveStreams?(): number;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route id and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const mailEvents = new Counter({
    name: "outbox_deliveries_total",
    help: "Outbox delivery attempts by outcome (sent, retry, failed).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "outbox_mails",
    help: "Outbox rows not sent, by state (pending: will be tried; failed: attempts exhausted).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const { pending, failed } = await sources.outboxCounts();
      this.set({ state: "pending" }, pending);
      this.set({ state: "failed" }, failed);
    },
  });
  if (sources.jobCounts) {
    const jobCounts = sources.jobCounts;
    new Gauge({
      name: "jobs",
      help: "Background jobs by queue and state (created, retry, active, completed, cancelled, failed); completed and failed ones until archived.",
      labelNames: ["queue", "state"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { queue, state, count } of await jobCounts()) this.set({ queue, state }, Number(count));
      },
    });
  }
  if (sources.poolStats) {
    const poolStats = sources.poolStats;
    new Gauge({
      name: "db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle, waiting clients).",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: "total" }, stats.total);
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "waiting" }, stats.waiting);
      },
    });
  }
  if (sources.liveStreams) {
    const liveStreams = sources.liveStreams;
    new Gauge({
      name: "live_streams_open",
      help: "Open live-update streams (GET /events) of this process; SSE_MAX_STREAMS is the cap.",
      registers: [registry],
      collect() {
        this.set(liveStreams());
      },
    });
  }
  return { registry, requestDuration, mailEvents };
}

/** Tracks every request for the request log and the `http_request_duration_seconds` histogram. */
export interface RequestTracker {
  /** The request's id: a well-formed incoming `X-Request-Id` (from a proxy), else a new UUID. */
  id(req: IncomingMessage): string;
  /**
   * For a request answered by express: records its id, sets `X-Request-Id`, and logs and measures it
   * when the response closes (499 when the client left first). Call before any answer is written.
   */
  track(req: IncomingMessage, res: ServerResponse, id: string, started: bigint): void;
  /**
   * For a response already written in full, synchronously (the page cache, whose headers carry the
   * id): logs and measures it now, without waiting for the close event.
   */
  written(req: IncomingMessage, status: number, id: string, started: bigint): void;
}

/**
 * Builds the per-request tracker.
 *
 * @param resolveRoute - from {@link createRouteResolver}.
 * @param metrics - the registry whose request histogram is fed.
 */
export function createRequestTracker(resolveRoute: (pathname: string) => string, metrics: Metrics): RequestTracker {
  const finish = (method: string, url: string, status: number, id: string, started: bigint, userId?: string) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const query = url.indexOf("?");
    const route = resolveRoute(query === -1 ? url : url.slice(0, query));
    metrics.requestDuration.observe({ method, route, status: String(status) }, seconds);
    if (requestLogger.isLevelEnabled("info")) {
      // Signed links (/i/<token>, invitations, certificates …) are logged without their secret; never a query.
      const path = redactPath(url);
      requestLogger.info({ requestId: id, method, route, path, status, durationMs: Math.round(seconds * 10_000) / 10, userId }, "request");
    }
  };
  return {
    id(req) {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    },
    track(req, res, id, started) {
      // Read now: express rewrites req.url inside mounted middleware (e.g. /assets).
      const url = req.url ?? "/";
      const entry: TrackedRequest = { id, fields: {} };
      tracked.set(req, entry);
      res.setHeader("X-Request-Id", id);
      res.once("close", () =>
        finish(req.method ?? "GET", url, res.writableFinished ? res.statusCode : 499, id, started, entry.fields.userId),
      );
    },
    written(req, status, id, started) {
      finish(req.method ?? "GET", req.url ?? "/", status, id, started);
    },
  };
}
