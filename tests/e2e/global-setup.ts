/**
 * Starts, once for the whole Playwright run:
 * - a real SMTP server (smtp-server) that writes every message it receives to
 *   `$E2E_MAIL_DIR/<n>.eml`, so test workers can read them;
 * - the run's PostgreSQL server: TEST_DATABASE_URL's when set, else an embedded server started
 *   for the run (tests/helpers/embedded-postgres.ts); workers see its URL in TEST_DATABASE_URL;
 * - a fresh, migrated PostgreSQL database on it (tests/helpers/test-database.ts), so tests can
 *   check what the database holds while the app runs;
 * - the built app (`build/`) in production mode on a free port.
 * Returns the teardown that stops them all.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { freePort, spawnApp, type AppProcess } from "../helpers/app-server";
import { startTestPgServer } from "../helpers/embedded-postgres";
import { startSmtpCapture } from "../helpers/smtp";
import { createPgDatabase, testPool } from "../helpers/test-database";

export { freePort };

/** The run's PostgreSQL admin URL (set by the global setup in TEST_DATABASE_URL for the workers). */
export function runPgUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is unset: the Playwright global setup sets it.");
  return url;
}

/**
 * Starts the built app with the e2e defaults (secret, owner and admin e-mails).
 *
 * @param env - extra environment (DATA_DIR, DATABASE_URL, SMTP_URL, …).
 */
export function startAppServer(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<AppProcess> {
  return spawnApp(
    {
      BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      OWNER_EMAIL: "owner@portfolio.test",
      ADMIN_EMAIL: "admin@portfolio.test",
      ADMIN_PASSWORD: "admin-e2e-password",
      ...env,
    },
    options,
  );
}

/**
 * An app instance with a database of its own (for tests that compare whole tables, or break
 * the database): a fresh PostgreSQL database, the run's SMTP server, the e2e admin.
 *
 * @returns its base URL, a pool on its database, and `stop()` (stops it, drops the database).
 */
export async function startIsolatedApp(
  label: string,
  /** Extra environment variables of this instance (e.g. STRIPE_* for the payments spec). */
  extraEnv: Record<string, string> = {},
  /** How long the instance may take to become healthy (default 60 s). */
  options: { startTimeoutMs?: number } = {},
): Promise<{
  baseUrl: string;
  databaseUrl: string;
  sql: pg.Pool;
  output: () => string;
  /** True while the server process runs. */
  alive: () => boolean;
  stop(): Promise<void>;
}> {
  const database = await createPgDatabase(runPgUrl(), `e2e_${label}`);
  const app = await startAppServer(
    {
      DATA_DIR: path.join(process.env.E2E_TMP ?? os.tmpdir(), database.name),
      DATABASE_URL: database.url,
      SMTP_URL: process.env.E2E_SMTP_URL ?? "",
      ...extraEnv,
    },
    options,
  );
  const sql = testPool(database.url);
  return {
    baseUrl: app.baseUrl,
    databaseUrl: database.url,
    sql,
    output: app.output,
    alive: () => app.child.exitCode === null && app.child.signalCode === null,
    async stop() {
      await sql.end();
      app.child.kill("SIGTERM");
      await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
      await database.drop();
    },
  };
}

export default async function globalSetup() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the browser tests.");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-"));
  const mailDir = path.join(tmp, "mail");
  fs.mkdirSync(mailDir);
  let n = 0;
  const smtp = await startSmtpCapture({
    // Written under another name, then renamed: a reader never sees half a mail.
    onMessage: (mail) => {
      const file = path.join(mailDir, `${String(++n).padStart(5, "0")}.eml`);
      fs.writeFileSync(`${file}.part`, mail.raw);
      fs.renameSync(`${file}.part`, file);
    },
  });

  const server = await startTestPgServer();
  console.log(
    server.kind === "embedded"
      ? "[e2e] TEST_DATABASE_URL unset: using an embedded PostgreSQL server for this run"
      : "[e2e] using the PostgreSQL server of TEST_DATABASE_URL",
  );
  process.env.TEST_DATABASE_URL = server.url;
  const database = await createPgDatabase(server.url, "e2e");

  // A budget for a start on a busy machine (85 s seen under a load of 30), not a speed check.
  const app = await startAppServer(
    { DATA_DIR: path.join(tmp, "data"), DATABASE_URL: database.url, SMTP_URL: smtp.url },
    { startTimeoutMs: 240_000 },
  );

  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_TMP = tmp;
  process.env.E2E_SMTP_URL = smtp.url;

  return async () => {
    app.child.kill("SIGTERM");
    await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
    await smtp.close();
    await database.drop();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
