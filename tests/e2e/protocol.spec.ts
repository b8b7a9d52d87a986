/**
 * The HTTP protocol findings of issue #36 ("Hostile input and abuse"), against the built server
 * on an instance of its own, over raw sockets where a client library would correct the request:
 * - the request log never holds the secret of a signed link (`/i/<token>`, invitations,
 *   certificates, data exports) nor a query (reset, verification and confirmation tokens);
 * - an absolute-form request target (`GET http://host/login HTTP/1.1`) is answered as its path,
 *   or 400 when it names another host — never a 500;
 * - a client that dribbles its headers is answered 408 and cut off once HTTP_HEADERS_TIMEOUT_MS
 *   has passed (a short budget here), a silent connection too.
 */
import net from "node:net";
import { expect, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

/** The instance's header budget: short, so that the test waits seconds, not a minute. */
const HEADERS_TIMEOUT_MS = 1_500;
/** How long past the budget a connection may stay open: the server looks every second; the rest is slack for a busy machine (a hang budget, not a speed check). */
const CUT_OFF_SLACK_MS = 6_000;

let app: Awaited<ReturnType<typeof startIsolatedApp>>;

test.beforeAll(async () => {
  // A budget for a start on a busy machine (it took 85 s under a load of 30).
  test.setTimeout(300_000);
  app = await startIsolatedApp(
    "protocol",
    { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: "10000", LOG_LEVEL: "info" },
    { startTimeoutMs: 240_000 },
  );
});
test.afterAll(async () => app?.stop());

/** The server's port. */
const port = () => Number(new URL(app.baseUrl).port);

/**
 * Writes `raw` on a fresh connection and reads until the server closes it.
 *
 * @returns the answer's status (0 when none) and text.
 */
function rawRequest(raw: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port(), "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.write(raw);
  });
}

/** The request log lines (JSON) the instance wrote so far. */
function requestLines(): Array<{ msg: string; path?: string; status?: number; method?: string }> {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg: string; path?: string; status?: number })
    .filter((line) => line.msg === "request");
}

test("the request log redacts the secret of every signed link and never holds a query", async () => {
  const secrets = {
    invoice: "invoice-link-secret-7Qx2",
    invitation: "invitation-secret-9Lm4",
    certificate: "certificate-secret-3Kp8",
    exportLink: "export-secret-5Rt1",
    reset: "reset-secret-2Wv6",
    verify: "verify-secret-8Zb3",
    confirm: "confirm-secret-4Hn7",
  };
  const paths = [
    `/i/${secrets.invoice}`,
    `/i/${secrets.invoice}/pdf`,
    `/i/${secrets.invoice}.data`,
    `/invitations/${secrets.invitation}`,
    `/verify/${secrets.certificate}`,
    `/proposals/1/certificate/${secrets.certificate}`,
    `/admin/proposals/1/certificate/${secrets.certificate}`,
    `/account/my-data/${secrets.exportLink}`,
    `/reset-password?token=${secrets.reset}`,
    `/verify-email?token=${secrets.verify}`,
    `/account/confirm-email?token=${secrets.confirm}`,
  ];
  for (const path of paths) {
    const response = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
    expect(response.status, path).toBeLessThan(500);
    await response.arrayBuffer();
  }
  // The absolute form too (raw socket: fetch would send the origin form).
  await rawRequest(
    `GET http://127.0.0.1:${port()}/i/${secrets.invoice} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nConnection: close\r\n\r\n`,
  );

  await expect
    .poll(() => requestLines().filter((line) => line.path?.includes("[redacted]")).length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(9);
  const log = app.output();
  for (const [name, secret] of Object.entries(secrets)) expect(log, `${name} secret in the log`).not.toContain(secret);
  const logged = new Set(requestLines().map((line) => line.path));
  for (const path of [
    "/i/[redacted]",
    "/i/[redacted]/pdf",
    "/i/[redacted].data",
    "/invitations/[redacted]",
    "/verify/[redacted]",
    "/proposals/1/certificate/[redacted]",
    "/admin/proposals/1/certificate/[redacted]",
    "/account/my-data/[redacted]",
    "/reset-password",
    "/verify-email",
    "/account/confirm-email",
  ]) {
    expect(logged, path).toContain(path);
  }
});

test("an absolute-form request target is answered as its path, or 400 for another host — never a 500", async () => {
  const host = `127.0.0.1:${port()}`;
  const get = (target: string, hostHeader = host, method = "GET") =>
    rawRequest(`${method} ${target} HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`);

  for (const [path, status] of [
    ["/login", 200],
    ["/about", 200],
    ["/register", 200],
    ["/forgot-password", 200],
    ["/no-such-page", 404],
    ["/admin", 302],
    ["/healthz", 200],
  ] as const) {
    const origin = await get(path);
    const absolute = await get(`http://${host}${path}`);
    expect(absolute.status, `absolute ${path}`).toBe(status);
    expect(origin.status, `origin ${path}`).toBe(status);
  }
  // The target's host wins over the Host header (RFC 9112), here the site's own (BETTER_AUTH_URL).
  expect((await get(`http://${host}/login`, "other.example")).status).toBe(200);
  // A page read through the absolute form is the same page.
  const page = await get(`http://${host}/login?next=%2Fadmin`);
  expect(page.text).toContain("<form");
  // This server is no proxy.
  for (const target of ["http://evil.example/login", `http://user:pw@${host}/login`, "ftp://127.0.0.1/login", "login"]) {
    const refused = await get(target);
    expect(refused.status, target).toBe(400);
    expect(refused.text).not.toContain("evil.example");
  }
  // A form post in absolute form reaches the action (400 for the missing fields, not a 500).
  const post = await rawRequest(
    `POST http://${host}/contact HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
  expect(post.status).toBeGreaterThanOrEqual(400);
  expect(post.status).toBeLessThan(500);
  expect(requestLines().filter((line) => (line.status ?? 0) >= 500)).toEqual([]);
});

/**
 * Opens a connection that sends `head` and then one byte of `dribble` every 200 ms, and waits for the server to close it.
 *
 * @returns how long the connection stayed open (ms) and what the server answered.
 */
function slowClient(head: string, dribble: string): Promise<{ openMs: number; text: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port(), "127.0.0.1");
    let text = "";
    let i = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed && dribble) socket.write(dribble[i++ % dribble.length]!);
    }, 200);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ openMs: Date.now() - started, text });
    });
    if (head) socket.write(head);
    // Never hang the test: a connection still open after a minute is the finding itself.
    setTimeout(() => socket.destroy(), 60_000).unref();
  });
}

test("a client dribbling its headers, or silent, is answered 408 and cut off within the header budget", async () => {
  const budget = HEADERS_TIMEOUT_MS + CUT_OFF_SLACK_MS;
  const [dribbling, fromTheStart, silent] = await Promise.all([
    slowClient(`GET /login HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\n`, "X-Slow: aaaaaaaa\r\n"),
    slowClient("", "GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaa\r\n"),
    slowClient("", ""),
  ]);
  for (const [name, client] of Object.entries({ dribbling, fromTheStart, silent })) {
    expect(client.openMs, name).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(client.openMs, name).toBeLessThan(budget);
  }
  expect(dribbling.text).toMatch(/^HTTP\/1\.1 408/);
  // The server still answers.
  expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
});
