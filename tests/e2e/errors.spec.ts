/**
 * An unexpected server error shows a friendly error page with status 500 and is logged
 * The database is dropped under a running instance to cause one.
 */
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";
import pg from "pg";
import { createPgDatabase } from "../helpers/test-database";
import { runPgUrl, startAppServer } from "./global-setup";
import { PASSWORD, expect, test, uniqueEmail, uniqueIp } from "./fixtures";

test("a failing database gives the friendly 500 page, a 503 health check and a log line", async ({ browser, consoleErrors }) => {
  consoleErrors.allow(/\/client-dashboard: document answered 500$/);
  // The error page's live-update stream cannot read the session either: 503, tried again later.
  consoleErrors.allow(/\/events: eventsource answered 503$/);
  // A live update that arrives while the database is down reloads the page's data: 500 as well.
  consoleErrors.allow(/\/client-dashboard\.data: fetch answered 500$/);
  const adminUrl = runPgUrl();
  const database = await createPgDatabase(adminUrl, "e2e_err", { empty: true });
  const name = database.name;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const app = await startAppServer({
    DATA_DIR: path.join(process.env.E2E_TMP!, name),
    DATABASE_URL: database.url,
    SMTP_URL: process.env.E2E_SMTP_URL!,
  });
  try {
    const ip = uniqueIp();
    const api = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": ip } });
    await api.post(`${app.baseUrl}/register`, {
      form: { businessName: "Err Co", email: uniqueEmail("err"), phone: "1", password: PASSWORD },
    });
    const context = await browser.newContext({ storageState: await api.storageState(), extraHTTPHeaders: { "x-forwarded-for": ip } });
    await api.dispose();
    const page = await context.newPage();
    expect((await page.goto(`${app.baseUrl}/client-dashboard`))?.status()).toBe(200);

    await admin.query(`drop database "${name}" with (force)`);

    const response = await page.goto(`${app.baseUrl}/client-dashboard`);
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
    await expect(page.getByText("An unexpected error occurred on our side.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the home page" })).toBeVisible();
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(health.status).toBe(503);
    // The database's error text goes to the log, never to the public probe.
    expect(await health.json()).toEqual({ status: "unavailable" });
    await expect.poll(() => app.output()).toMatch(/"method":"GET","path":"\/client-dashboard"[^\n]*"msg":"request failed"/);
    await expect.poll(() => app.output()).toMatch(/"msg":"health check: database unavailable"/);
    // Content pages keep working (they need no database).
    expect((await fetch(`${app.baseUrl}/about`)).status).toBe(200);
    await context.close();
  } finally {
    app.child.kill("SIGTERM");
    await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
});
