/**
 * The default installation (what `npm start` runs): embedded PGlite in DATA_DIR, no
 * SMTP server (mail written as .eml files to DATA_DIR/outbox). Also the guard rails at
 * boot: a bad setting and a second process on the same data directory.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { simpleParser } from "mailparser";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { startAppServer } from "./global-setup";
import { expect, test } from "./fixtures";

const tsxCli = path.resolve("node_modules/tsx/dist/cli.mjs");
const withoutDatabaseUrl = () => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  return env;
};

test.describe("default installation on PGlite", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  test("serves the site, creates the first admin, stores a contact message and writes the owner's mail to the outbox folder; a second process is refused", async ({
    page,
  }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-default-"));
    const env = withoutDatabaseUrl();
    const app = await startAppServer({ DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    try {
      const health = await (await fetch(`${app.baseUrl}/healthz`)).json();
      // The probe answers its status only; the database in use is in the start-up log line.
      expect(health).toEqual({ status: "ok" });
      expect(app.output()).toMatch(/"database":"[^"]*\/pglite","msg":"server listening/);

      // First start on an empty database without ADMIN_*: an admin with a generated password, printed once.
      expect(app.output()).toContain("Created the first admin account (shown once)");
      const adminEmail = /email:\s+(\S+)/.exec(app.output())![1]!;
      const adminPassword = /password:\s+(\S+)/.exec(app.output())![1]!;
      await page.goto(`${app.baseUrl}/login`);
      await page.getByLabel("Email").fill(adminEmail);
      await page.getByLabel("Password").fill(adminPassword);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${app.baseUrl}/admin`);
      await page.context().clearCookies();

      await page.goto(`${app.baseUrl}/contact`);
      await page.getByLabel("Name").fill("Default Install");
      await page.getByLabel("Email").fill("default@example.org");
      await page.getByLabel("Message").fill("Message stored in PGlite");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByRole("status")).toHaveText("Message sent successfully!");

      const outbox = path.join(dataDir, "outbox");
      await expect
        .poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith(".eml")).length : 0), { timeout: 10_000 })
        .toBe(1);
      const eml = await simpleParser(fs.readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!)));
      // In the one mail layout: the subject ends with the company name.
      expect(eml.subject).toBe("New contact message from Default Install — Client Portal");
      expect(eml.to && "text" in eml.to ? eml.to.text : "").toBe("owner@portfolio.test");

      // A second server on the same data directory exits with a clear message.
      const second = spawnSync(process.execPath, ["build/server/main.js"], {
        env: { ...env, NODE_ENV: "production", PORT: "0", DATA_DIR: dataDir },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain("is in use by another process");
    } finally {
      // Leave the page first: an open page would fetch route manifests from a stopped server.
      await page.goto("about:blank");
      app.child.kill("SIGTERM");
      await new Promise((r) => (app.child.exitCode !== null ? r(null) : app.child.once("exit", r)));
    }

    // The message is in the embedded database (readable now that the server has stopped).
    const pglite = await PGlite.create(path.join(dataDir, "pglite"));
    const { rows } = await pglite.query<{ user_email: string }>("select user_email from contact_message");
    expect(rows).toEqual([{ user_email: "default@example.org" }]);
    await pglite.close();

    // npm run admin:create makes another admin (the server must be stopped on PGlite).
    const created = spawnSync(
      process.execPath,
      [tsxCli, "scripts/admin-create.ts", "--email", "Boss@Example.com", "--password", "boss-password-1"],
      {
        env: { ...env, DATA_DIR: dataDir },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(
      created.stderr
        .split("\n")
        .filter((l) => l && !l.startsWith("npm warn"))
        .join("\n"),
    ).toBe("");
    expect(created.stdout).toContain("Created admin boss@example.com.");

    // After a clean stop the data is still there for the next start.
    const again = await startAppServer({ DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    try {
      expect((await fetch(`${again.baseUrl}/`)).status).toBe(200);
      expect(again.output()).not.toContain("Created the first admin account");
      await page.goto(`${again.baseUrl}/login`);
      await page.getByLabel("Email").fill("boss@example.com");
      await page.getByLabel("Password").fill("boss-password-1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${again.baseUrl}/admin`);
    } finally {
      await page.goto("about:blank");
      again.child.kill("SIGTERM");
      await new Promise((r) => (again.child.exitCode !== null ? r(null) : again.child.once("exit", r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a bad setting stops the server with one line naming the variable", () => {
    const result = spawnSync(process.execPath, ["build/server/main.js"], {
      env: { ...withoutDatabaseUrl(), NODE_ENV: "production", PORT: "not-a-port" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT: /);
  });
});
