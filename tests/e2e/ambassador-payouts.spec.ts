/**
 * The ambassador's Payouts page (issue #41, docs/product.md#commissions-ledger) in a real browser:
 * the admin records a payment on an invoice of the ambassador's proposal and pays the commission out
 * with "Create payout"; the ambassador opens Payouts from the portal menu at 390 px and sees the
 * payout (date, amount, method, reference, the proposal and invoice it covered), axe clean and
 * without sideways scroll; another ambassador sees the empty state and nothing of it.
 */
import { axeBuilder } from "./axe";
import { formatDate } from "../../app/lib/vocabulary";
import { adminPage, expect, hydrated, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";

test("an admin's payout shows on its ambassador's Payouts page, never on another ambassador's", async ({ browser, sql }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const ambassadorPage = await newUserPage(browser);
  await ambassadorPage.setViewportSize({ width: 390, height: 844 });
  const ambassador = await registerAmbassador(ambassadorPage, { name: `Paula Payout ${stamp}` });
  const clientPage = await newUserPage(browser);
  const client = await registerClient(clientPage, { referralCode: ambassador.referralCode, businessName: `Payout Bakery ${stamp}` });
  await clientPage.context().close();
  const id = async (email: string) => (await sql.query('select id from "user" where email = $1', [email])).rows[0].id as string;
  const ambassadorId = await id(ambassador.email);
  const clientId = await id(client.email);
  // A proposal the ambassador made and the client approved at 15 %, with a $2,000 invoice.
  const project = `Payout relaunch ${stamp}`;
  const invoiceNumber = `INV-2026-P${stamp.slice(-5).toUpperCase()}`;
  const { rows: proposals } = await sql.query(
    `insert into proposal (source, status, project_details, project_name, ambassador_id, client_id, client_name, client_email, budget_cents, client_approved_at, commission_rate_bps)
     values ('ambassador', 'in_progress', 'x', $4, $1, $2, 'Payout Bakery', $3, 200000, now(), 1500) returning id`,
    [ambassadorId, clientId, client.email, project],
  );
  const { rows: invoices } = await sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, '2030-01-01', 200000) returning id`,
    [invoiceNumber, proposals[0].id, clientId],
  );

  // Before any payout: the ambassador's Payouts page says so.
  await ambassadorPage.goto("/ambassador/dashboard");
  const menu = ambassadorPage.locator("header details.menu");
  await menu.locator("summary").click();
  await ambassadorPage.locator("header details.menu + nav").getByRole("link", { name: "Payouts" }).click();
  await expect(ambassadorPage).toHaveURL(/\/ambassador\/payouts$/);
  await expect(ambassadorPage.getByRole("heading", { level: 1, name: "Payouts" })).toBeVisible();
  await expect(ambassadorPage.getByText("No payouts yet.")).toBeVisible();

  // The admin records a $1,000 payment (+$150.00), the hold passes, and the admin creates the payout.
  const admin = await adminPage(browser);
  await admin.goto(`/admin/invoices/${invoices[0].id}/payments`);
  await hydrated(admin);
  const form = admin.locator("#record-payment");
  await form.getByLabel("Amount").fill("1000");
  await form.getByRole("button", { name: "Record payment" }).click();
  await expect(admin.getByText(/^Payment of .* recorded\./).first()).toBeVisible();
  await sql.query("update commission_entries set payable_at = now() - interval '1 minute' where ambassador_id = $1", [ambassadorId]);
  await admin.goto(`/admin/ambassadors?ambassador=${ambassadorId}`);
  await hydrated(admin);
  await admin.getByRole("link", { name: `Create payout for ${ambassador.name}` }).click();
  const panel = admin.getByRole("form", { name: `Pay out $150.00 to ${ambassador.name}?` });
  await panel.getByLabel("Reference").fill(`SEPA-${stamp}`);
  await panel.getByLabel("Method").selectOption("bank_transfer");
  await panel.getByRole("button", { name: "Yes, create payout" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `Payout of $150.00 to ${ambassador.name} created.` })).toBeVisible();
  const { rows: made } = await sql.query("select paid_at from payouts where ambassador_id = $1", [ambassadorId]);
  expect(made).toHaveLength(1);
  await admin.context().close();

  // The ambassador sees it: date, amount, method, reference, and the proposal and invoice it covered.
  await ambassadorPage.reload();
  const table = ambassadorPage.getByRole("table", { name: "Your payouts" });
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").nth(1);
  await expect(row.getByTestId("payout-amount")).toHaveText("$150.00");
  await expect(row).toContainText(`SEPA-${stamp}`);
  await expect(row).toContainText("Bank transfer");
  await expect(row.locator("time")).toHaveText(formatDate(made[0].paid_at as Date, "UTC"));
  const covered = row.getByRole("list", { name: /What payout #\d+ covered/ });
  await expect(covered).toContainText(project);
  await expect(covered).toContainText(`${invoiceNumber} · 1 commission · $150.00`);
  await expect(ambassadorPage.getByRole("navigation", { name: "Pages of payouts" })).toContainText("1 payout");
  expect(await ambassadorPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const { violations } = await axeBuilder(ambassadorPage).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);

  // Another ambassador: the empty state, nothing of the first one's payout.
  const otherPage = await newUserPage(browser);
  await registerAmbassador(otherPage, { name: `Otto Other ${stamp}` });
  await otherPage.goto("/ambassador/payouts");
  await expect(otherPage.getByText("No payouts yet.")).toBeVisible();
  await expect(otherPage.getByRole("table", { name: "Your payouts" })).toHaveCount(0);
  const body = await otherPage.content();
  for (const secret of [`SEPA-${stamp}`, project, invoiceNumber]) expect(body).not.toContain(secret);
  for (const page of [ambassadorPage, otherPage]) await page.context().close();
});
