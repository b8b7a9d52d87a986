/**
 * Issue #36: while the database cannot be reached, writes (and pages) answer 503 with
 * `Retry-After` — as /healthz does — never a 500; once it is back, the same post is saved once.
 * The built server reaches PostgreSQL through a TCP proxy of this test, which is cut (every
 * connection dropped, new ones refused) and then restored.
 */
import net from "node:net";
import { expect, test, uniqueEmail, uniqueIp } from "./fixtures";
import { runPgUrl, startAppServer } from "./global-setup";
import type { AppProcess } from "../helpers/app-server";
import { createPgDatabase, testPool, type CreatedPgDatabase } from "../helpers/test-database";

/** A TCP proxy to PostgreSQL that can be cut and restored. */
async function pgProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** Stops listening (new connections are refused) and drops every open connection. */
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
    restore: () => listen(port),
  };
}

let database: CreatedPgDatabase;
let app: AppProcess;
let proxy: Awaited<ReturnType<typeof pgProxy>>;

test.beforeAll(async () => {
  // A budget for a start on a busy machine (it took 85 s under a load of 30).
  test.setTimeout(300_000);
  database = await createPgDatabase(runPgUrl(), "e2e_outage");
  const url = new URL(database.url);
  proxy = await pgProxy(url);
  const proxied = new URL(database.url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  app = await startAppServer(
    {
      DATABASE_URL: proxied.href,
      DATA_DIR: `${process.env.E2E_TMP}/${database.name}`,
      SMTP_URL: process.env.E2E_SMTP_URL ?? "",
    },
    { startTimeoutMs: 240_000 },
  );
});
test.afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await app?.stop();
  await database?.drop();
});

/** A no-JavaScript contact form post. */
function postContact(email: string) {
  return fetch(`${app.baseUrl}/contact`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
    body: new URLSearchParams({ user_name: "Outage Test", user_email: email, message: "Sent while the database was down." }),
    redirect: "manual",
  });
}

test("writes answer 503 with Retry-After while the database is down, and succeed once it is back", async () => {
  const email = uniqueEmail("outage");
  await proxy.cut();

  const health = await fetch(`${app.baseUrl}/healthz`);
  expect(health.status).toBe(503);
  expect(health.headers.get("retry-after")).toMatch(/^\d+$/);

  const contact = await postContact(email);
  expect(contact.status).toBe(503);
  expect(contact.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(await contact.text()).toContain("Nothing was saved");

  // Single-fetch form posts (with JavaScript) and sign-in too.
  const dataPost = await fetch(`${app.baseUrl}/contact.data`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
    body: new URLSearchParams({ user_name: "Outage Test", user_email: email, message: "Sent while the database was down." }),
  });
  expect(dataPost.status).toBe(503);
  expect(dataPost.headers.get("retry-after")).toMatch(/^\d+$/);
  const login = await fetch(`${app.baseUrl}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
    body: new URLSearchParams({ email, password: "whatever-password" }),
    redirect: "manual",
  });
  expect(login.status).toBe(503);
  expect(login.headers.get("retry-after")).toMatch(/^\d+$/);
  // A page that reads the database.
  const page = await fetch(`${app.baseUrl}/client-dashboard`, {
    headers: { cookie: "better-auth.session_token=abc.def" },
    redirect: "manual",
  });
  expect([302, 503]).toContain(page.status);
  if (page.status === 503) expect(page.headers.get("retry-after")).toMatch(/^\d+$/);

  const log = app.output();
  expect(log).not.toMatch(/"status":5(?!03)\d\d/);

  await proxy.restore();
  await expect.poll(async () => (await fetch(`${app.baseUrl}/healthz`)).status, { timeout: 30_000 }).toBe(200);
  const saved = await postContact(email);
  expect(saved.status).toBe(200);
  const sql = testPool(database.url);
  try {
    const { rows } = await sql.query("select count(*)::int as n from contact_message where user_email = $1", [email]);
    expect(rows[0].n).toBe(1);
  } finally {
    await sql.end();
  }
  expect(app.child.exitCode).toBeNull();
});
