/**
 * "Download my data" in Chromium (docs/product.md#download-my-data, issue #36): the button on
 * /account/privacy (the account's Privacy section) saves a ZIP through the browser's own download — with JavaScript and without — and the
 * files in it are the account's data as the database holds it. The ZIP is unzipped here with fflate
 * (the library the export is written with). A request that sends no file (over the hourly limit)
 * brings the browser back to the section with the reason.
 */
import fs from "node:fs";
import type { Download, Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import type pg from "pg";
import { expect, hydrated, newUserPage, registerClient, test } from "./fixtures";

interface ExportedData {
  exportedAt: string;
  account: { id: string; email: string; businessName: string | null; role: string };
  proposals: { id: number; projectName: string | null; projectDetails: string }[];
  sessions: unknown[];
}

/** Registers a client on `page` with two proposals of their own. */
async function clientWithProposals(page: Page, sql: pg.Pool) {
  const client = await registerClient(page, { businessName: "Zip & Co" });
  const { rows } = await sql.query(`select id from "user" where email = $1`, [client.email]);
  const id = rows[0].id as string;
  for (const details of ["A bakery site with online orders", "A newsletter for the bakery"]) {
    await sql.query(`insert into proposal (client_id, source, status, project_details) values ($1, 'client', 'pending', $2)`, [
      id,
      details,
    ]);
  }
  return { ...client, id };
}

/** Clicks "Download my data" and waits for the browser's download; @returns it with the answer's headers. */
async function download(page: Page): Promise<{ file: Download; headers: Record<string, string> }> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/account/my-data" && r.request().method() === "POST");
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
  return { file, headers: (await answer).headers() };
}

/** Checks the saved ZIP byte for byte against what the server sent, and its files against the database. */
async function expectAccountZip(saved: { file: Download; headers: Record<string, string> }, sql: pg.Pool, userId: string) {
  const { file, headers } = saved;
  expect(headers["content-type"]).toBe("application/zip");
  expect(headers["content-disposition"]).toMatch(/^attachment; filename="my-data-\d{4}-\d\d-\d\d\.zip"$/);
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.zip$/);
  const bytes = fs.readFileSync((await file.path())!);
  expect(bytes.length).toBe(Number(headers["content-length"]));
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
  const files = unzipSync(new Uint8Array(bytes));
  expect(Object.keys(files).sort()).toEqual(["README.txt", "my-data.json"]);
  expect(strFromU8(files["README.txt"]!)).toContain("my-data.json has one section per kind of record");
  const data = JSON.parse(strFromU8(files["my-data.json"]!)) as ExportedData;

  const [user] = (await sql.query(`select id, email, business_name, role from "user" where id = $1`, [userId])).rows;
  expect(data.account).toMatchObject({ id: user.id, email: user.email, businessName: user.business_name, role: user.role });
  const proposals = (await sql.query(`select id, project_details from proposal where client_id = $1 order by id`, [userId])).rows;
  expect(proposals).toHaveLength(2);
  expect(data.proposals.map((p) => [p.id, p.projectDetails]).sort()).toEqual(proposals.map((p) => [p.id, p.project_details]).sort());
  const sessions = (await sql.query(`select count(*)::int as n from session where user_id = $1`, [userId])).rows[0].n;
  expect(data.sessions).toHaveLength(sessions);
  return data;
}

for (const javaScriptEnabled of [true, false]) {
  test(`"Download my data" saves the account's ZIP ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser, sql }) => {
    const page = await newUserPage(browser, { javaScriptEnabled, acceptDownloads: true });
    const client = await clientWithProposals(page, sql);
    await page.goto("/account/privacy#my-data");
    if (javaScriptEnabled) await hydrated(page);
    const first = await expectAccountZip(await download(page), sql, client.id);
    // The page stayed as it was: the download is the answer, not a new page.
    await expect(page).toHaveURL(/\/account\/privacy#my-data$/);
    await expect(page.getByRole("heading", { name: "Your data" })).toBeVisible();

    // Two more downloads fill the hour's budget (only delivered files count); the fourth says why it sends nothing.
    await expectAccountZip(await download(page), sql, client.id);
    const third = await expectAccountZip(await download(page), sql, client.id);
    expect(third.exportedAt >= first.exportedAt).toBe(true);
    await page.getByRole("button", { name: "Download my data" }).click();
    await expect(page).toHaveURL(/\/account\/privacy\?my-data=limit#my-data$/);
    await expect(page.locator("#my-data").getByText("You asked for your data several times in the last hour")).toBeVisible();
  });
}

test("GET /account/my-data shows the section; a signed-out POST goes to sign-in and sends nothing", async ({ browser, page }) => {
  await registerClient(page);
  const get = await page.request.get("/account/my-data", { maxRedirects: 0 });
  expect([get.status(), get.headers().location]).toEqual([302, "/account/privacy#my-data"]);
  const stranger = await newUserPage(browser);
  const post = await stranger.request.post("/account/my-data", { maxRedirects: 0 });
  expect(post.status()).toBe(302);
  expect(post.headers().location).toMatch(/^\/login\?redirectTo=/);
  expect(post.headers()["content-type"] ?? "").not.toContain("zip");
});
