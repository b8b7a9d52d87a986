/**
 * Starts, once for the whole Playwright run:
 * - a real SMTP server (smtp-server) that writes every message it receives to
 *   `$E2E_MAIL_DIR/<n>.eml`, so test workers can read them;
 * - a fresh PostgreSQL database (from TEST_DATABASE_URL, default the local server), so
 *   tests can check what the database holds while the app runs;
 * - the built app (`build/`) in production mode on a free port.
 * Returns the teardown that stops all three.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, spawnApp, type AppProcess } from "../helpers/app-server";
import { startSmtpCapture } from "../helpers/smtp";

export const DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export { freePort };

/**
 * Starts the built app with the e2e defaults (secret, owner and admin e-mails).
 *
 * @param env - extra environment (DATA_DIR, DATABASE_URL, SMTP_URL, …).
 */
export function startAppServer(env: Record<string, string>): Promise<AppProcess> {
  return spawnApp({
    BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
    OWNER_EMAIL: "owner@portfolio.test",
    ADMIN_EMAIL: "admin@portfolio.test",
    ADMIN_PASSWORD: "admin-e2e-password",
    ...env,
  });
}

/**
 * An app instance with a database of its own (for tests that compare whole tables, or break
 * the database): a fresh PostgreSQL database, the run's SMTP server, the e2e admin.
 *
 * @returns its base URL, a pool on its database, and `stop()` (stops it, drops the database).
 */
export async function startIsolatedApp(label: string): Promise<{
  baseUrl: string;
  databaseUrl: string;
  sql: pg.Pool;
  output: () => string;
  /** True while the server process runs. */
  alive: () => boolean;
  stop(): Promise<void>;
}> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_PG_URL;
  const name = `e2e_${label}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const app = await startAppServer({
    DATA_DIR: path.join(process.env.E2E_TMP ?? os.tmpdir(), name),
    DATABASE_URL: url.toString(),
    SMTP_URL: process.env.E2E_SMTP_URL ?? "",
  });
  const sql = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    baseUrl: app.baseUrl,
    databaseUrl: url.toString(),
    sql,
    output: app.output,
    alive: () => app.child.exitCode === null && app.child.signalCode === null,
    async stop() {
      await sql.end();
      app.child.kill("SIGTERM");
      await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
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
    onMessage: (mail) => fs.writeFileSync(path.join(mailDir, `${String(++n).padStart(5, "0")}.eml`), mail.raw),
  });

  const adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_PG_URL;
  const dbName = `e2e_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  const app = await startAppServer({
    DATA_DIR: path.join(tmp, "data"),
    DATABASE_URL: dbUrl.toString(),
    SMTP_URL: smtp.url,
  });

  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATABASE_URL = dbUrl.toString();
  process.env.E2E_TMP = tmp;
  process.env.E2E_SMTP_URL = smtp.url;

  return async () => {
    app.child.kill("SIGTERM");
    await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
    await smtp.close();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists "${dbName}" with (force)`);
    await cleanup.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
