/**
 * Running in production (docs/product.md#operations), against the compiled server
 * (`build/server/main.js`) on a database of its own: the request log (JSON, request id echoed
 * as X-Request-Id, the signed-in user's id, no secrets), /healthz and /readyz, /metrics behind
 * its token, configuration errors that never print secret values, and graceful shutdown —
 * SIGTERM while slow requests are in flight lets them complete, /readyz turns 503, the exit
 * code is 0; requests still running at the deadline are cut off and the exit code is 1.
 */
import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";
import { runPgUrl, startAppServer } from "./global-setup";
import { createPgDatabase } from "../helpers/test-database";
import { PASSWORD, expect, test, uniqueEmail, uniqueIp } from "./fixtures";
import type { AppProcess } from "../helpers/app-server";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

/** A fresh, empty PostgreSQL database for one app instance (the app migrates it at start). */
function freshDatabase(label: string) {
  return createPgDatabase(runPgUrl(), `e2e_ops_${label}`, { empty: true });
}

/** The process's log lines that are JSON objects. */
function logLines(app: AppProcess): Record<string, unknown>[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits for the child's exit; returns its code. */
function exitOf(app: AppProcess): Promise<number | null> {
  if (app.child.exitCode !== null) return Promise.resolve(app.child.exitCode);
  return new Promise((resolve) => app.child.once("exit", (code) => resolve(code)));
}

/**
 * Opens a raw connection and starts a POST whose body arrives in two halves: the request is in
 * flight until {@link SlowRequest.finish} sends the rest.
 */
async function slowPost(baseUrl: string, path: string) {
  const { port } = new URL(baseUrl);
  const socket = net.connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = "";
  socket.on("data", (d) => (received += d));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const body = "user_name=Slow+Sender&user_email=slow%40example.com&message=" + "x".repeat(200);
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${body.length}\r\nX-Forwarded-For: ${uniqueIp()}\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    /** Sends the rest of the body, then (pipelined on the same connection) more raw requests. */
    finish(after = "") {
      socket.write(body.slice(half) + after);
    },
    /** Everything the server wrote before it closed the connection. */
    async response(): Promise<string> {
      await closed;
      return received;
    },
    destroy: () => socket.destroy(),
  };
}

test.describe("operations", () => {
  test("request log, probes, metrics and graceful shutdown with requests in flight", async () => {
    test.setTimeout(90_000);
    const db = await freshDatabase("main");
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, db.name),
      DATABASE_URL: db.url,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      METRICS_TOKEN,
      SHUTDOWN_TIMEOUT_MS: "15000",
    });
    try {
      // Probes answer their status only.
      const health = await fetch(`${app.baseUrl}/healthz`);
      expect(await health.json()).toEqual({ status: "ok" });
      expect(await (await fetch(`${app.baseUrl}/readyz`)).json()).toEqual({ status: "ok" });

      // /metrics: refused without the token and with a wrong one; Prometheus text with it.
      expect((await fetch(`${app.baseUrl}/metrics`)).status).toBe(401);
      expect((await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789abcdef" } })).status).toBe(
        401,
      );
      expect((await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: METRICS_TOKEN } })).status).toBe(401);

      // A signed-in request: its log line carries the user's id and the X-Request-Id.
      const ip = uniqueIp();
      const api = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": ip } });
      const email = uniqueEmail("ops");
      await api.post(`${app.baseUrl}/register`, { form: { businessName: "Ops Co", email, phone: "1", password: PASSWORD } });
      const dashboard = await api.get(`${app.baseUrl}/client-dashboard`);
      expect(dashboard.status()).toBe(200);
      const requestId = dashboard.headers()["x-request-id"];
      expect(requestId).toMatch(/^[\w-]{36}$/);
      await api.dispose();
      // A prerendered page, answered before express, is logged and measured the same way.
      const home = await fetch(`${app.baseUrl}/about`);
      expect(home.status).toBe(200);
      const homeRequestId = home.headers.get("x-request-id");
      expect(homeRequestId).toMatch(/^[\w-]{36}$/);
      const metrics = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="routes\/client\/dashboard",status="200"\} [1-9]/);
      expect(text).toMatch(/outbox_mails\{state="pending"\} \d+/);
      expect(text).toMatch(/outbox_mails\{state="failed"\} 0/);
      // The job queue (ADR 019): the sign-up's verification mail is a job of the `mail` queue.
      expect(text).toMatch(/jobs\{queue="mail",state="(created|active|completed)"\} [1-9]/);
      expect(text).toMatch(/db_pool_connections\{state="total"\} \d+/);

      await expect.poll(() => logLines(app).find((l) => l.requestId === requestId)).toBeTruthy();
      const line = logLines(app).find((l) => l.requestId === requestId)!;
      expect(line).toMatchObject({ level: "info", msg: "request", method: "GET", route: "routes/client/dashboard", status: 200 });
      expect(line.userId).toMatch(/\S+/);
      await expect
        .poll(() => logLines(app).find((l) => l.requestId === homeRequestId))
        .toMatchObject({
          msg: "request",
          method: "GET",
          path: "/about",
          route: "routes/site/about",
          status: 200,
        });
      expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="routes\/site\/about",status="200"\} [1-9]/);
      expect(typeof line.durationMs).toBe("number");
      // The register POST's password, the session cookie and the secrets are nowhere in the log.
      const output = app.output();
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain("e2e-secret-e2e-secret");
      expect(output).not.toContain("admin-e2e-password");
      expect(output).not.toContain(METRICS_TOKEN);
      expect(output).not.toMatch(/session_token=/);

      // Two slow uploads in flight, then SIGTERM.
      const first = await slowPost(app.baseUrl, "/contact");
      const second = await slowPost(app.baseUrl, "/contact");
      await new Promise((r) => setTimeout(r, 300));
      app.child.kill("SIGTERM");
      await expect.poll(() => app.output()).toMatch(/"msg":"shutting down/);
      // New connections are refused from now on …
      await expect
        .poll(async () =>
          fetch(`${app.baseUrl}/healthz`).then(
            () => "answered",
            () => "refused",
          ),
        )
        .toBe("refused");
      // … but the requests in flight complete, and a request pipelined on a busy connection sees /readyz 503.
      first.finish(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      second.finish();
      const [firstResponse, secondResponse] = await Promise.all([first.response(), second.response()]);
      // Answered in full (whatever the form's verdict), not cut off.
      expect(firstResponse).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(secondResponse).toMatch(/^HTTP\/1\.1 \d{3} [\s\S]*\r\n\r\n/);
      expect(firstResponse).toMatch(/HTTP\/1\.1 503 Service Unavailable[\s\S]*\{"status":"stopping"\}/);
      expect(await exitOf(app)).toBe(0);
      expect(app.output()).toMatch(/"exitCode":0,"msg":"stopped"/);
    } finally {
      await app.stop("SIGKILL");
      await db.drop();
    }
  });

  test("a request still running at the shutdown deadline is cut off and the exit code is 1", async () => {
    test.setTimeout(60_000);
    const db = await freshDatabase("deadline");
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, db.name),
      DATABASE_URL: db.url,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      SHUTDOWN_TIMEOUT_MS: "800",
    });
    try {
      const stuck = await slowPost(app.baseUrl, "/contact");
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      app.child.kill("SIGTERM");
      expect(await exitOf(app)).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
      expect(await stuck.response()).toBe("");
      expect(app.output()).toMatch(/shutdown deadline reached/);
    } finally {
      await app.stop("SIGKILL");
      await db.drop();
    }
  });

  test("with WEB_CONCURRENCY=2 the cluster primary passes SIGTERM on and exits 1 when a server process hit its deadline", async () => {
    test.setTimeout(90_000);
    const db = await freshDatabase("cluster");
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, db.name),
      DATABASE_URL: db.url,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      WEB_CONCURRENCY: "2",
      SHUTDOWN_TIMEOUT_MS: "800",
    });
    try {
      await expect
        .poll(() => logLines(app).filter((l) => l.msg?.toString().startsWith("server listening")).length, { timeout: 30_000 })
        .toBe(2);
      const stuck = await slowPost(app.baseUrl, "/contact");
      await new Promise((r) => setTimeout(r, 200));
      app.child.kill("SIGTERM");
      expect(await exitOf(app)).toBe(1);
      expect(await stuck.response()).toBe("");
      expect(app.output()).toMatch(/SIGTERM received: stopping the server processes/);
      expect(app.output()).toMatch(/shutdown deadline reached/);
      // Both server processes stopped: one cut off its request (1), the other had none (0).
      await expect
        .poll(() =>
          logLines(app)
            .filter((l) => l.msg === "stopped")
            .map((l) => l.exitCode),
        )
        .toEqual(expect.arrayContaining([0, 1]));
    } finally {
      await app.stop("SIGKILL");
      await db.drop();
    }
  });

  test("a configuration error names the variable and never prints the secret value", () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["build/server/main.js"], {
        env: { ...process.env, NODE_ENV: "production", PORT: "0", DATA_DIR: path.join(process.env.E2E_TMP!, "bad-config"), ...env },
        encoding: "utf8",
        timeout: 30_000,
      });
    const cases: [Record<string, string>, string, string][] = [
      [{ BETTER_AUTH_SECRET: "hunter2-too-short" }, "BETTER_AUTH_SECRET", "hunter2-too-short"],
      [{ DATABASE_URL: "mysql://app:pg-pass-s3cret@db.example.com/app" }, "DATABASE_URL", "pg-pass-s3cret"],
      [{ SMTP_URL: "http://mailer:smtp-pass-s3cret@mail.example.com" }, "SMTP_URL", "smtp-pass-s3cret"],
      [{ METRICS_TOKEN: "short-tok3n" }, "METRICS_TOKEN", "short-tok3n"],
      [{ ADMIN_PASSWORD: "abc12" }, "ADMIN_PASSWORD", "abc12"],
    ];
    for (const [env, variable, secret] of cases) {
      const result = run(env);
      const output = result.stdout + result.stderr;
      expect(result.status, output).toBe(1);
      expect(output).toContain(`Invalid configuration: ${variable}:`);
      expect(output).not.toContain(secret);
    }
  });
});
