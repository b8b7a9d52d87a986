/**
 * The admin's global search (issue #41): ⌘K / Ctrl+K focuses the sidebar's combobox; typing an
 * invoice number or a client's name lists them; arrow keys and Enter open one (ARIA combobox and
 * listbox: aria-expanded, aria-activedescendant, aria-selected); Enter with no option opens the
 * results page, which also works without JavaScript; axe finds nothing on the open list and the
 * page. A client and an ambassador have no field, and /admin/search answers them nothing.
 */
import { axeBuilder } from "./axe";
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await axeBuilder(page).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(" ")}: ${n.failureSummary}`));
}

test("⌘K finds an invoice by number and a client by name, by keyboard; never for a client or an ambassador", async ({ browser, sql }) => {
  test.setTimeout(180_000);
  const tag = uid();
  const businessName = `Quillfeather ${tag} Bakery`;
  const clientPage = await newUserPage(browser);
  const client = await registerClient(clientPage, { businessName });
  const clientId = (await sql.query('select id from "user" where email = $1', [client.email])).rows[0].id as string;
  const { rows: proposals } = await sql.query(
    `insert into proposal (client_id, source, status, project_name, project_details) values ($1, 'client', 'in_progress', $2, 'x') returning id`,
    [clientId, `Shop ${tag}`],
  );
  const number = `INV-S${tag.toUpperCase()}`;
  const { rows: invoices } = await sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents) values ($1, $2, $3, current_date + 30, 'unpaid', 50000) returning id`,
    [number, proposals[0].id, clientId],
  );
  const invoiceId = invoices[0].id as number;
  const organisationId = (await sql.query("select id from organisation where name = $1", [businessName])).rows[0].id as number;

  const admin = await adminPage(browser);
  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.goto("/admin");
  await hydrated(admin);
  const field = admin.getByRole("combobox", { name: "Search proposals, clients, invoices and messages" });
  await expect(field).toHaveAttribute("aria-expanded", "false");

  // Ctrl+K from the page body focuses the field; the invoice by its number.
  await admin.locator("main").click({ position: { x: 5, y: 5 } });
  await admin.keyboard.press("Control+k");
  await expect(field).toBeFocused();
  await admin.keyboard.type(number.slice(-8));
  const list = admin.getByRole("listbox", { name: "Search results" });
  const invoiceOption = list.getByRole("option", { name: new RegExp(`Invoice ${number}`) });
  await expect(invoiceOption).toBeVisible();
  await expect(field).toHaveAttribute("aria-expanded", "true");
  expect(await axeViolations(admin)).toEqual([]);
  await admin.keyboard.press("ArrowDown");
  await expect(invoiceOption).toHaveAttribute("aria-selected", "true");
  await expect(field).toHaveAttribute("aria-activedescendant", (await invoiceOption.getAttribute("id"))!);
  await admin.keyboard.press("Enter");
  await expect(admin).toHaveURL(new RegExp(`/admin/invoices/${invoiceId}/payments$`));

  // Meta+K (macOS) too; the client by name: their organisation, then their account (a proposal is
  // found by its own project name, its prospect's name or e-mail).
  await hydrated(admin);
  await admin.keyboard.press("Meta+k");
  await expect(field).toBeFocused();
  await field.fill(`quillfeather ${tag.slice(0, 5)}`);
  const options = list.getByRole("option");
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText(`${businessName}Client organisation · 1 person`);
  await expect(options.nth(1)).toContainText(`${businessName}Account · Client · ${client.email}`);
  await admin.keyboard.press("ArrowUp"); // from nothing to the last
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await admin.keyboard.press("ArrowDown"); // wraps to the first
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await admin.keyboard.press("Escape");
  await expect(field).toHaveAttribute("aria-expanded", "false");
  await admin.keyboard.press("ArrowDown");
  await admin.keyboard.press("Enter");
  await expect(admin).toHaveURL(new RegExp(`/admin/organisations/${organisationId}$`));

  // Enter with no option chosen: the results page, grouped by kind.
  await hydrated(admin);
  await admin.keyboard.press("Control+k");
  await admin.keyboard.type(tag);
  await expect(list.getByRole("option").first()).toBeVisible();
  await admin.keyboard.press("Enter");
  await expect(admin).toHaveURL(new RegExp(`/admin/search\\?q=${tag}$`));
  await expect(admin.getByRole("heading", { name: "Search", level: 1 })).toBeVisible();
  for (const heading of ["Client organisations", "Accounts", "Proposals"])
    await expect(admin.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  expect(await axeViolations(admin)).toEqual([]);

  // Without JavaScript: the sidebar field is a GET form to the same page.
  const plain = await adminPage(browser, { javaScriptEnabled: false });
  await plain.setViewportSize({ width: 1280, height: 900 });
  await plain.goto("/admin");
  await plain.getByRole("combobox").fill(number);
  await plain.getByRole("combobox").press("Enter");
  await expect(plain.getByRole("link", { name: `Invoice ${number}` })).toHaveAttribute("href", `/admin/invoices/${invoiceId}/payments`);

  // Another role: no field, ⌘K does nothing, and /admin/search shows them nothing of it.
  const ambassadorPage = await newUserPage(browser);
  await registerAmbassador(ambassadorPage);
  for (const page of [clientPage, ambassadorPage]) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(page === clientPage ? "/client-dashboard" : "/ambassador/dashboard");
    await hydrated(page);
    await expect(page.getByTestId("global-search")).toHaveCount(0);
    const before = page.url();
    await page.keyboard.press("Control+k");
    expect(page.url()).toBe(before);
    const answer = await page.request.get(`/admin/search?q=${encodeURIComponent(tag)}`, { maxRedirects: 0 });
    expect([302, 303, 403, 404]).toContain(answer.status());
    expect(await answer.text()).not.toContain(tag);
    const data = await page.request.get(`/admin/search.data?q=${encodeURIComponent(tag)}`, { maxRedirects: 0 });
    expect(await data.text()).not.toContain(tag);
  }
});
