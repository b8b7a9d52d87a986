/**
 * Safe admin actions (docs/product.md#proposals-admin-status, #invoices-paying; payouts: commissions.spec.ts):
 * - the status dropdown only selects: ArrowDown on it changes nothing in the database; Save
 *   applies the choice; Undo (in a toast that moves nothing) restores it; the audit trail holds both;
 * - Record full payment asks for a confirmation naming the invoice, amount and new balance; Cancel
 *   changes nothing; two confirmations at once record one payment (audited) — for invoices.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import type pg from "pg";
import { expect, hydrated, loginAsAdmin, registerClient, test, uniqueIp } from "./fixtures";

let adminState: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;

/** A signed-in admin page (one sign-in per worker: sign-in is rate limited per account). */
async function adminPage(browser: Browser, javaScriptEnabled = true): Promise<Page> {
  const options = { baseURL: process.env.E2E_BASE_URL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } };
  if (!adminState) {
    const context = await browser.newContext(options);
    await loginAsAdmin(await context.newPage());
    adminState = await context.storageState();
    await context.close();
  }
  const context = await browser.newContext({ ...options, javaScriptEnabled, storageState: adminState });
  return context.newPage();
}

async function userId(sql: pg.Pool, email: string): Promise<string> {
  return (await sql.query('select id from "user" where email = $1', [email])).rows[0].id;
}

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function statusOf(sql: pg.Pool, id: number): Promise<string> {
  return (await sql.query("select status from proposal where id = $1", [id])).rows[0].status;
}

async function auditOf(sql: pg.Pool, entity: string, id: number) {
  const { rows } = await sql.query("select action, before, after from audit_event where entity = $1 and entity_id = $2 order by id", [
    entity,
    String(id),
  ]);
  return rows as { action: string; before: Record<string, unknown>; after: Record<string, unknown> }[];
}

/**
 * A new client's proposal named "`prefix` <unique>" with `status`, and an admin page on the
 * proposal list searched for it (hydrated when JavaScript is on).
 */
async function proposalOnAdminList(browser: Browser, page: Page, sql: pg.Pool, prefix: string, status: string, javaScriptEnabled = true) {
  const client = await registerClient(page);
  const project = `${prefix} ${uid()}`;
  const { rows } = await sql.query(
    "insert into proposal (source, status, project_details, client_id, project_name) values ('client', $3, 'x', $1, $2) returning id",
    [await userId(sql, client.email), project, status],
  );
  const admin = await adminPage(browser, javaScriptEnabled);
  await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
  if (javaScriptEnabled) await hydrated(admin);
  return { id: rows[0].id as number, project, admin };
}

test.describe("safe admin actions", () => {
  test("keyboard: ArrowDown on the status dropdown changes nothing; Save applies; Undo restores; the audit trail holds both", async ({
    browser,
    page,
    sql,
  }) => {
    test.setTimeout(60_000);
    const { id, project, admin } = await proposalOnAdminList(browser, page, sql, "Keyboard site", "pending");
    const select = admin.getByLabel(`Status of ${project}`);
    await select.focus();
    await admin.keyboard.press("ArrowDown");
    await admin.keyboard.press("ArrowDown");
    await expect(select).toHaveValue("in_progress");
    await admin.waitForTimeout(1_000); // nothing is posted on selection
    expect(await statusOf(sql, id)).toBe("pending");
    expect(await auditOf(sql, "proposal", id)).toEqual([]);

    // Enter (or Save) applies it.
    await admin.keyboard.press("Enter");
    const toast = admin.getByRole("status").filter({ hasText: `“${project}” is now “In progress” (was “Pending”).` });
    await expect(toast).toBeVisible();
    expect(await statusOf(sql, id)).toBe("in_progress");

    // The toast floats: the table does not move when it appears.
    const table = admin.getByRole("table", { name: "Proposals" });
    const top = (await table.boundingBox())!.y;
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(admin.getByRole("status").filter({ hasText: `Undone: “${project}” is back to “Pending”.` })).toBeVisible();
    expect((await table.boundingBox())!.y).toBe(top);
    expect(await statusOf(sql, id)).toBe("pending");
    await expect(select).toHaveValue("pending");
    const events = await auditOf(sql, "proposal", id);
    expect(events.map((e) => [e.action, e.before.status, e.after.status])).toEqual([
      ["status-changed", "pending", "in_progress"],
      ["status-undone", "in_progress", "pending"],
    ]);

    // An Undo cannot be replayed.
    const eventId = (
      await sql.query("select id from audit_event where entity = 'proposal' and entity_id = $1 and action = 'status-changed'", [String(id)])
    ).rows[0].id;
    const replay = await admin.request.post("/admin/proposals", { form: { intent: "undo-status", eventId: String(eventId) } });
    expect(replay.status()).toBe(409);
    expect(await statusOf(sql, id)).toBe("pending");

    // The toast's live region exists before anything is said (so it is announced), and it hides itself.
    await expect(admin.getByRole("status").filter({ hasText: "Undone" })).toHaveCount(0, { timeout: 15_000 });
  });

  // Under load the toast (the action's answer) shows before the list's data has reloaded: React
  // Router commits the answer first and runs the loaders after it. Here the reloads are held back
  // (as a busy machine does) so that Undo, and a second choice, come in that window.
  test("Undo, or another choice, while the list is still reloading after Save: the dropdown shows the truth and Save sends the new choice", async ({
    browser,
    page,
    sql,
  }) => {
    test.setTimeout(60_000);
    const { id, project, admin } = await proposalOnAdminList(browser, page, sql, "Slow reload", "pending");
    // Every data reload of the page (React Router's GET of `….data`) answers 2 s late.
    let started = 0;
    let inFlight = 0;
    await admin.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        if (route.request().method() !== "GET") return route.continue();
        started++;
        inFlight++;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await route.continue().catch(() => undefined); // an aborted reload (Undo came first)
        inFlight--;
      },
    );
    /** Waits until the `n`th reload has been asked for and every reload has answered. */
    const reloaded = (n: number) => expect.poll(() => started >= n && inFlight === 0, { timeout: 20_000 }).toBe(true);
    const select = admin.getByLabel(`Status of ${project}`);
    const row = admin.getByRole("row", { name: new RegExp(project) });

    // Undo before the list has reloaded after Save.
    await select.selectOption("in_progress");
    await row.getByRole("button", { name: /^Save/ }).click();
    const toast = admin.getByRole("status").filter({ hasText: `“${project}” is now “In progress” (was “Pending”).` });
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(admin.getByRole("status").filter({ hasText: `Undone: “${project}” is back to “Pending”.` })).toBeVisible();
    await expect(select).toHaveValue("pending");
    await reloaded(2);
    await expect(select).toHaveValue("pending");
    expect(await statusOf(sql, id)).toBe("pending");

    // Another choice before the list has reloaded after Save: it stays chosen, and Save sends it.
    await select.selectOption("planning");
    await row.getByRole("button", { name: /^Save/ }).click();
    await expect(admin.getByRole("status").filter({ hasText: `“${project}” is now “Planning” (was “Pending”).` })).toBeVisible();
    await select.selectOption("completed");
    await reloaded(3);
    await expect(select).toHaveValue("completed");
    await row.getByRole("button", { name: /^Save/ }).click();
    await expect(admin.getByRole("status").filter({ hasText: `“${project}” is now “Completed” (was “Planning”).` })).toBeVisible();
    await reloaded(4);
    await expect(select).toHaveValue("completed");
    expect(await statusOf(sql, id)).toBe("completed");
  });

  test("without JavaScript: Save applies the status and Undo restores it", async ({ browser, page, sql }) => {
    const { id, project, admin } = await proposalOnAdminList(browser, page, sql, "NoJS undo", "planning", false);
    await admin.getByLabel(`Status of ${project}`).selectOption("completed");
    expect(await statusOf(sql, id)).toBe("planning");
    await admin
      .getByRole("row", { name: new RegExp(project) })
      .getByRole("button", { name: "Save" })
      .click();
    await expect(admin.getByText(`“${project}” is now “Completed” (was “Planning”).`)).toBeVisible();
    expect(await statusOf(sql, id)).toBe("completed");
    await admin.getByRole("button", { name: "Undo", exact: true }).click();
    await expect(admin.getByText(`Undone: “${project}” is back to “Planning”.`)).toBeVisible();
    expect(await statusOf(sql, id)).toBe("planning");
  });

  test("Record full payment (was Mark paid): confirmation names the invoice, amount and new balance; Cancel changes nothing; two confirmations at once pay once", async ({
    browser,
    page,
    sql,
  }) => {
    const client = await registerClient(page, { businessName: `Pay Shop ${uid()}` });
    const clientId = await userId(sql, client.email);
    const { rows } = await sql.query(
      "insert into proposal (source, status, project_details, client_id, project_name) values ('client', 'pending', 'x', $1, $2) returning id",
      [clientId, `Paid site ${uid()}`],
    );
    const number = `INV-SAFE-${uid()}`;
    const invoice = (
      await sql.query(
        "insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, current_date + 10, 123456) returning id",
        [number, rows[0].id, clientId],
      )
    ).rows[0].id as number;
    const paidState = async () =>
      (
        await sql.query(
          "select status, paid_at is not null as has_paid_at, (select count(*)::int from payments where invoice_id = $1) as payments from invoice where id = $1",
          [invoice],
        )
      ).rows[0];

    const admin = await adminPage(browser);
    await admin.goto(`/admin/invoices?q=${number}`);
    await hydrated(admin);
    await admin.locator(`summary[aria-label="Actions for ${number}"]`).click();
    await admin.getByRole("link", { name: "Record full payment" }).click();
    const dialog = admin.getByRole("alertdialog", { name: `Record full payment of ${number}?` });
    await expect(dialog).toContainText("$1,234.56");
    await expect(dialog).toContainText("New balance: $0.00");
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect(await paidState()).toEqual({ status: "unpaid", has_paid_at: false, payments: 0 });

    // Two confirmations at once (double submission): one payment, one audit event.
    const confirm = () =>
      admin.request.post(`/admin/invoices?q=${number}`, { form: { intent: "record-full-payment", invoiceId: String(invoice) } });
    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((a) => a.status())).toEqual([200, 200]);
    expect(await paidState()).toEqual({ status: "paid", has_paid_at: true, payments: 1 });
    const events = await auditOf(sql, "invoice", invoice);
    expect(events.map((e) => [e.action, e.before.status, e.after.status])).toEqual([["payment-recorded", "pending", "paid"]]);

    // The audit trail writes the values with the vocabulary, not as raw keys.
    await admin.goto("/admin/audit?entity=invoice");
    const row = admin.getByRole("row", { name: new RegExp(`invoice #${invoice} payment-recorded`) });
    await expect(row).toContainText("status: Unpaid → Paid");
  });
});
