/**
 * A time-boxed fuzz of the built server (issue #28): every route of app/routes.ts — pages with
 * their form actions and resource routes — gets generated requests for 60 seconds in all (fast-check,
 * fixed seed, printed on failure; `FUZZ_SEED` replays one): sparse and huge indices, hundreds of
 * repeated fields, huge fields, NUL and invalid UTF-8, wrong and missing content types, odd
 * methods, malformed paths and Host headers, as a visitor and as a signed-in client. It fails on any
 * 5xx and on the server going away (/healthz must answer 200 after). Runs last and alone.
 */
import http from "node:http";
import fc from "fast-check";
import { expect, registerClient, test, uniqueIp } from "./fixtures";
import { configuredRoutes } from "./route-config";

const SEED = Number(process.env.FUZZ_SEED ?? 28_2026);
const BUDGET_MS = 60_000;

/** The intents the app's forms post (a sample: unknown ones are part of the fuzz too). */
const INTENTS = [
  "profile",
  "preferences",
  "change-email",
  "change-password",
  "revoke-session",
  "revoke-other-sessions",
  "start-two-factor",
  "confirm-two-factor",
  "cancel-two-factor",
  "disable-two-factor",
  "rename-passkey",
  "remove-passkey",
  "download-data",
  "close-account",
  "verify",
  "not-me",
  "resend",
  "delete-proposal",
  "submit-revision",
  "approve-proposal",
  "decline-proposal",
  "delete-meeting",
  "schedule-meeting",
  "set-status",
  "undo-status",
  "handled",
  "unhandled",
  "delete-message",
  "upload-logo",
  "remove-logo",
];

interface RawRequest {
  method: string;
  path: string;
  host: string;
  contentType: string | null;
  body: Buffer;
}

const idLike = fc.oneof(
  fc.constantFrom("1", "0", "-1", "2147483648", "99999999999999999999", "1e3", "%ff", "..%2f..%2fetc", "%00", "abc", ""),
  fc.integer({ min: 1, max: 50 }).map(String),
);

const path = fc
  .tuple(
    fc.constantFrom(...configuredRoutes.map((r) => r.path)),
    idLike,
    fc.constantFrom("", "?index", "?x=%ff", "?a[100000000]=1", "?q=%00", "/%ff", "%C0%AE"),
  )
  .map(([pattern, id, suffix]) => pattern.replace(/:[A-Za-z]+/g, id).replace("*", "x") + suffix);

const fieldName = fc.oneof(
  fc.constantFrom(
    "intent",
    "id",
    "email",
    "password",
    "code",
    "token",
    "confirm",
    "proposalId",
    "status",
    "notes",
    "name",
    "q",
    "messageId",
    "logo",
  ),
  fc.constantFrom("x[100000000]", "a[0][1][2][3][4][5]", "__proto__", "constructor[prototype][x]", "items[3].amount", "é\u0000", ""),
  fc.string({ maxLength: 12 }),
);
const fieldValue = fc.oneof(
  fc.constantFrom(...INTENTS, "yes", "on", "", "\u0000", "%ff", "1".repeat(70_000)),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
);

const formBody = fc.oneof(
  fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 12 }).map((pairs) => Buffer.from(new URLSearchParams(pairs).toString())),
  fc
    .tuple(fieldName, fieldValue, fc.integer({ min: 100, max: 600 }))
    .map(([n, v, count]) =>
      Buffer.from(Array.from({ length: count }, () => `${encodeURIComponent(n)}=${encodeURIComponent(v.slice(0, 20))}`).join("&")),
    ),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)), // invalid UTF-8, NUL, anything
  fc.constantFrom(Buffer.from("intent=%ff%fe&x=%"), Buffer.from('{"intent":"profile"}'), Buffer.from("--x\r\nbroken"), Buffer.alloc(0)),
);

const request = fc.record({
  method: fc.constantFrom("GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND"),
  path,
  host: fc.oneof(fc.constant(""), fc.constantFrom("a b", "[::1", "localhost:99999", "%ff", "exa mple", "xn--", "")),
  contentType: fc.constantFrom(
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "multipart/form-data",
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded; charset=utf-16",
    null,
  ),
  body: formBody,
}) as fc.Arbitrary<RawRequest>;

/** Sends one request as it is (no Host fixing, any method, any bytes). */
function send(base: URL, r: RawRequest, cookie: string, ip: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: r.host || base.host, "x-forwarded-for": ip };
    if (cookie) headers.cookie = cookie;
    if (r.contentType) headers["content-type"] = r.contentType;
    if (r.method !== "GET" && r.method !== "HEAD") headers["content-length"] = String(r.body.length);
    const req = http.request({ host: base.hostname, port: base.port, method: r.method, path: r.path, headers, setHost: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer in 20 s: ${r.method} ${r.path}`)));
    req.on("error", reject);
    if (r.method !== "GET" && r.method !== "HEAD") req.write(r.body);
    req.end();
  });
}

test.describe.configure({ mode: "serial" });

test(`fuzz: every route answers generated requests without a 5xx for ${BUDGET_MS / 1000} s (seed ${SEED})`, async ({ page, baseURL }) => {
  test.setTimeout(BUDGET_MS * 3);
  const base = new URL(baseURL!);
  await registerClient(page);
  const clientCookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const identities = [{ cookie: "" }, { cookie: clientCookie }];
  let sent = 0;
  const started = Date.now();
  try {
    await fc.assert(
      fc.asyncProperty(request, fc.nat(identities.length - 1), async (r, who) => {
        const status = await send(base, r, identities[who]!.cookie, uniqueIp());
        sent += 1;
        expect(status, `${r.method} ${r.path} (Host ${JSON.stringify(r.host)}, ${r.contentType})`).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: 1_000_000, interruptAfterTimeLimit: BUDGET_MS, markInterruptAsFailure: false, endOnFailure: true },
    );
  } catch (error) {
    throw new Error(`fuzz failed (replay with FUZZ_SEED=${SEED}): ${(error as Error).message}`, { cause: error });
  }
  console.log(`fuzz: ${sent} requests in ${Math.round((Date.now() - started) / 1000)} s, seed ${SEED}`);
  expect(sent).toBeGreaterThan(50);
  // The server is still there, and still the same: its health check answers.
  const health = await page.request.get("/healthz");
  expect(health.status()).toBe(200);
});
