/**
 * Automatic reminders in the admin console (docs/product.md#reminders-admin), in a real browser
 * against the built app on PostgreSQL: the invoice page lists the reminders that went out (from
 * the reminder ledger and the outbox); "Send reminder now" mails the client once and refuses a
 * second within the hour (429, with the wait); the settings page has its own reminders form; the
 * users page has the "Pause reminders" switch.
 */
import { adminPage, expect, loginAsAdmin, mailTo, test, uniqueEmail } from "./fixtures";

test("the admin sees the reminders sent for an invoice; Send reminder now works once, then waits an hour", async ({ page, sql }) => {
  const email = uniqueEmail("remind");
  const userId = `e2e-rem-${Date.now().toString(36)}`;
  await sql.query(
    `insert into "user" (id, name, email, role, email_verified, business_name) values ($1, 'Rita Reminder', $2, 'client', true, 'Rita Co')`,
    [userId, email],
  );
  const { rows: p } = await sql.query(
    `insert into proposal (client_id, source, status, project_details, project_name) values ($1, 'client', 'in_progress', 'A shop', 'Rita shop') returning id`,
    [userId],
  );
  const number = `INV-REM-${Date.now().toString(36)}`;
  const { rows: inv } = await sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, (now() + interval '3 days')::date, 250000) returning id`,
    [number, p[0].id, userId],
  );
  const invoiceId = inv[0].id as number;
  await sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Website', 250000)`, [
    invoiceId,
  ]);
  // A reminder the sweep sent two hours ago (its mail delivered).
  const { rows: mail } = await sql.query(
    `insert into mail_outbox ("to", subject, text, sent_at) values ($1, 'Reminder: earlier', 'Earlier reminder', now() - interval '2 hours') returning id`,
    [email],
  );
  await sql.query(
    `insert into reminders_sent (record_kind, record_id, kind, step, status, due_at, sent_at, outbox_id)
     values ('invoice', $1, 'invoice-due', '-3', 'sent', now() - interval '2 hours', now() - interval '2 hours', $2)`,
    [invoiceId, mail[0].id],
  );

  await loginAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/admin/invoices/edit/${invoiceId}`);
  const panel = page.getByRole("region", { name: "Reminders" });
  const sent = panel.getByRole("list", { name: "Reminders sent" });
  await expect(sent.getByRole("listitem")).toHaveCount(1);
  await expect(sent).toContainText("Payment reminder · 3 days before the due date");
  await expect(sent).toContainText(`mail delivered to ${email}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await panel.getByRole("button", { name: "Send reminder now" }).click();
  await expect(panel.getByText("Reminder sent.")).toBeVisible();
  await expect(sent.getByRole("listitem")).toHaveCount(2);
  await expect(sent.getByRole("listitem").first()).toContainText("Sent now by an admin");
  const delivered = await mailTo(email, new RegExp(`^Reminder: invoice ${number} is due on ${formatDue(3)}`));
  expect(delivered.text).toContain(`/view-invoice/${invoiceId}`);

  await panel.getByRole("button", { name: "Send reminder now" }).click();
  await expect(panel.getByText(/A reminder for this record went out less than an hour ago\. Try again in (59|60) minutes\./)).toBeVisible();
  await expect(sent.getByRole("listitem")).toHaveCount(2);
  const { rows: manual } = await sql.query(`select count(*)::int as n from reminders_sent where record_id = $1 and kind = 'manual'`, [
    invoiceId,
  ]);
  expect(manual[0].n).toBe(1);
  const { rows: audits } = await sql.query(
    `select count(*)::int as n from audit_event where entity = 'invoice' and entity_id = $1 and action = 'reminder-sent'`,
    [String(invoiceId)],
  );
  expect(audits[0].n).toBe(1);

  // The users page: the per-client "Pause reminders" switch.
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  const toggle = page.getByRole("switch", { name: `Pause reminders for ${email}` });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await toggle.click();
  await expect(page.getByRole("status").filter({ hasText: `Reminders are paused for ${email}.` })).toBeVisible();
  await expect(page.getByRole("switch", { name: `Pause reminders for ${email}` })).toHaveAttribute("aria-checked", "true");
  const { rows: paused } = await sql.query(`select reminders_paused from "user" where id = $1`, [userId]);
  expect(paused[0].reminders_paused).toBe(true);
});

test("the reminder settings form validates the days next to the field and saves", async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto("/admin/settings/reminders");
  const form = page.getByRole("region", { name: "Automatic reminders" });
  await expect(form.getByLabel("Invoice reminder days")).toHaveValue("-3, 0, 7, 14");
  await form.getByLabel("Invoice reminder days").fill("-3, zero");
  await form.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(
    form.getByText("Write the days as whole numbers separated by commas, e.g. -3, 0, 7, 14 (negative: before the due date)."),
  ).toBeVisible();
  await form.getByLabel("Invoice reminder days").fill("14, -3, 0, 7");
  await form.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(form.getByText("✅ Reminder settings saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Automatic reminders" }).getByLabel("Invoice reminder days")).toHaveValue("-3, 0, 7, 14");
});

test("without JavaScript: Send reminder now on a proposal waiting for the client answers on the reminders page", async ({
  browser,
  sql,
}) => {
  const email = uniqueEmail("remind-nojs");
  const userId = `e2e-rem-nojs-${Date.now().toString(36)}`;
  await sql.query(`insert into "user" (id, name, email, role, email_verified) values ($1, 'Nora NoJs', $2, 'client', true)`, [
    userId,
    email,
  ]);
  const { rows } = await sql.query(
    `insert into proposal (client_id, client_email, source, status, project_details, project_name) values ($1, $2, 'client', 'awaiting_acceptance', 'An offer', 'Nora site') returning id`,
    [userId, email],
  );
  // An offer the agency sent (#26): the proposal waits for the client's acceptance.
  const proposalId = rows[0].id as number;
  const page = await adminPage(browser, { javaScriptEnabled: false });
  await page.goto(`/admin/proposals/${proposalId}`);
  const panel = page.getByRole("region", { name: "Reminders" });
  await expect(panel).toContainText("No reminder has gone out for this proposal yet.");
  await panel.getByRole("button", { name: "Send reminder now" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/reminders/proposal/${proposalId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Reminders: Proposal Nora site");
  await expect(page.getByText("Reminder sent.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Reminders sent" })).toContainText("Sent now by an admin");
  const mail = await mailTo(email, /^Nora site is waiting for your answer/);
  expect(mail.text).toContain(`/proposals/${proposalId}`);
});

/** The due date `days` from today (UTC), as the mails write it ("Nov 28, 2026"). */
function formatDue(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(d);
}
