/**
 * Access matrix: every guarded route of the route config × {anonymous, client,
 * ambassador, admin, deactivated user} → the spec's redirect or the page; and a POST to each
 * guarded route as a wrong role is refused with no change in the database.
 *
 * Routes are enumerated from app/routes.ts, so a new guarded route cannot escape the matrix.
 */
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { ADMIN, PASSWORD, expect, test, uniqueEmail, uniqueIp } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { configuredRoutes, type ConfiguredRoute } from "./route-config";
import { openSse } from "../helpers/sse";

type Area = "client" | "ambassador" | "admin" | "account";
type Persona = "anonymous" | "client" | "ambassador" | "admin" | "deactivated";

const guarded = configuredRoutes
  .filter((r): r is ConfiguredRoute & { area: Area } => r.area !== undefined)
  .map(({ area, path }) => ({
    area,
    path: path
      .replace(/:proposalId/g, "1")
      .replace(/:invoiceId/g, "1")
      .replace(/:meetingId/g, "1")
      .replace(/:fileId/g, "1")
      .replace(/:certificateId/g, "unknown-certificate")
      // docs/product.md#reminders-admin: a record's reminders and "Send reminder now".
      .replace(/:recordKind/g, "invoice")
      .replace(/:recordId/g, "1")
      .replace(/:payoutId/g, "1"),
  }));

const HOME: Record<Exclude<Area, "account">, string> = {
  admin: "/admin",
  ambassador: "/ambassador/dashboard",
  client: "/client-dashboard",
};

function expected(persona: Persona, area: Area, path: string): { redirect: string } | { allowed: true } {
  if (persona === "anonymous" || persona === "deactivated") return { redirect: `/login?redirectTo=${encodeURIComponent(path)}` };
  if (persona === area || area === "account") return { allowed: true };
  return { redirect: HOME[persona] };
}

test.describe("access matrix", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  const contexts = {} as Record<Persona, APIRequestContext>;
  // An instance of its own: the write check compares whole tables, which other tests change.
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  test.beforeAll(async () => {
    app = await startIsolatedApp("access");
    const baseURL = app.baseUrl;
    const make = async () => playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    for (const persona of ["anonymous", "client", "ambassador", "admin", "deactivated"] as Persona[]) contexts[persona] = await make();
    const ok = (r: { url(): string }) => expect(new URL(r.url()).pathname).not.toBe("/login");
    ok(
      await contexts.client.post("/register", {
        form: { businessName: "Matrix Co", email: uniqueEmail("mx-client"), phone: "1", password: PASSWORD },
      }),
    );
    ok(
      await contexts.deactivated.post("/register", {
        form: { businessName: "Gone Co", email: uniqueEmail("mx-gone"), phone: "1", password: PASSWORD },
      }),
    );
    ok(
      await contexts.ambassador.post("/register/ambassador", {
        form: { name: "Mx", email: uniqueEmail("mx-amb"), phone: "1", password: PASSWORD, referralCode: `mx-${Date.now()}` },
      }),
    );
    ok(await contexts.admin.post("/login", { form: { email: ADMIN.email, password: ADMIN.password } }));
  });

  test.afterAll(async () => {
    for (const context of Object.values(contexts)) await context.dispose();
    await app.stop();
  });

  test("the route config has guarded routes in every area", () => {
    expect(guarded.filter((r) => r.area === "client").length).toBeGreaterThanOrEqual(5);
    expect(guarded.filter((r) => r.area === "ambassador").length).toBeGreaterThanOrEqual(3);
    expect(guarded.filter((r) => r.area === "admin").length).toBeGreaterThanOrEqual(8);
    expect(guarded.filter((r) => r.area === "account").length).toBeGreaterThanOrEqual(1);
  });

  test("GET: each persona gets the page or the spec's redirect", async () => {
    await app.sql.query(`update "user" set banned = true where email like 'mx-gone-%'`);
    const failures: string[] = [];
    for (const { area, path } of guarded) {
      for (const persona of Object.keys(contexts) as Persona[]) {
        const response = await contexts[persona].get(path, { maxRedirects: 0 });
        const want = expected(persona, area, path);
        const status = response.status();
        if ("redirect" in want) {
          if (status !== 302 || response.headers()["location"] !== want.redirect) {
            failures.push(`${persona} GET ${path}: ${status} ${response.headers()["location"] ?? ""}, want 302 ${want.redirect}`);
          }
        } else if (![200, 302, 404].includes(status) || (status === 302 && /^\/login/.test(response.headers()["location"] ?? ""))) {
          failures.push(`${persona} GET ${path}: ${status} ${response.headers()["location"] ?? ""}, want the page`);
        } else if (status === 302 && path !== "/ambassador") {
          failures.push(`${persona} GET ${path}: unexpected redirect to ${response.headers()["location"]}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test("the public certificate check: every persona gets the same 404 for an unknown id, never a redirect", async () => {
    // docs/product.md#certificates: /verify/:certificateId is public; a real one is checked in the next describe.
    for (const persona of Object.keys(contexts) as Persona[]) {
      const response = await contexts[persona].get("/verify/unknown-certificate-id", { maxRedirects: 0 });
      expect(response.status(), persona).toBe(404);
    }
  });

  test("the live-update stream and the inbound-mail and Stripe webhooks (outside the route config)", async () => {
    // docs/product.md#live-updates: a signed-in, active user gets a stream; anyone else 204 (do not reconnect).
    const failures: string[] = [];
    for (const persona of Object.keys(contexts) as Persona[]) {
      const cookie = (await contexts[persona].storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const stream = openSse(`${app.baseUrl}/events`, cookie ? { cookie } : {});
      const { status, headers } = await stream.status;
      stream.close();
      const want = persona === "anonymous" || persona === "deactivated" ? 204 : 200;
      if (status !== want) failures.push(`${persona} GET /events: ${status}, want ${want}`);
      if (want === 200 && headers["content-type"] !== "text/event-stream; charset=utf-8")
        failures.push(`${persona}: ${headers["content-type"]}`);
      const post = await contexts[persona].post("/events", { form: { x: "1" }, maxRedirects: 0 });
      if (post.status() !== 405) failures.push(`${persona} POST /events: ${post.status()}, want 405`);
      // docs/product.md#email-replies: off without INBOUND_WEBHOOK_TOKEN, whatever the session.
      const webhook = await contexts[persona].post("/webhooks/inbound-mail", { data: "From: a@b.c\r\n\r\nhi", maxRedirects: 0 });
      if (webhook.status() !== 404) failures.push(`${persona} POST /webhooks/inbound-mail: ${webhook.status()}, want 404`);
      // docs/product.md#card-payments: off without STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET, whatever the session.
      const stripeHook = await contexts[persona].post("/webhooks/stripe", { data: "{}", maxRedirects: 0 });
      if (stripeHook.status() !== 404) failures.push(`${persona} POST /webhooks/stripe: ${stripeHook.status()}, want 404`);
    }
    expect(failures).toEqual([]);
  });

  test("POST: a wrong role is redirected by the guard and nothing is written", async () => {
    const sql = app.sql;
    const snapshot = async () => {
      const tables = [
        "user",
        "account",
        "proposal",
        "meeting",
        "invoice",
        "invoice_item",
        "payments",
        "settings",
        "contact_message",
        "mail_outbox",
        "commission_entries",
        "payouts",
      ];
      const parts: string[] = [];
      for (const table of tables) {
        const { rows } = await sql.query(
          `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${rowsOf(table)} t`,
        );
        parts.push(`${table}:${rows[0].n}:${rows[0].h}`);
      }
      return parts;
    };
    const before = await snapshot();
    const failures: string[] = [];
    const intents = ["delete", "approve", "save", "create-payout"];
    for (const { area, path } of guarded) {
      for (const persona of Object.keys(contexts) as Persona[]) {
        const want = expected(persona, area, path);
        if (!("redirect" in want)) continue;
        for (const intent of intents) {
          const response = await contexts[persona].post(path, {
            form: {
              intent,
              proposalId: "1",
              invoiceId: "1",
              meetingId: "1",
              userId: "x",
              status: "completed",
              projectDetails: "hack",
              allowNewClients: "off",
              ambassadorId: "x",
              reference: "hack",
              method: "cash",
              paidAt: "2026-01-01",
              confirm: "yes",
            },
            maxRedirects: 0,
          });
          if (response.status() !== 302 || response.headers()["location"] !== want.redirect) {
            failures.push(`${persona} POST ${path} (${intent}): ${response.status()} ${response.headers()["location"] ?? ""}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

/**
 * The rows a snapshot compares: the whole table, except the mail outbox, whose delivery columns
 * (attempts, next try, sent time) the outbox worker updates at any moment — there only what a
 * request could write (which mails exist, to whom, with what content) counts.
 */
function rowsOf(table: string): string {
  return table === "mail_outbox" ? `(select id, "to", reply_to, subject, text, html, created_at from mail_outbox)` : `"${table}"`;
}

/**
 * Records of one client or ambassador are out of reach of another: client B asks
 * for client A's proposal, invoice, PDF and calendar invite, and posts every intent against A's
 * ids; ambassador B cannot act for ambassador A. Reads answer 404, writes are refused, and
 * the database is unchanged.
 */
test.describe("one user's records are out of reach of another", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  const ctx = {} as Record<"clientA" | "clientB" | "ambassadorA" | "ambassadorB", APIRequestContext>;
  const ids = { proposal: 0, review: 0, offered: 0, invoice: 0, meeting: 0, pendingMeeting: 0 };
  const certificateId = `idorCertificate${Date.now()}`;

  test.beforeAll(async () => {
    app = await startIsolatedApp("idor");
    for (const name of Object.keys({ clientA: 1, clientB: 1, ambassadorA: 1, ambassadorB: 1 }) as (keyof typeof ctx)[]) {
      ctx[name] = await playwrightRequest.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    }
    const emailA = uniqueEmail("idor-a");
    await ctx.clientA.post("/register", { form: { businessName: "A Co", email: emailA, phone: "1", password: PASSWORD } });
    await ctx.clientB.post("/register", { form: { businessName: "B Co", email: uniqueEmail("idor-b"), phone: "1", password: PASSWORD } });
    await ctx.ambassadorA.post("/register/ambassador", {
      form: { name: "Amb A", email: uniqueEmail("idor-amb-a"), phone: "1", password: PASSWORD, referralCode: `idor-a-${Date.now()}` },
    });
    await ctx.ambassadorB.post("/register/ambassador", {
      form: { name: "Amb B", email: uniqueEmail("idor-amb-b"), phone: "1", password: PASSWORD, referralCode: `idor-b-${Date.now()}` },
    });
    const q = (text: string, values: unknown[] = []) => app.sql.query(text, values).then((r) => r.rows);
    const [{ id: a }] = await q(`select id from "user" where email = $1`, [emailA]);
    const [{ id: ambA }] = await q(`select id from "user" where name = 'Amb A'`);
    ids.proposal = (
      await q(
        `insert into proposal (client_id, source, status, project_details) values ($1, 'client', 'pending', 'A pending') returning id`,
        [a],
      )
    )[0].id;
    ids.review = (
      await q(
        `insert into proposal (client_id, source, status, project_details) values ($1, 'client', 'review', 'A review') returning id`,
        [a],
      )
    )[0].id;
    ids.offered = (
      await q(
        `insert into proposal (client_id, ambassador_id, client_email, source, status, project_details) values ($1, $2, $3, 'ambassador', 'submitted', 'A offered') returning id`,
        [a, ambA, emailA],
      )
    )[0].id;
    // An accepted offer of A's own request (docs/product.md#accept-and-sign): its certificate and History.
    const terms = {
      proposalId: ids.proposal,
      version: 1,
      projectName: "A secret project",
      scope: "A secret scope",
      items: [{ description: "Secret line", quantity: 1, unitPriceCents: 1000, lineTotalCents: 1000 }],
      totalCents: 1000,
      currency: "USD",
      timeline: "",
      deposit: null,
      validUntil: null,
      termsAndConditions: null,
    };
    const [{ id: versionId }] = await q(
      `insert into proposal_version (proposal_id, number, terms, sha256) values ($1, 1, $2, $3) returning id`,
      [ids.proposal, JSON.stringify(terms), "a".repeat(64)],
    );
    await q(
      `insert into proposal_acceptance (proposal_id, version_id, version_number, user_id, typed_name, email, sha256, ip, user_agent, certificate_id)
       values ($1, $2, 1, $3, 'A Signer', $4, $5, '203.0.113.1', 'UA', $6)`,
      [ids.proposal, versionId, a, emailA, "a".repeat(64), certificateId],
    );
    ids.invoice = (
      await q(
        `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ('INV-IDOR-1', $1, $2, '2031-01-01', 1000) returning id`,
        [ids.review, a],
      )
    )[0].id;
    await q(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Secret line', 1000)`, [
      ids.invoice,
    ]);
    ids.meeting = (
      await q(
        `insert into meeting (user_id, starts_at, time_zone, status) values ($1, now() + interval '3 days', 'UTC', 'accepted') returning id`,
        [a],
      )
    )[0].id;
    ids.pendingMeeting = (
      await q(
        `insert into meeting (user_id, starts_at, time_zone, status) values ($1, now() + interval '4 days', 'UTC', 'pending') returning id`,
        [a],
      )
    )[0].id;
  });

  test.afterAll(async () => {
    for (const context of Object.values(ctx)) await context.dispose();
    await app.stop();
  });

  const snapshot = async () => {
    const parts: string[] = [];
    for (const table of ["proposal", "meeting", "invoice", "invoice_item", "mail_outbox", "proposal_acceptance", "proposal_version"]) {
      const { rows } = await app.sql.query(
        `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${rowsOf(table)} t`,
      );
      parts.push(`${table}:${rows[0].n}:${rows[0].h}`);
    }
    return parts;
  };

  test("reads: the owner gets the page, another client 404 without the data", async () => {
    const reads = [
      `/edit-proposal/${ids.proposal}`,
      `/view-invoice/${ids.invoice}`,
      `/view-invoice/${ids.invoice}/pdf`,
      `/client-dashboard/meetings/${ids.meeting}/ics`,
      `/meetings/${ids.meeting}/reschedule`,
      `/proposals/${ids.proposal}`,
      `/proposals/${ids.proposal}/certificate/${certificateId}`,
    ];
    for (const path of reads) {
      expect((await ctx.clientA.get(path)).status(), `A ${path}`).toBe(200);
      const other = await ctx.clientB.get(path);
      expect(other.status(), `B ${path}`).toBe(404);
      const body = await other.text();
      expect(body).not.toContain("Secret line");
      expect(body).not.toContain("A pending");
      expect(body).not.toContain("A secret scope");
    }
    // The ambassador is sent home by the client area's guard.
    const ambassadorRead = await ctx.ambassadorB.get(`/proposals/${ids.proposal}/certificate/${certificateId}`, { maxRedirects: 0 });
    expect(ambassadorRead.status()).toBe(302);
    // The public check shows the acceptance's public facts only: no terms, e-mail, IP or name.
    const verify = await ctx.clientB.get(`/verify/${certificateId}`);
    expect(verify.status()).toBe(200);
    const verifyBody = await verify.text();
    expect(verifyBody).toContain("This acceptance stands.");
    for (const secret of ["A secret scope", "Secret line", "A Signer", "203.0.113.1", "idor-a-"]) expect(verifyBody).not.toContain(secret);
    const status = await (await ctx.clientB.get("/project-status?completed=1")).text();
    expect(status).not.toContain("A pending");
    expect(status).not.toContain("A review");
  });

  test("writes: every intent against another client's ids is refused and changes nothing", async () => {
    const before = await snapshot();
    const attempts: [string, Record<string, string>][] = [
      [`/edit-proposal/${ids.proposal}`, { projectDetails: "Hijacked" }],
      ["/project-status", { intent: "delete-proposal", id: String(ids.proposal), confirm: "yes" }],
      ["/project-status", { intent: "submit-revision", id: String(ids.review), comment: "Hijacked" }],
      ["/client-dashboard", { intent: "approve-proposal", id: String(ids.offered) }],
      [`/proposals/${ids.proposal}`, { intent: "accept-offer", typedName: "Hijacker", agree: "on", version: "1" }],
      [`/proposals/${ids.proposal}`, { intent: "decline-offer", reason: "Hijacked" }],
      ["/client-dashboard", { intent: "decline-proposal", id: String(ids.offered), reason: "Hijacked" }],
      ["/client-dashboard", { intent: "cancel-meeting", id: String(ids.pendingMeeting), confirm: "yes" }],
      ["/meetings", { intent: "cancel-meeting", id: String(ids.pendingMeeting), confirm: "yes" }],
      [`/meetings/${ids.pendingMeeting}/reschedule`, { slot: "2031-01-06T10:00:00.000Z", timeZone: "UTC" }],
    ];
    for (const [path, form] of attempts) {
      const response = await ctx.clientB.post(path, { form, maxRedirects: 0 });
      expect([404, 403], `${path} ${form.intent ?? ""}`).toContain(response.status());
    }
    // An ambassador cannot use client actions at all, nor another ambassador's records.
    for (const [path, form] of attempts) {
      const response = await ctx.ambassadorB.post(path, { form, maxRedirects: 0 });
      expect(response.status(), `ambassador ${path}`).toBe(302);
      expect(response.headers()["location"]).toBe("/ambassador/dashboard");
    }
    const dashboardB = await (await ctx.ambassadorB.get("/ambassador/dashboard")).text();
    expect(dashboardB).not.toContain("A offered");
    expect(await snapshot()).toEqual(before);
  });
});
