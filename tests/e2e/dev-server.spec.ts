/**
 * Smoke run of the development runtime (issue #29): `npm run dev` — the same command line, started
 * by this test on a port and a database of its own — serves a handful of portal pages that React's
 * development build hydrates without a hydration warning, a console error or an uncaught error
 * (the `consoleErrors` fixture watches this test's browser as it does every other test's), and a
 * form posts through React Router. What users run (the production build) is what every other
 * browser test drives.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnApp, type AppProcess } from "../helpers/app-server";
import { createPgDatabase, type CreatedPgDatabase } from "../helpers/test-database";
import { ADMIN, PASSWORD, expect, hydrated, newUserPage, test, uniqueEmail } from "./fixtures";
import { runPgUrl } from "./global-setup";
import { expectCleanHydration } from "./hydration";

const packageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };

let app: AppProcess;
let database: CreatedPgDatabase;

test.beforeAll(async ({}, testInfo) => {
  // Vite transforms every module on first request: minutes on a busy 2-core machine.
  testInfo.setTimeout(300_000);
  // `npm run dev` is `node --import tsx server/main.ts`: run exactly that, under this test's control.
  const command = packageJson.scripts.dev!.split(" ");
  expect(command.slice(0, 1)).toEqual(["node"]);
  database = await createPgDatabase(runPgUrl(), "e2e_dev");
  app = await spawnApp(
    {
      NODE_ENV: "development",
      LOG_FORMAT: "json",
      DATA_DIR: path.join(process.env.E2E_TMP!, database.name),
      DATABASE_URL: database.url,
      SMTP_URL: process.env.E2E_SMTP_URL ?? "",
      BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    { args: command.slice(1), startTimeoutMs: 240_000 },
  );
});

test.afterAll(async () => {
  await app?.stop();
  await database?.drop();
});

test("npm run dev: portal pages hydrate with React's development build without a warning, and a form posts", async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await newUserPage(browser, { baseURL: app.baseUrl });
  page.setDefaultTimeout(120_000);
  // Signed out: the sign-in pages (Vite compiles each route module on its first request).
  await expectCleanHydration(page, ["/login", "/register"]);

  // A client registers through the form (JavaScript on: React Router posts it) and lands on the dashboard.
  await page.getByLabel("Business name").fill("Dev Smoke Co");
  await page.getByLabel("Email").fill(uniqueEmail("dev"));
  await page.getByLabel("Phone").fill("301 555 0100");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/client-dashboard$/, { timeout: 120_000 });
  await expectCleanHydration(page, ["/client-dashboard", "/project-status", "/account"]);

  // The admin's dashboard and settings.
  const admin = await newUserPage(browser, { baseURL: app.baseUrl });
  admin.setDefaultTimeout(120_000);
  await admin.goto("/login");
  await hydrated(admin);
  await admin.getByLabel("Email").fill(ADMIN.email);
  await admin.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await admin.getByRole("button", { name: "Sign in" }).click();
  await expect(admin).toHaveURL(/\/admin$/, { timeout: 120_000 });
  await expectCleanHydration(admin, ["/admin", "/admin/settings"]);
  await page.context().close();
  await admin.context().close();
});
