/**
 * docs/product.md#invoices-editing in a real browser: two admins edit the same invoice; the later
 * save from the stale page is refused through the real form and nothing is written.
 */
import { adminPage, expect, hydrated, registerClient, test } from "./fixtures";

test("a save from a page another admin's save made stale is refused, nothing written", async ({ browser, page, sql }) => {
  const client = await registerClient(page, { businessName: "Version Co" });
  const { rows: users } = await sql.query(`select id from "user" where email = $1`, [client.email]);
  const { rows: proposals } = await sql.query(
    `insert into proposal (client_id, source, status, project_details, project_name) values ($1, 'client', 'planning', 'Site', 'Versioned site') returning id`,
    [users[0].id],
  );
  const number = `INV-2098-${Date.now().toString().slice(-7)}`;
  const { rows } = await sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents) values ($1, $2, $3, '2099-01-31', 'unpaid', 10000) returning id`,
    [number, proposals[0].id, users[0].id],
  );
  const invoiceId = rows[0].id as number;
  await sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Design', 10000)`, [
    invoiceId,
  ]);

  const first = await adminPage(browser);
  const second = await adminPage(browser);
  for (const admin of [first, second]) {
    await admin.goto(`/admin/invoices/edit/${invoiceId}`);
    await hydrated(admin);
  }

  await first.getByLabel("Item 1 amount").fill("150.00");
  await first.getByRole("button", { name: "Save invoice" }).click();
  await expect(first.getByRole("status").filter({ hasText: "Invoice saved" })).toHaveText("Invoice saved. New total: $150.00.");

  await second.getByLabel("Item 1 description").fill("Stale change");
  await second.getByLabel("Item 1 amount").fill("999.00");
  await second.getByRole("button", { name: "Save invoice" }).click();
  await expect(second.getByRole("alert")).toHaveText("This invoice was changed by someone else; reload to see it.");
  // The typed values stay in the form; nothing was written.
  await expect(second.getByLabel("Item 1 description")).toHaveValue("Stale change");
  const stored = await sql.query(
    `select i.total_cents, i.version, it.description, it.amount_cents from invoice i join invoice_item it on it.invoice_id = i.id where i.id = $1`,
    [invoiceId],
  );
  expect(stored.rows).toEqual([{ total_cents: 15000, version: 2, description: "Design", amount_cents: 15000 }]);

  // After a reload the second admin sees the first one's change and can save.
  await second.reload();
  await hydrated(second);
  await expect(second.getByLabel("Item 1 amount")).toHaveValue("150.00");
  await second.getByLabel("Item 1 amount").fill("175.00");
  await second.getByRole("button", { name: "Save invoice" }).click();
  await expect(second.getByRole("status").filter({ hasText: "Invoice saved" })).toHaveText("Invoice saved. New total: $175.00.");
  await first.context().close();
  await second.context().close();
});
