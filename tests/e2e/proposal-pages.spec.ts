/**
 * The proposal pages (docs/product.md#proposal-pages): the client's `/proposals/:id` and the
 * admin's `/admin/proposals/:id` show every field of the request in full; another client gets 404.
 */
import { adminPage, expect, newUserPage, registerClient, test } from "./fixtures";

test("client and admin read a proposal in full; another client gets 404", async ({ page, browser, sql }) => {
  const client = await registerClient(page);
  const name = `Full brief ${Date.now()}`;
  const details = `${"Every word of the brief matters. ".repeat(40)}\nLast line of the brief.`;
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/proposal-request");
  await page.getByLabel("Project name (optional)").fill(name);
  await page.getByLabel("Project details").fill(details);
  await page.getByLabel("Target audience (optional)").fill("Night owls who like pancakes");
  await page.getByLabel("Number of pages (optional)").fill("7");
  await page.getByRole("button", { name: "Submit request" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Proposal request submitted successfully." })).toBeVisible();
  const { rows } = await sql.query(`select id from proposal where project_name = $1`, [name]);
  const id = rows[0].id as number;

  await page.goto("/project-status");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/proposals/${id}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("project-details")).toHaveText(details, { useInnerText: true });
  await expect(page.getByText("Night owls who like pancakes")).toBeVisible();
  const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(scrolls).toBe(false);

  const admin = await adminPage(browser);
  await admin.goto(`/admin/proposals?q=${encodeURIComponent(name)}`);
  await admin.getByRole("link", { name, exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/proposals/${id}$`));
  await expect(admin.getByTestId("project-details")).toHaveText(details, { useInnerText: true });
  await expect(admin.getByText(client.email)).toBeVisible();
  await admin.getByLabel(`Status of ${name}`).selectOption("planning");
  await admin.getByRole("button", { name: `Save new status — ${name}` }).click();
  await expect(admin.getByText(/is now “Planning”/)).toBeVisible();
  expect((await sql.query(`select status from proposal where id = $1`, [id])).rows[0].status).toBe("planning");

  const other = await newUserPage(browser);
  await registerClient(other);
  const response = await other.goto(`/proposals/${id}`);
  expect(response?.status()).toBe(404);
  await expect(other.getByText(details.slice(0, 40))).toHaveCount(0);
  await admin.close();
  await other.close();
});
