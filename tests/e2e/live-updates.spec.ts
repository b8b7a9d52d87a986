/**
 * Live updates (docs/product.md#live-updates) in real browsers, on a server run with
 * WEB_CONCURRENCY=2 on PostgreSQL: an admin's change reaches the client's open pages (both tabs)
 * without a reload, whichever server process each is connected to (the 3 s target is measured by
 * bench/live-updates.ts; here 15 s is a budget for a hang on a busy machine); another client's
 * pages and stream receive nothing; the admin's dashboard changes when a client asks for a meeting;
 * the admin's message appears in the client's open thread; signing out in one tab ends the other
 * tab's stream.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import type pg from "pg";
import { openSse, type SseStream } from "../helpers/sse";
import { ADMIN, bookFreeSlot, expect, hydrated, leaveServer, login, newUserPage, registerClient, test } from "./fixtures";
import { startAppServer } from "./global-setup";

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function userId(sql: pg.Pool, email: string): Promise<string> {
  const { rows } = await sql.query('select id from "user" where email = $1', [email]);
  return rows[0].id;
}

/** The Cookie header of a page's context for `baseUrl`. */
async function cookieHeader(page: Page, baseUrl: string): Promise<string> {
  return (await page.context().cookies(baseUrl)).map((c) => `${c.name}=${c.value}`).join("; ");
}

/** Opens a page at `path` and waits until its live-update stream is open. */
async function openLive(page: Page, pathname: string) {
  await page.goto(pathname);
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 10_000 });
  // A marker that a reload would lose: the page must change without one.
  await page.evaluate(() => ((window as unknown as { liveMarker: string }).liveMarker = "kept"));
}

/** A budget for a hang, not a speed check: the delivery latency is bench/live-updates.ts's figure. */
const LIVE_BUDGET_MS = 15_000;

const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker);

test.describe("live updates across two server processes", () => {
  test.setTimeout(180_000);

  test("an admin's changes reach the client's open tabs without a reload, nothing reaches another client, sign-out ends the other tab's stream", async ({
    browser,
    sql,
  }) => {
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, `live-${uid()}`),
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      WEB_CONCURRENCY: "2",
    });
    const raw: SseStream[] = [];
    try {
      await expect
        .poll(() => (app.output().match(/"process":"\d of 2","msg":"server listening on/g) ?? []).length, { timeout: 90_000 })
        .toBe(2);
      const base = app.baseUrl;

      // The client, with two tabs: project status (proposals) and the dashboard (meetings).
      const tab1 = await newUserPage(browser, { baseURL: base });
      const client = await registerClient(tab1, { businessName: `Live Bakery ${uid()}` });
      const clientId = await userId(sql, client.email);
      const project = `Live site ${uid()}`;
      const { rows: created } = await sql.query(
        "insert into proposal (client_id, source, status, project_details, project_name) values ($1, 'client', 'pending', 'A site', $2) returning id",
        [clientId, project],
      );
      const proposalId = created[0].id as number;
      const { rows: meetings } = await sql.query(
        "insert into meeting (user_id, starts_at, time_zone, notes) values ($1, now() + interval '10 days', 'UTC', $2) returning id",
        [clientId, `Live meeting ${uid()}`],
      );
      const meetingId = meetings[0].id as number;
      const tab2 = await tab1.context().newPage();
      await openLive(tab1, "/project-status");
      await openLive(tab2, "/client-dashboard");
      const proposalCard = tab1.getByRole("listitem").filter({ hasText: project });
      await expect(proposalCard).toContainText("Pending");

      // Another client, with an open page and a raw stream of their own.
      const other = await newUserPage(browser, { baseURL: base });
      await registerClient(other, { businessName: `Other Co ${uid()}` });
      await openLive(other, "/project-status");
      const otherCookie = await cookieHeader(other, base);
      // Several raw streams: the cluster hands connections to both processes in turn.
      for (let i = 0; i < 4; i++) raw.push(openSse(`${base}/events`, { cookie: otherCookie }));
      for (const stream of raw) await stream.next((f) => f.event === "ready");
      const clientRaw = openSse(`${base}/events`, { cookie: await cookieHeader(tab1, base) });
      raw.push(clientRaw);
      await clientRaw.next((f) => f.event === "ready");

      // The admin, in a context of their own, on the same cluster.
      const admin = await newUserPage(browser, { baseURL: base });
      await login(admin, ADMIN.email, ADMIN.password);
      await openLive(admin, "/admin");

      // 1. The admin changes the proposal's status in the admin console.
      await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
      await hydrated(admin);
      await admin.getByLabel(`Status of ${project}`).selectOption("planning");
      await admin
        .getByRole("row", { name: new RegExp(project) })
        .getByRole("button", { name: "Save" })
        .click();
      await expect(proposalCard).toContainText("Planning", { timeout: LIVE_BUDGET_MS });
      await expect(tab1.getByTestId("live-announcer")).toHaveText(`Proposal "${project}" is now Planning.`);
      expect(await stillSamePage(tab1)).toBe("kept");

      // 2. The admin accepts the meeting: the client's other tab (the dashboard) shows it.
      await admin.goto("/admin");
      await hydrated(admin);
      const meetingRow = admin.getByRole("row", { name: /Live meeting/ }).filter({ hasText: client.email });
      await meetingRow.locator("summary", { hasText: "Actions" }).click();
      await meetingRow.getByRole("button", { name: "Accept" }).click();
      const dashboardMeeting = tab2.getByRole("listitem").filter({ hasText: /Live meeting/ });
      await expect(dashboardMeeting).toContainText("Accepted", { timeout: LIVE_BUDGET_MS });
      expect(await stillSamePage(tab2)).toBe("kept");
      expect((await sql.query("select status from meeting where id = $1", [meetingId])).rows[0].status).toBe("accepted");

      // 3. A client's meeting request (booked from the agency's availability) appears on the open admin dashboard without a reload.
      await openLive(admin, "/admin");
      const notes = `Requested live ${uid()}`;
      await bookFreeSlot(tab2, notes);
      await expect(admin.getByRole("row", { name: new RegExp(notes) })).toBeVisible({ timeout: LIVE_BUDGET_MS });
      expect(await stillSamePage(admin)).toBe("kept");

      // The client's stream carried the three updates; the other client's streams and page nothing.
      const kinds = clientRaw.updates().map((u) => u.kind);
      expect(kinds).toEqual(expect.arrayContaining(["proposal.status-changed", "meeting.accepted", "meeting.requested"]));
      expect(clientRaw.updates().find((u) => u.kind === "proposal.status-changed")).toMatchObject({
        proposalId,
        data: { status: "planning" },
      });
      await new Promise((r) => setTimeout(r, 1_000));
      for (const stream of raw.slice(0, 4)) expect(stream.frames.map((f) => f.event)).toEqual(["ready"]);
      await expect(other.getByTestId("live-announcer")).toHaveText("");
      expect(await stillSamePage(other)).toBe("kept");

      // 4. The admin writes in the proposal's conversation: the client's open thread shows it, announced.
      await openLive(tab1, `/proposals/${proposalId}`);
      await admin.goto(`/admin/proposals/${proposalId}`);
      await hydrated(admin);
      const text = `Can we add a map? ${uid()}`;
      await admin.getByLabel("Message", { exact: true }).fill(text);
      await admin.getByRole("button", { name: "Send message" }).click();
      await expect(tab1.getByText(text)).toBeVisible({ timeout: LIVE_BUDGET_MS });
      await expect(tab1.getByTestId("live-announcer")).toHaveText(/^New message from /);
      expect(await stillSamePage(tab1)).toBe("kept");
      expect(clientRaw.updates().map((u) => u.kind)).toContain("message.posted");
      for (const stream of raw.slice(0, 4)) expect(stream.frames.map((f) => f.event)).toEqual(["ready"]);

      // 5. Signing out in one tab ends the other tab's stream (and sends it to sign-in).
      await tab1.getByRole("button", { name: "Logout" }).filter({ visible: true }).click();
      await expect(tab1).toHaveURL(/\/login/);
      await clientRaw.ended;
      expect(clientRaw.frames.at(-1)).toMatchObject({ event: "end", data: JSON.stringify({ reason: "signed-out" }) });
      await expect(tab2).toHaveURL(/\/login/, { timeout: 10_000 });
    } finally {
      for (const stream of raw) stream.close();
      await leaveServer(app.baseUrl);
      await app.stop("SIGTERM");
    }
  });

  test("a stopping server closes its streams at once: they are no requests in flight and do not delay the exit", async ({ browser }) => {
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, `live-stop-${uid()}`),
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      SHUTDOWN_TIMEOUT_MS: "90000",
    });
    try {
      const page = await newUserPage(browser, { baseURL: app.baseUrl });
      await registerClient(page);
      const cookie = await cookieHeader(page, app.baseUrl);
      const streams = Array.from({ length: 5 }, () => openSse(`${app.baseUrl}/events`, { cookie }));
      for (const stream of streams) await stream.next((f) => f.event === "ready");
      await page.context().close();
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
      app.child.kill("SIGTERM");
      await Promise.all(streams.map((s) => s.ended));
      // Well before SHUTDOWN_TIMEOUT_MS (a margin for a busy machine): the open streams held nothing up.
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(app.output()).toMatch(/"inFlight":0/);
    } finally {
      await app.stop("SIGKILL");
    }
  });
});
