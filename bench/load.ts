/**
 * Load: 200 concurrent connections for 60 s of mixed traffic against the
 * production build — public pages, the client dashboard and project status of signed-in
 * clients, proposal requests and meeting bookings (free slots read from the booking page) — on PGlite and on PostgreSQL. Checks
 * that no response is ≥ 500 and that every acknowledged write is in the database.
 * Writes bench/results/load.md; exits 1 on a 5xx or a lost write.
 *
 *   npm run build && npx tsx bench/load.ts            # LOAD_SECONDS=60 LOAD_CONNECTIONS=200 by default
 */
import autocannon from "autocannon";
import { startApp, stopAndRead, trialStorage, writeResults } from "./lib/server";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
const CLIENTS = 20;
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Outcome {
  driver: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  byStatus: Record<string, number>;
  acked: { proposals: number; meetings: number };
  stored: { proposals: number; meetings: number };
  lost: number;
}

async function signUp(baseUrl: string, i: number, run: string): Promise<string> {
  const response = await fetch(`${baseUrl}/register`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `load-${run}-${i}` },
    body: new URLSearchParams({
      businessName: `Load Client ${i}`,
      email: `load-${run}-${i}@example.com`,
      phone: "301 555 0100",
      password: "load-pass-1",
    }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`sign-up ${i} failed: ${response.status}`);
  return cookie;
}

/** The free slots the booking page offers (its no-JavaScript radio buttons), over its first days. */
async function freeSlotsOf(baseUrl: string, cookie: string): Promise<string[]> {
  const page = (day = "") => fetch(`${baseUrl}/meetings/book${day ? `?day=${day}` : ""}`, { headers: { cookie } }).then((r) => r.text());
  const first = await page();
  const days = [...new Set([...first.matchAll(/day=(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]!))].slice(0, 10);
  const pages = [first, ...(await Promise.all(days.map(page)))];
  const slots = new Set(pages.flatMap((html) => [...html.matchAll(/name="slot"[^>]*value="([^"]+)"/g)].map((m) => m[1]!)));
  if (slots.size === 0) throw new Error("the booking page offered no free slot");
  return [...slots];
}

async function run(driver: "pglite" | "postgres"): Promise<Outcome> {
  const runId = `${driver}${Date.now()}`;
  const storage = await trialStorage(driver, "load", PG_URL);
  const app = await startApp(storage.env);
  await new Promise((r) => setTimeout(r, 1_500));
  const cookies = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => signUp(app.baseUrl, i, runId)));

  const slots = await freeSlotsOf(app.baseUrl, cookies[0]!);
  let seq = 0;
  const ackedProposals = new Set<string>();
  const ackedMeetings = new Set<string>();
  const byStatus: Record<string, number> = {};
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const pick = () => cookies[seq++ % CLIENTS]!;
  /** A signed-in form post carrying a unique marker, which is noted in `acked` when the answer is 200. */
  const markedPost = (
    kind: string,
    path: string,
    acked: Set<string>,
    fields: (marker: string) => Record<string, string>,
  ): autocannon.Request => ({
    method: "POST",
    setupRequest: (req, context) => {
      const marker = `load-${kind}-${runId}-${seq++}`;
      (context as { marker?: string }).marker = marker;
      return { ...req, path, headers: { ...form, cookie: pick() }, body: new URLSearchParams(fields(marker)).toString() };
    },
    onResponse: (status, _body, context) => {
      // A form answers 200 with its page, or redirects (a booking goes to /meetings).
      if (status === 200 || status === 302 || status === 303) acked.add((context as { marker: string }).marker);
    },
  });
  const requests: autocannon.Request[] = [
    { method: "GET", path: "/" },
    { method: "GET", path: "/project3" },
    { method: "GET", setupRequest: (req) => ({ ...req, path: "/client-dashboard", headers: { cookie: pick() } }) },
    { method: "GET", setupRequest: (req) => ({ ...req, path: "/project-status", headers: { cookie: pick() } }) },
    markedPost("proposal", "/proposal-request", ackedProposals, (marker) => ({
      projectName: marker,
      projectDetails: "Load test proposal",
      budget: "$1,500",
    })),
    // A booking takes one of the agency's free slots (docs/product.md#meetings-scheduling): each
    // slot once; when they run out, the refusals are 409s, not errors.
    markedPost("meeting", "/meetings/book", ackedMeetings, (marker) => ({
      slot: slots[seq % slots.length] ?? "",
      timeZone: "America/New_York",
      notes: marker,
    })),
  ];
  const instance = autocannon({
    url: app.baseUrl,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests,
    timeout: 30,
  }) as unknown as Promise<autocannon.Result> & import("node:events").EventEmitter;
  instance.on("response", (_client: unknown, statusCode: number) => {
    byStatus[statusCode] = (byStatus[statusCode] ?? 0) + 1;
  });
  const result = await instance;

  const [proposals, meetings] = (await stopAndRead(app, storage, [
    "select project_name as v from proposal",
    "select notes as v from meeting",
  ])) as [string[], string[]];
  const storedP = new Set(proposals);
  const storedM = new Set(meetings);
  const lost = [...ackedProposals].filter((m) => !storedP.has(m)).length + [...ackedMeetings].filter((m) => !storedM.has(m)).length;
  return {
    driver,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p95: (result.latency as unknown as Record<string, number>).p97_5 ?? result.latency.p99,
    p99: result.latency.p99,
    byStatus: {
      ...byStatus,
      ...(result.errors ? { errors: result.errors } : {}),
      ...(result.timeouts ? { timeouts: result.timeouts } : {}),
    },
    acked: { proposals: ackedProposals.size, meetings: ackedMeetings.size },
    stored: { proposals: proposals.length, meetings: meetings.length },
    lost,
  };
}

async function main() {
  const outcomes: Outcome[] = [];
  for (const driver of ["pglite", "postgres"] as const) {
    const outcome = await run(driver);
    console.log(JSON.stringify(outcome));
    outcomes.push(outcome);
  }
  const fivexx = (o: Outcome) =>
    Object.entries(o.byStatus)
      .filter(([s]) => Number(s) >= 500)
      .reduce((n, [, c]) => n + c, 0);
  const file = writeResults(
    "load",
    "Load: mixed traffic, 200 connections",
    `LOAD_SECONDS=${SECONDS} LOAD_CONNECTIONS=${CONNECTIONS} npx tsx bench/load.ts`,
    `${CONNECTIONS} concurrent connections for ${SECONDS} s against the production build (autocannon, same machine). Each connection cycles through: GET /, GET /project3, GET /client-dashboard and GET /project-status as one of ${CLIENTS} signed-in clients, POST /proposal-request, POST /meetings/book (one of the free slots; once they are taken the refusals are 409s). Afterwards every acknowledged (HTTP 200 or a redirect) write is looked up in the database.

| database | requests | req/s | p50 ms | p97.5 ms | p99 ms | statuses | ≥ 500 | proposals acked / stored | meetings acked / stored | acknowledged but missing |
|---|---|---|---|---|---|---|---|---|---|---|
${outcomes
  .map(
    (o) =>
      `| ${o.driver} | ${o.requests} | ${o.rps.toFixed(0)} | ${o.p50} | ${o.p95} | ${o.p99} | ${Object.entries(o.byStatus)
        .map(([s, c]) => `${s}: ${c}`)
        .join(
          ", ",
        )} | **${fivexx(o)}** | ${o.acked.proposals} / ${o.stored.proposals} | ${o.acked.meetings} / ${o.stored.meetings} | **${o.lost}** |`,
  )
  .join("\n")}
`,
  );
  console.log(`wrote ${file}`);
  if (outcomes.some((o) => fivexx(o) > 0 || o.lost > 0 || o.acked.proposals === 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
