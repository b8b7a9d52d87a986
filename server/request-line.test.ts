/**
 * The requests of issue #28 that answered 500 (logged at error with a stack) answer 400, TRACE
 * 405 — checked on the real server's request listener order: the refusal is decided before the
 * page cache, express or React Router look at the request.
 */
import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidHost, normaliseTarget, requestLineRefusal, writeRefusal } from "./request-line";

const fake = (method: string, url: string, host: string | undefined, forwarded?: string) =>
  ({ method, url, headers: { host, ...(forwarded ? { "x-forwarded-host": forwarded } : {}) } }) as unknown as IncomingMessage;

describe("request line checks", () => {
  it.each(["/%ff", "/about/%ff", "/view-invoice/%C0%AE", "/%00", "/a%E0%A4%A"])("refuses the path %s with 400", (path) => {
    expect(requestLineRefusal(fake("GET", path, "localhost"))?.status).toBe(400);
    expect(requestLineRefusal(fake("POST", path, "localhost"))?.status).toBe(400);
  });

  it.each(["a b", "[::1", "localhost:99999", "", "%ff", "exa mple", "xn--", "localhost:0", "host/x", "a..b"])(
    "refuses the Host header %j with 400",
    (host) => {
      expect(isValidHost(host)).toBe(false);
      expect(requestLineRefusal(fake("GET", "/", host))?.status).toBe(400);
    },
  );

  it("refuses a missing Host, and a bad X-Forwarded-Host from a trusted proxy only", () => {
    expect(requestLineRefusal(fake("GET", "/", undefined))?.status).toBe(400);
    expect(requestLineRefusal(fake("GET", "/", "example.com", "exa mple"), true)?.status).toBe(400);
    expect(requestLineRefusal(fake("GET", "/", "example.com", "exa mple"), false)).toBeNull();
  });

  it("answers TRACE and TRACK with 405 and Allow", () => {
    for (const method of ["TRACE", "TRACK", "trace"]) {
      expect(requestLineRefusal(fake(method, "/", "localhost"))).toMatchObject({
        status: 405,
        headers: { Allow: expect.stringContaining("GET") },
      });
    }
  });

  it.each(["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:3000", "portal.example.com", "xn--bcher-kva.example", "example.com."])(
    "lets the Host %s through",
    (host) => expect(requestLineRefusal(fake("GET", "/about?q=%ff", host))).toBeNull(),
  );

  it("lets ordinary paths through, encoded ones included", () => {
    for (const path of ["/", "/about", "/view-invoice/12", "/search?q=caf%C3%A9", "/caf%C3%A9", "/a%20b"]) {
      expect(requestLineRefusal(fake("GET", path, "localhost"))).toBeNull();
    }
  });
});

describe("on a socket", () => {
  let port = 0;
  const server = createServer((req, res) => {
    const refusal = requestLineRefusal(req);
    if (refusal) return writeRefusal(res, refusal);
    res.end("ok");
  });
  beforeAll(
    () =>
      new Promise<void>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((port = (server.address() as AddressInfo).port) as never)),
      ),
  );
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (method: string, path: string, host: string) =>
    new Promise<{ status: number; allow?: string; body: string }>((resolve, reject) => {
      const req = request({ port, host: "127.0.0.1", method, path, setHost: false, headers: { host } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers 400/405 with a short text that echoes nothing", async () => {
    expect(await send("GET", "/%ff", "localhost")).toMatchObject({ status: 400 });
    expect(await send("POST", "/%ff", "localhost")).toMatchObject({ status: 400 });
    expect(await send("TRACE", "/", "localhost")).toMatchObject({ status: 405, allow: expect.any(String) });
    const bad = await send("GET", "/", "exa mple");
    expect(bad.status).toBe(400);
    expect(bad.body).not.toContain("exa mple");
    expect(await send("GET", "/", "localhost")).toMatchObject({ status: 200, body: "ok" });
  });
});

describe("absolute-form request targets (issue #36)", () => {
  const absolute = (url: string, host: string | undefined) =>
    ({ method: "GET", url, headers: { host } }) as unknown as IncomingMessage & { url: string };

  it("takes a target naming the request's own host as its path and query", () => {
    const req = absolute("http://localhost:3000/login?next=%2Fadmin", "localhost:3000");
    expect(normaliseTarget(req)).toBeNull();
    expect(req.url).toBe("/login?next=%2Fadmin");
    const bare = absolute("HTTP://LOCALHOST:3000", "localhost:3000");
    expect(normaliseTarget(bare)).toBeNull();
    expect(bare.url).toBe("/");
    const query = absolute("http://localhost:3000?x=1", "localhost:3000");
    expect(normaliseTarget(query)).toBeNull();
    expect(query.url).toBe("/?x=1");
  });

  it("takes the site's own host (BETTER_AUTH_URL) even under another Host header, which it replaces", () => {
    const req = absolute("https://portal.example.com/about", "10.0.0.5:3000");
    expect(normaliseTarget(req, ["portal.example.com"])).toBeNull();
    expect(req.url).toBe("/about");
    expect(req.headers.host).toBe("portal.example.com");
  });

  it.each([
    ["http://evil.example/login", "localhost:3000"],
    ["http://user:pw@localhost:3000/login", "localhost:3000"],
    ["ftp://localhost:3000/login", "localhost:3000"],
    ["http://local host/", "localhost"],
    ["login", "localhost"],
    ["http://localhost:99999/", "localhost:99999"],
  ])("refuses %s (Host %s) with 400", (url, host) => {
    const req = absolute(url, host);
    expect(normaliseTarget(req, ["portal.example.com"])?.status).toBe(400);
    expect(req.url).toBe(url);
  });

  it("leaves origin-form targets alone", () => {
    const req = absolute("/about", "localhost");
    expect(normaliseTarget(req)).toBeNull();
    expect(req.url).toBe("/about");
  });
});
