/**
 * The admin console in a real browser against the built app on PostgreSQL.
 * Each user acts in their own browser context (own cookies, own client IP); the `sql`
 * fixture sets up rows the other portals would create and checks what the database holds.
 */
import type pg from "pg";
import {
  ADMIN,
  adminPage,
  expect,
  givePaymentInstructions,
  hydrated,
  login,
  PASSWORD,
  registerClient,
  newUserPage,
  test,
} from "./fixtures";
import { startIsolatedApp } from "./global-setup";

async function userId(sql: pg.Pool, email: string): Promise<string> {
  const { rows } = await sql.query('select id from "user" where email = $1', [email]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

async function insertProposal(sql: pg.Pool, values: Record<string, unknown>): Promise<number> {
  const row = {
    source: values.ambassador_id ? "ambassador" : "client",
    status: values.ambassador_id ? "submitted" : "pending",
    project_details: "A new website",
    ...values,
  };
  const columns = Object.keys(row);
  const { rows } = await sql.query(
    `insert into proposal (${columns.join(", ")}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")}) returning id`,
    Object.values(row),
  );
  return rows[0].id;
}

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

test.describe("admin console", () => {
  test("the admin changes a proposal's status (chosen, then Saved, with feedback) and it is the client's proposal status", async ({
    browser,
    page,
    sql,
  }) => {
    const client = await registerClient(page, { businessName: "Status Bakery" });
    const project = `Status site ${uid()}`;
    const proposalId = await insertProposal(sql, {
      client_id: await userId(sql, client.email),
      project_name: project,
      budget_cents: 250_000,
    });

    const admin = await adminPage(browser);
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project.toUpperCase())}`);
    await hydrated(admin);
    const row = admin.getByRole("row", { name: new RegExp(project) });
    await expect(row).toContainText("Status Bakery");
    await expect(row).toContainText(client.email);
    await expect(row).toContainText("$2,500.00");
    await admin.getByLabel(`Status of ${project}`).selectOption("review");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(admin.getByRole("status").filter({ hasText: `“${project}” is now “Review”` })).toBeVisible();
    const { rows } = await sql.query("select status from proposal where id = $1", [proposalId]);
    expect(rows[0].status).toBe("review");

    // The client's own view reads the same row (their /project-status page is 's).
    const { rows: theirs } = await sql.query('select p.status from proposal p join "user" u on u.id = p.client_id where u.email = $1', [
      client.email,
    ]);
    expect(theirs).toEqual([{ status: "review" }]);

    // Filter by status, server-side.
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}&status=pending`);
    await expect(admin.getByText("No proposal matches this search.")).toBeVisible();
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}&status=review`);
    await expect(admin.getByRole("row", { name: new RegExp(project) })).toBeVisible();
  });

  test("without JavaScript the status is saved with the Save button", async ({ browser, page, sql }) => {
    const client = await registerClient(page);
    const project = `NoJS status ${uid()}`;
    const proposalId = await insertProposal(sql, { client_id: await userId(sql, client.email), project_name: project });
    const admin = await adminPage(browser, { javaScriptEnabled: false });
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
    await admin.getByLabel(`Status of ${project}`).selectOption("completed");
    await admin
      .getByRole("row", { name: new RegExp(project) })
      .getByRole("button", { name: "Save" })
      .click();
    await expect(admin.getByText(`“${project}” is now “Completed” (was “Pending”).`)).toBeVisible();
    const { rows } = await sql.query("select status from proposal where id = $1", [proposalId]);
    expect(rows[0].status).toBe("completed");
  });

  test("generates an invoice with three items, edits it, marks it paid, filters it, deletes it and the proposal is unlinked", async ({
    browser,
    page,
    sql,
  }) => {
    test.setTimeout(60_000);
    await givePaymentInstructions(sql);
    const client = await registerClient(page, { businessName: "Invoice Cafe" });
    const project = `Invoice site ${uid()}`;
    const proposalId = await insertProposal(sql, {
      client_id: await userId(sql, client.email),
      project_name: project,
      budget_cents: 100_000,
    });
    const admin = await adminPage(browser);

    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
    await admin
      .getByRole("row", { name: new RegExp(project) })
      .getByRole("link", { name: "Generate Invoice" })
      .click();
    await expect(admin).toHaveURL(new RegExp(`/admin/generate-invoice/${proposalId}$`));
    await hydrated(admin);
    await admin.getByLabel("Item 1 description").fill("Design");
    await admin.getByLabel("Item 1 amount").fill("1,200.50");
    await admin.getByRole("button", { name: "+ Add item" }).click();
    await admin.getByLabel("Item 2 description").fill("Development");
    await admin.getByLabel("Item 2 amount").fill("$3,000");
    await admin.getByRole("button", { name: "+ Add item" }).click();
    await admin.getByLabel("Item 3 description").fill("Hosting");
    await admin.getByLabel("Item 3 amount").fill("99.99");
    await expect(admin.getByTestId("invoice-total")).toHaveText("$4,300.49");
    await admin.getByLabel("Due date").fill(isoDay(-1)); // due yesterday: overdue at once
    await admin.getByRole("button", { name: "Generate Invoice" }).click();

    await expect(admin).toHaveURL(/\/admin\/invoices\?created=INV-\d{4}-\d{4,}/);
    const { rows: created } = await sql.query(
      "select id, number, total_cents, status, client_id, due_date::text from invoice where proposal_id = $1",
      [proposalId],
    );
    expect(created).toHaveLength(1);
    const invoice = created[0];
    expect(invoice).toMatchObject({
      total_cents: 430_049,
      status: "unpaid",
      client_id: await userId(sql, client.email),
      due_date: isoDay(-1),
    });
    expect(invoice.number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{4,}$`));
    await expect(admin.getByText(`Invoice ${invoice.number} created.`)).toBeVisible();
    const { rows: items } = await sql.query("select description, amount_cents from invoice_item where invoice_id = $1 order by position", [
      invoice.id,
    ]);
    expect(items).toEqual([
      { description: "Design", amount_cents: 120_050 },
      { description: "Development", amount_cents: 300_000 },
      { description: "Hosting", amount_cents: 9_999 },
    ]);
    // The proposal now links to its invoice.
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
    await expect(admin.getByRole("link", { name: invoice.number })).toHaveAttribute("href", `/admin/invoices/edit/${invoice.id}`);

    const listed = async (filter: string) => {
      await admin.goto(`/admin/invoices?filter=${filter}&q=${invoice.number}`);
      return (await admin.getByRole("row", { name: new RegExp(invoice.number) }).count()) === 1;
    };
    expect([await listed("all"), await listed("overdue"), await listed("pending"), await listed("paid")]).toEqual([
      true,
      true,
      false,
      false,
    ]);

    // Edit: due tomorrow, second item changed; the total is recomputed on the server.
    await admin.goto(`/admin/invoices?q=${invoice.number}`);
    await admin.locator(`summary[aria-label="Actions for ${invoice.number}"]`).click();
    await admin.getByRole("link", { name: "Edit" }).click();
    await hydrated(admin);
    await admin.getByLabel("Item 2 amount").fill("2500");
    await admin.getByLabel("Due date").fill(isoDay(1));
    await admin.getByRole("button", { name: "Save invoice" }).click();
    await expect(admin.getByText("Invoice saved. New total: $3,800.49.")).toBeVisible();
    const { rows: edited } = await sql.query("select total_cents, due_date::text from invoice where id = $1", [invoice.id]);
    expect(edited[0]).toEqual({ total_cents: 380_049, due_date: isoDay(1) });
    expect([await listed("all"), await listed("overdue"), await listed("pending"), await listed("paid")]).toEqual([
      true,
      false,
      true,
      false,
    ]);

    // Record full payment (was Mark Paid, issue #25).
    await admin.goto(`/admin/invoices?q=${invoice.number}`);
    await admin.locator(`summary[aria-label="Actions for ${invoice.number}"]`).click();
    await admin.getByRole("link", { name: "Record full payment" }).click();
    await admin
      .getByRole("alertdialog", { name: `Record full payment of ${invoice.number}?` })
      .getByRole("button", { name: "Yes, record full payment" })
      .click();
    await expect(admin.getByText(`Payment of $3,800.49 recorded on ${invoice.number}. New balance: $0.00.`)).toBeVisible();
    const { rows: paid } = await sql.query("select status, paid_at is not null as has_paid_at from invoice where id = $1", [invoice.id]);
    expect(paid[0]).toEqual({ status: "paid", has_paid_at: true });
    expect([await listed("all"), await listed("overdue"), await listed("pending"), await listed("paid")]).toEqual([
      true,
      false,
      false,
      true,
    ]);

    // Delete, after a confirmation step.
    await admin.goto(`/admin/invoices?q=${invoice.number}`);
    await admin.locator(`summary[aria-label="Actions for ${invoice.number}"]`).click();
    await admin.getByRole("link", { name: "Delete" }).click();
    const dialog = admin.getByRole("alertdialog", { name: `Delete invoice ${invoice.number}?` });
    await expect(dialog).toBeVisible();
    expect((await sql.query("select count(*)::int as n from invoice where id = $1", [invoice.id])).rows[0].n).toBe(1);
    await dialog.getByRole("button", { name: "Yes, delete invoice" }).click();
    await expect(admin.getByText(`${invoice.number} was deleted`)).toBeVisible();
    await expect(admin).not.toHaveURL(/confirm=/);
    expect((await sql.query("select count(*)::int as n from invoice where id = $1", [invoice.id])).rows[0].n).toBe(0);
    expect((await sql.query("select count(*)::int as n from invoice_item where invoice_id = $1", [invoice.id])).rows[0].n).toBe(0);
    expect((await sql.query("select count(*)::int as n from proposal where id = $1", [proposalId])).rows[0].n).toBe(1);
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
    await expect(admin.getByRole("row", { name: new RegExp(project) }).getByRole("link", { name: "Generate Invoice" })).toBeVisible();
  });

  test("invoice items can be added and removed without JavaScript; the server refuses a missing amount", async ({ browser, page, sql }) => {
    await givePaymentInstructions(sql);
    const client = await registerClient(page);
    const project = `NoJS invoice ${uid()}`;
    const proposalId = await insertProposal(sql, { client_id: await userId(sql, client.email), project_name: project });
    const admin = await adminPage(browser, { javaScriptEnabled: false });
    await admin.goto(`/admin/generate-invoice/${proposalId}`);
    await admin.getByLabel("Item 1 description").fill("Design");
    await admin.getByLabel("Item 1 amount").fill("100");
    await admin.getByRole("button", { name: "+ Add item" }).click();
    await admin.getByLabel("Item 2 description").fill("Extra");
    await admin.getByRole("button", { name: "+ Add item" }).click();
    await admin.getByRole("button", { name: "Remove item 3" }).click();
    await expect(admin.getByLabel("Item 3 description")).toHaveCount(0);
    await expect(admin.getByLabel("Item 1 amount")).toHaveValue("100");
    // No "required" message after the list changes: they are not a submit.
    await expect(admin.getByText("Amount is required.")).toHaveCount(0);
    // The browser's own check is switched off so that the server's refusal shows.
    await admin.locator("#generate-invoice").evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await admin.getByRole("button", { name: "Generate Invoice" }).click();
    await expect(admin.getByText("Amount is required.")).toBeVisible();
    expect((await sql.query("select count(*)::int as n from invoice where proposal_id = $1", [proposalId])).rows[0].n).toBe(0);
    await admin.getByLabel("Item 2 amount").fill("50.5");
    await admin.getByRole("button", { name: "Generate Invoice" }).click();
    await expect(admin).toHaveURL(/\/admin\/invoices\?created=/);
    expect((await sql.query("select total_cents from invoice where proposal_id = $1", [proposalId])).rows).toEqual([
      { total_cents: 15_050 },
    ]);
  });

  test("a failed invoice generation is logged, shown as a clear message, and saves nothing", async ({
    browser,
    page,
    sql,
    consoleErrors,
  }) => {
    await givePaymentInstructions(sql);
    // The action's 500 is what this test provokes.
    consoleErrors.allow(/\/admin\/generate-invoice\/\d+\.data: fetch answered 500$/);
    const client = await registerClient(page);
    const project = `Failing invoice ${uid()}`;
    const proposalId = await insertProposal(sql, { client_id: await userId(sql, client.email), project_name: project });
    // A database failure the app cannot foresee, for this proposal only.
    const fn = `fail_invoice_${proposalId}`;
    await sql.query(
      `create function ${fn}() returns trigger language plpgsql as $$ begin if new.proposal_id = ${proposalId} then raise exception 'disk on fire'; end if; return new; end $$`,
    );
    await sql.query(`create trigger ${fn} before insert on invoice for each row execute function ${fn}()`);
    try {
      const counterBefore = (await sql.query("select coalesce(sum(last_number), 0)::int as n from invoice_counter")).rows[0].n;
      const admin = await adminPage(browser);
      await admin.goto(`/admin/generate-invoice/${proposalId}`);
      await hydrated(admin);
      await admin.getByLabel("Item 1 amount").fill("500");
      await admin.getByRole("button", { name: "Generate Invoice" }).click();
      await expect(admin.getByRole("alert")).toHaveText("The invoice could not be generated. Nothing was saved; please try again.");
      await expect(admin.getByLabel("Item 1 amount")).toHaveValue("500");
      expect((await sql.query("select count(*)::int as n from invoice where proposal_id = $1", [proposalId])).rows[0].n).toBe(0);
      expect((await sql.query("select coalesce(sum(last_number), 0)::int as n from invoice_counter")).rows[0].n).toBe(counterBefore);
    } finally {
      await sql.query(`drop trigger if exists ${fn} on invoice`);
      await sql.query(`drop function if exists ${fn}()`);
    }
  });

  test("accepts and deletes a meeting request; a date that cannot be shown reads Invalid Date", async ({ browser, page, sql }) => {
    const client = await registerClient(page, { businessName: `Meeting Co ${uid()}` });
    const id = await userId(sql, client.email);
    const { rows } = await sql.query(
      `insert into meeting (user_id, starts_at, time_zone, notes, created_at) values
         ($1, '2030-03-04 19:00:00+00', 'America/New_York', 'Accept me', now()),
         ($1, 'infinity', 'America/New_York', 'Broken date', now() + interval '1 second')
       returning id`,
      [id],
    );
    const [acceptId, brokenId] = rows.map((r) => r.id);
    const admin = await adminPage(browser);
    // A stored time that cannot be shown is listed with the past meetings.
    await admin.goto("/admin/meetings?show=past");
    const broken = admin.getByRole("row", { name: /Broken date/ });
    await expect(broken).toContainText("Invalid Date");
    await admin.goto("/admin");
    const row = admin.getByRole("row", { name: /Accept me/ });
    await expect(row).toContainText("Mar 4, 2030, 2:00 PM EST");
    await expect(row).toContainText("Pending");
    await row.locator("summary", { hasText: "Actions" }).click();
    await row.getByRole("button", { name: "Accept" }).click();
    await expect(admin.getByText("Meeting accepted.")).toBeVisible();
    await expect(row).toContainText("Accepted");
    expect((await sql.query("select status from meeting where id = $1", [acceptId])).rows[0].status).toBe("accepted");

    // Accepted and still ahead, it is listed under the upcoming meetings, with Reschedule, Cancel and Delete.
    await expect(admin.getByRole("region", { name: "Upcoming meetings" }).getByRole("row", { name: /Accept me/ })).toBeVisible();
    await row.locator("summary", { hasText: "Actions" }).click();
    await row.getByRole("link", { name: /Delete the meeting request/ }).click();
    await admin.getByRole("alertdialog").getByRole("link", { name: "Cancel" }).click();
    await expect(admin.getByRole("alertdialog")).toHaveCount(0);
    expect((await sql.query("select count(*)::int as n from meeting where id = $1", [acceptId])).rows[0].n).toBe(1);
    const deleteLink = row.getByRole("link", { name: /Delete the meeting request/ });
    if (!(await deleteLink.isVisible())) await row.locator("summary", { hasText: "Actions" }).click();
    await deleteLink.click();
    await admin.getByRole("alertdialog").getByRole("button", { name: "Yes, delete meeting" }).click();
    await expect(admin.getByText("Meeting deleted.")).toBeVisible();
    expect((await sql.query("select count(*)::int as n from meeting where id = $1", [acceptId])).rows[0].n).toBe(0);
    await sql.query("delete from meeting where id = $1", [brokenId]);
  });

  test("the delete confirmation works without JavaScript; so do a row's buttons that share its one form", async ({
    browser,
    page,
    sql,
  }) => {
    const client = await registerClient(page);
    const note = `NoJS meeting ${uid()}`;
    const declineNote = `NoJS decline ${uid()}`;
    const { rows } = await sql.query(
      `insert into meeting (user_id, starts_at, time_zone, notes) values
         ($1, now() + interval '3 days', 'UTC', $2), ($1, now() + interval '4 days', 'UTC', $3) returning id`,
      [await userId(sql, client.email), note, declineNote],
    );
    const admin = await adminPage(browser, { javaScriptEnabled: false });
    // The dashboard lists the ten soonest requests only; other tests' may come first.
    await admin.goto("/admin/meetings?show=awaiting");
    // Accept and Decline are buttons of the menu's one form (RowMenu `fields`): each posts its own intent.
    const declineRow = admin.getByRole("row", { name: new RegExp(declineNote) });
    await declineRow.getByText("Actions").click();
    await declineRow.getByRole("button", { name: "Decline" }).click();
    await expect(admin.getByText("Meeting declined.")).toBeVisible();
    expect((await sql.query("select status from meeting where id = $1", [rows[1].id])).rows[0].status).toBe("declined");
    await admin.goto("/admin/meetings?show=awaiting");
    const row = admin.getByRole("row", { name: new RegExp(note) });
    await row.getByText("Actions").click(); // a <details> menu: opens without JavaScript
    await row.getByRole("link", { name: /Delete the meeting request/ }).click();
    await expect(admin).toHaveURL(/confirm=delete-meeting/);
    await admin.getByRole("button", { name: "Yes, delete meeting" }).click();
    await expect(admin.getByText("Meeting deleted.")).toBeVisible();
    expect((await sql.query("select count(*)::int as n from meeting where id = $1", [rows[0].id])).rows[0].n).toBe(0);
    // The users list: the Reminders switch sits in another cell than the row's form and posts it (`form=`).
    await admin.goto(`/admin/users?q=${encodeURIComponent(client.email)}`);
    await admin.getByRole("switch", { name: `Pause reminders for ${client.email}` }).click();
    await expect(admin.getByText(`Reminders are paused for ${client.email}.`)).toBeVisible();
    expect((await sql.query('select reminders_paused from "user" where email = $1', [client.email])).rows[0].reminders_paused).toBe(true);
  });

  test("deactivates a user, who is thrown out of their open session, and reactivates them", async ({ browser, page, sql }) => {
    const client = await registerClient(page, { businessName: `Toggle Shop ${uid()}` });
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/client-dashboard$/);

    const admin = await adminPage(browser);
    await admin.goto(`/admin/users?q=${encodeURIComponent(client.email.toUpperCase())}`);
    const row = admin.getByRole("row", { name: new RegExp(client.email) });
    await expect(row).toContainText("Client");
    await expect(row).toContainText("Active");
    await row.getByRole("button", { name: `Deactivate ${client.email}` }).click();
    await expect(admin.getByText(`${client.email} is deactivated and signed out everywhere.`)).toBeVisible();
    await expect(row).toContainText("Deactivated");
    expect((await sql.query('select banned from "user" where email = $1', [client.email])).rows[0].banned).toBe(true);

    // Their open session is over at the next request, and signing in is refused.
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel("Email").fill(client.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(/has been deactivated/)).toBeVisible();

    await row.getByRole("button", { name: `Reactivate ${client.email}` }).click();
    await expect(admin.getByText(`${client.email} is active again and can sign in.`)).toBeVisible();
    await login(page, client.email);
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/client-dashboard$/);
  });

  test("user search excludes admins; deleting a user after confirmation removes their records", async ({ browser, page, sql }) => {
    const client = await registerClient(page, { businessName: `Leaving Ltd ${uid()}` });
    const id = await userId(sql, client.email);
    await insertProposal(sql, { client_id: id, project_name: "Leaving project" });
    await sql.query("insert into meeting (user_id, starts_at, time_zone) values ($1, now(), 'UTC')", [id]);
    const admin = await adminPage(browser);
    await admin.goto(`/admin/users?q=${encodeURIComponent(ADMIN.email)}`);
    await expect(admin.getByText("No user matches this search.")).toBeVisible();

    await admin.goto(`/admin/users?q=${encodeURIComponent(client.email)}`);
    await admin.getByRole("link", { name: `Delete ${client.email}` }).click();
    const dialog = admin.getByRole("alertdialog", { name: `Delete ${client.email}?` });
    await expect(dialog).toContainText("1 proposal, 0 invoices, 1 meeting request will be deleted");
    await dialog.getByRole("button", { name: "Yes, delete user" }).click();
    await expect(admin.getByText(`${client.email} was deleted with 1 proposal, 1 meeting.`)).toBeVisible();
    for (const [table, column] of [
      ['"user"', "id"],
      ["proposal", "client_id"],
      ["meeting", "user_id"],
      ["session", "user_id"],
      ["account", "user_id"],
    ]) {
      expect((await sql.query(`select count(*)::int as n from ${table} where ${column} = $1`, [id])).rows[0].n, table).toBe(0);
    }
  });

  test("non-admins are sent away from the admin pages and their posts change nothing", async ({ page, sql }) => {
    const client = await registerClient(page);
    const project = `Guarded ${uid()}`;
    const proposalId = await insertProposal(sql, { client_id: await userId(sql, client.email), project_name: project });
    await page.goto("/admin/proposals");
    await expect(page).toHaveURL(/\/client-dashboard$/);
    const response = await page.request.post("/admin/proposals", {
      form: { intent: "set-status", proposalId: String(proposalId), status: "completed" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect((await sql.query("select status from proposal where id = $1", [proposalId])).rows[0].status).toBe("pending");
  });
});

// Settings are global: these tests run on an instance of their own so that turning off new
// clients or renaming the company never affects tests running in parallel.
test.describe("admin settings", () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  test.beforeAll(async () => {
    app = await startIsolatedApp("settings");
  });
  test.afterAll(async () => {
    await app.stop();
  });

  test("saves settings; the message disappears after 3 s; a bad rate fails with the failure message", async ({ browser }) => {
    const sql = app.sql;
    const admin = await adminPage(browser, { baseURL: app.baseUrl });
    await admin.goto("/admin/settings");
    await hydrated(admin);
    const name = `Studio ${uid()}`;
    await admin.getByLabel("Company name").fill(name);
    await admin.getByLabel("Support email").fill("Help@Studio.example");
    await admin.getByRole("button", { name: "Save settings" }).click();
    const saved = admin.getByText("✅ Settings saved.");
    await expect(saved).toBeVisible();
    const shownAt = Date.now();
    await expect(saved).toBeHidden({ timeout: 6_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2_000);
    const { rows } = await sql.query(
      "select company_name, support_email, allow_new_clients, commission_rate_bps from settings where id = 1",
    );
    expect(rows[0]).toEqual({
      company_name: name,
      support_email: "help@studio.example",
      allow_new_clients: true,
      commission_rate_bps: 1500,
    });

    await admin.goto("/admin/settings/commissions");
    await hydrated(admin);
    await admin.getByLabel("Ambassador commission (%)").fill("150");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText("The rate must be between 0 and 100 %.")).toBeVisible();
    // The browser validates first; the server's answer is checked without JavaScript below.
    const noJs = await adminPage(browser, { javaScriptEnabled: false, baseURL: app.baseUrl });
    await noJs.goto("/admin/settings/commissions");
    await noJs.getByLabel("Ambassador commission (%)").fill("150");
    await noJs.getByRole("button", { name: "Save settings" }).click();
    await expect(noJs.getByText("❌ Failed to save settings.")).toBeVisible();
    await expect(noJs.getByText("The rate must be between 0 and 100 %.")).toBeVisible();
    expect((await sql.query("select commission_rate_bps from settings where id = 1")).rows[0].commission_rate_bps).toBe(1500);
  });

  test("turning off new clients refuses client registration until it is turned on again", async ({ browser }) => {
    const sql = app.sql;
    const admin = await adminPage(browser, { baseURL: app.baseUrl });
    const setAllow = async (allow: boolean) => {
      await admin.goto("/admin/settings/sign-in");
      await hydrated(admin);
      await admin.getByLabel("Allow new clients").setChecked(allow);
      await admin.getByRole("button", { name: "Save settings" }).click();
      await expect(admin.getByText("✅ Settings saved.")).toBeVisible();
      expect((await sql.query("select allow_new_clients from settings where id = 1")).rows[0].allow_new_clients).toBe(allow);
    };
    await setAllow(false);
    try {
      const visitor = await newUserPage(browser, { baseURL: app.baseUrl });
      await visitor.goto("/register");
      await expect(visitor.getByText("New client registrations are currently closed.")).toBeVisible();
      const email = `closed-${uid()}@example.com`;
      const response = await visitor.request.post("/register", {
        form: { businessName: "Late Co", email, phone: "301 555 0100", password: PASSWORD },
      });
      expect(response.status()).toBe(403);
      expect((await sql.query('select count(*)::int as n from "user" where email = $1', [email])).rows[0].n).toBe(0);
    } finally {
      await setAllow(true);
    }
    const visitor = await newUserPage(browser, { baseURL: app.baseUrl });
    await registerClient(visitor);
  });
});
