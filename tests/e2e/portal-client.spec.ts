/**
 * The client portal in a real browser: proposals (request, edit, delete, the
 * completed toggle, revisions), meetings, invoices, and the refusals a client meets.
 * Statuses and invoices are set in the database, as the admin console would.
 */
import type pg from "pg";
import type { Browser } from "@playwright/test";
import { bookFreeSlot, expect, hydrated, registerClient, test, uniqueIp } from "./fixtures";

async function userId(sql: pg.Pool, email: string): Promise<string> {
  const { rows } = await sql.query(`select id from "user" where email = $1`, [email]);
  return rows[0].id;
}

async function insertProposal(
  sql: pg.Pool,
  values: { clientId: string; projectName: string; status?: string; createdAt?: string; source?: string; ambassadorId?: string },
): Promise<number> {
  const { rows } = await sql.query(
    `insert into proposal (client_id, source, project_name, project_details, status, ambassador_id, created_at)
     values ($1, $2, $3, 'Details of ' || $3, $4, $5, coalesce($6::timestamptz, now())) returning id`,
    [
      values.clientId,
      values.source ?? "client",
      values.projectName,
      values.status ?? "pending",
      values.ambassadorId ?? null,
      values.createdAt ?? null,
    ],
  );
  return rows[0].id;
}

async function insertInvoice(
  sql: pg.Pool,
  opts: { proposalId: number; clientId: string; dueDate: string; items: [string, number][] },
): Promise<number> {
  const total = opts.items.reduce((sum, [, cents]) => sum + cents, 0);
  const { rows } = await sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents) values ($1, $2, $3, $4, 'unpaid', $5) returning id`,
    [`INV-E2E-${Date.now()}-${opts.proposalId}`, opts.proposalId, opts.clientId, opts.dueDate, total],
  );
  for (const [position, [description, amount]] of opts.items.entries()) {
    await sql.query(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, $2, $3, $4)`, [
      rows[0].id,
      position,
      description,
      amount,
    ]);
  }
  return rows[0].id;
}

/** A second, separate browser session (its own cookies and client IP). */
async function otherSession(browser: Browser) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
  return { context, page: await context.newPage() };
}

test.describe("client portal", () => {
  test("requests, edits and deletes a proposal; the budget is stored in cents", async ({ page, sql }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    const name = `Bakery site ${Date.now()}`;

    await page.goto("/proposal-request");
    await hydrated(page);
    await page.getByLabel("Project name (optional)").fill(name);
    await page.getByLabel("Budget (optional)").fill("five grand");
    await page.getByRole("button", { name: "Submit request" }).click();
    // The browser checks the fields' constraints with the schema's own messages, before any post …
    await expect(page.getByText("Project details is required.")).toBeVisible();
    await expect(page.getByLabel("Project details")).toBeFocused();
    await expect(page.getByText("Enter an amount like 5000 or $5,000.50")).toHaveCount(0);
    expect((await sql.query("select count(*)::int as n from proposal where client_id = $1", [id])).rows[0].n).toBe(0);
    // … and the server answers what only it checks (the amount's format), next to the field.
    await page.getByLabel("Project details").fill("An online menu with ordering.");
    await expect(page.getByText("Project details is required.")).toHaveCount(0);
    await page.getByRole("button", { name: "Submit request" }).click();
    await expect(page.getByText("Enter an amount like 5000 or $5,000.50")).toBeVisible();
    await expect(page.getByLabel("Project details")).toHaveValue("An online menu with ordering.");
    expect((await sql.query("select count(*)::int as n from proposal where client_id = $1", [id])).rows[0].n).toBe(0);

    await page.getByLabel("Budget (optional)").fill("$5,000.50");
    await page.getByLabel("Number of pages (optional)").fill("6");
    await page.getByLabel("Website goal (optional)").selectOption("Creative");
    await page.getByRole("button", { name: "Submit request" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Proposal request submitted successfully." })).toBeVisible();
    await expect(page.getByLabel("Project name (optional)")).toHaveValue("");

    const { rows } = await sql.query(
      `select id, status, source, budget_cents, number_of_pages, website_goal from proposal where client_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      { id: expect.any(Number), status: "pending", source: "client", budget_cents: 500_050, number_of_pages: 6, website_goal: "Creative" },
    ]);
    const proposalId = rows[0].id;

    // Edit from Project Status.
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Project Status" }).click();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
    await expect(card.getByText("Pending", { exact: true })).toBeVisible();
    await expect(card.getByText("$5,000.50")).toBeVisible();
    await card.getByRole("link", { name: /Edit/ }).click();
    await expect(page).toHaveURL(new RegExp(`/edit-proposal/${proposalId}$`));
    await hydrated(page);
    await expect(page.getByLabel("Budget (optional)")).toHaveValue("5000.50");
    await page.getByLabel("Project name (optional)").fill(`${name} v2`);
    await page.getByLabel("Budget (optional)").fill("6000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/project-status\?notice=updated$/);
    await expect(page.getByRole("status").filter({ hasText: "Proposal updated." })).toBeVisible();
    const edited = await sql.query(`select project_name, budget_cents from proposal where id = $1`, [proposalId]);
    expect(edited.rows[0]).toEqual({ project_name: `${name} v2`, budget_cents: 600_000 });

    // Delete asks for confirmation first; Cancel keeps it.
    const editedCard = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `${name} v2` }) });
    await editedCard.getByRole("link", { name: "Delete" }).click();
    await expect(editedCard.getByText("Delete this proposal? This cannot be undone.")).toBeVisible();
    await editedCard.getByRole("link", { name: "Cancel" }).click();
    await expect(editedCard.getByRole("button", { name: "Yes, delete" })).toBeHidden();
    await editedCard.getByRole("link", { name: "Delete" }).click();
    await editedCard.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Proposal deleted." })).toBeVisible();
    await expect(page.getByRole("heading", { name: `${name} v2` })).toHaveCount(0);
    expect((await sql.query(`select count(*)::int as n from proposal where id = $1`, [proposalId])).rows[0].n).toBe(0);
  });

  test("refuses editing a proposal that is not pending, and never shows another client's", async ({ page, sql, browser }) => {
    const owner = await registerClient(page);
    const ownerId = await userId(sql, owner.email);
    const planning = await insertProposal(sql, { clientId: ownerId, projectName: "In planning", status: "planning" });

    const response = await page.goto(`/edit-proposal/${planning}`);
    expect(response!.status()).toBe(409);
    await expect(page.getByRole("alert")).toHaveText("Only pending proposals can be edited. This one is planning.");
    // Neither Edit nor Delete is offered on Project Status.
    await page.goto("/project-status");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "In planning" }) });
    await expect(card.getByText("Planning", { exact: true })).toBeVisible();
    await expect(card.getByRole("link", { name: /Edit/ })).toHaveCount(0);
    await expect(card.getByRole("link", { name: "Delete" })).toHaveCount(0);

    const secret = await insertProposal(sql, { clientId: ownerId, projectName: "Secret pending project" });
    const { context: intruderContext, page: intruder } = await otherSession(browser);
    try {
      await registerClient(intruder);
      const other = await intruder.goto(`/edit-proposal/${secret}`);
      expect(other!.status()).toBe(404);
      await expect(intruder.getByRole("alert")).toHaveText("Proposal not found");
      await expect(intruder.getByText("Secret pending project")).toHaveCount(0);
      // A crafted delete of another client's proposal is refused and changes nothing.
      const post = await intruder.request.post("/project-status", {
        form: { intent: "delete-proposal", id: String(secret), confirm: "yes" },
      });
      expect(post.status()).toBe(404);
      expect((await sql.query(`select count(*)::int as n from proposal where id = $1`, [secret])).rows[0].n).toBe(1);
    } finally {
      await intruderContext.close();
    }
  });

  test("shows completed projects only with the toggle, newest first", async ({ page, sql }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    await insertProposal(sql, { clientId: id, projectName: "Older active", createdAt: "2026-01-01T00:00:00Z" });
    await insertProposal(sql, { clientId: id, projectName: "Finished site", status: "completed", createdAt: "2026-01-02T00:00:00Z" });
    await insertProposal(sql, { clientId: id, projectName: "Newer active", status: "in_progress", createdAt: "2026-01-03T00:00:00Z" });

    await page.goto("/project-status");
    const headings = page.getByRole("list", { name: "Proposals" }).getByRole("heading");
    await expect(headings).toHaveText(["Newer active", "Older active"]);
    const toggle = page.getByRole("button", { name: "Show Completed Projects" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(page).toHaveURL(/\?completed=1$/);
    await expect(headings).toHaveText(["Newer active", "Finished site", "Older active"]);
    await expect(page.getByRole("button", { name: "Show Completed Projects" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "Show Completed Projects" }).click();
    await expect(headings).toHaveText(["Newer active", "Older active"]);
  });

  test("submits a revision comment while the proposal is in review", async ({ page, sql }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    const proposalId = await insertProposal(sql, { clientId: id, projectName: "Review me" });
    await page.goto("/project-status");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Review me" }) });
    await expect(card.getByText("Request revisions")).toHaveCount(0);

    await sql.query(`update proposal set status = 'review' where id = $1`, [proposalId]);
    await page.reload();
    await hydrated(page);
    await card.getByText("Request revisions").click();
    // Blank after trimming: refused by the server with a message next to the field.
    await card.getByLabel("What should we change?").fill("   ");
    await card.getByRole("button", { name: "Submit revisions" }).click();
    await expect(card.getByText("Describe the revisions you would like.")).toBeVisible();
    expect((await sql.query(`select revision_comment from proposal where id = $1`, [proposalId])).rows[0].revision_comment).toBeNull();

    await card.getByLabel("What should we change?").fill("Bigger logo, warmer colours.");
    await card.getByRole("button", { name: "Submit revisions" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Revisions submitted." })).toBeVisible();
    await expect(card.getByText("Bigger logo, warmer colours.")).toBeVisible();
    expect((await sql.query(`select revision_comment from proposal where id = $1`, [proposalId])).rows[0].revision_comment).toBe(
      "Bigger logo, warmer colours.",
    );
  });

  test("views an own invoice; another client's invoice is not found", async ({ page, sql, browser }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    const proposalId = await insertProposal(sql, { clientId: id, projectName: "Invoiced site", status: "in_progress" });
    const invoiceId = await insertInvoice(sql, {
      proposalId,
      clientId: id,
      dueDate: "2020-01-15",
      items: [
        ["Design", 150_000],
        ["Development", 250_050],
      ],
    });

    await page.goto("/project-status");
    await page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Invoiced site" }) })
      .getByRole("link", { name: "View invoice" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/view-invoice/${invoiceId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Invoice INV-E2E-");
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows.nth(1)).toContainText("Design");
    await expect(rows.nth(1)).toContainText("$1,500.00");
    await expect(rows.nth(2)).toContainText("$2,500.50");
    await expect(page.getByRole("row", { name: /Total/ })).toContainText("$4,000.50");
    await expect(page.getByText("Overdue")).toBeVisible();

    const { context: otherContext, page: other } = await otherSession(browser);
    try {
      await registerClient(other);
      const response = await other.goto(`/view-invoice/${invoiceId}`);
      expect(response!.status()).toBe(404);
      await expect(other.getByRole("alert")).toHaveText("Invoice not found");
      await expect(other.getByText("Development")).toHaveCount(0);
      expect((await other.goto("/view-invoice/not-a-number"))!.status()).toBe(404);
    } finally {
      await otherContext.close();
    }
  });

  test("a signed-out post is sent to sign in and stores nothing", async ({ request, sql }) => {
    const marker = `anonymous ${Date.now()}`;
    const response = await request.post("/proposal-request", { form: { projectDetails: marker }, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toMatch(/^\/login\?redirectTo=%2Fproposal-request/);
    expect((await sql.query(`select count(*)::int as n from proposal where project_details = $1`, [marker])).rows[0].n).toBe(0);
  });
});

test.describe("client portal on a 360 px wide screen", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("no page scrolls sideways", async ({ page, sql }) => {
    const client = await registerClient(page, { businessName: "A business with a rather long name that wraps" });
    const id = await userId(sql, client.email);
    const proposalId = await insertProposal(sql, {
      clientId: id,
      projectName: "Averyveryverylongprojectnamewithoutanyspacesatallthatmustwrap",
      status: "review",
    });
    const invoiceId = await insertInvoice(sql, {
      proposalId,
      clientId: id,
      dueDate: "2030-01-01",
      items: [["Design and development of the whole website", 1_000_000]],
    });
    await bookFreeSlot(page, "x".repeat(300));
    for (const path of [
      "/client-dashboard",
      "/project-status",
      "/proposal-request",
      `/edit-proposal/${await insertProposal(sql, { clientId: id, projectName: "Edit me" })}`,
      `/view-invoice/${invoiceId}`,
    ]) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    }
  });
});

test.describe("meetings in the browser's time zone", () => {
  test.use({ timezoneId: "America/New_York" });

  test("lists a booked meeting in the browser's zone; an accepted one gets its calendar file; cancelling asks first", async ({
    page,
    sql,
  }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    await page.goto("/client-dashboard");
    await hydrated(page);
    const slot = await bookFreeSlot(page, "Kick-off call");
    const { rows } = await sql.query(`select id, starts_at, time_zone, status, notes from meeting where user_id = $1`, [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", notes: "Kick-off call" });
    expect((rows[0].starts_at as Date).toISOString()).toBe(slot);

    await page.goto("/meetings");
    await hydrated(page);
    const item = page.getByRole("list", { name: "Upcoming meetings" }).getByTestId("meeting-item").filter({ hasText: "Kick-off call" });
    const local = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", minute: "2-digit" }).format(
      new Date(slot),
    );
    await expect(item).toContainText(local);
    await expect(item.getByText("Pending", { exact: true })).toBeVisible();

    // An accepted meeting is shown green with its calendar file.
    await sql.query(`update meeting set status = 'accepted' where id = $1`, [rows[0].id]);
    await page.reload();
    await expect(item.getByText("Accepted", { exact: true })).toHaveClass(/green/);
    await expect(item.getByRole("link", { name: "Add to calendar (.ics)" })).toBeVisible();

    await item.getByRole("link", { name: "Cancel meeting" }).click();
    await item.getByRole("button", { name: "Yes, cancel meeting" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Meeting cancelled." })).toBeVisible();
    expect((await sql.query(`select status from meeting where id = $1`, [rows[0].id])).rows[0].status).toBe("cancelled");
  });
});

test.describe("client portal without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("requests a proposal and deletes it after confirming", async ({ page, sql }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    await page.goto("/proposal-request");
    await page.getByLabel("Project name (optional)").fill("No-JS site");
    await page.getByLabel("Project details").fill("Works without scripts.");
    await page.getByLabel("Budget (optional)").fill("1200");
    await page.getByRole("button", { name: "Submit request" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Proposal request submitted successfully." })).toBeVisible();
    expect((await sql.query(`select budget_cents from proposal where client_id = $1`, [id])).rows).toEqual([{ budget_cents: 120_000 }]);

    await page.goto("/project-status");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "No-JS site" }) });
    await card.getByRole("link", { name: "Delete" }).click();
    await card.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Proposal deleted." })).toBeVisible();
    expect((await sql.query(`select count(*)::int as n from proposal where client_id = $1`, [id])).rows[0].n).toBe(0);
  });

  test("a delete post without the confirmation step is refused", async ({ page, sql }) => {
    const client = await registerClient(page);
    const id = await userId(sql, client.email);
    const proposalId = await insertProposal(sql, { clientId: id, projectName: "Keep me" });
    const response = await page.request.post("/project-status", { form: { intent: "delete-proposal", id: String(proposalId) } });
    expect(response.status()).toBe(400);
    expect((await sql.query(`select count(*)::int as n from proposal where id = $1`, [proposalId])).rows[0].n).toBe(1);
  });
});

test.describe("invoice PDF", () => {
  test("downloads for the owner with the number, items and total; another client gets 404", async ({ page, browser, baseURL, sql }) => {
    const { pdfText } = await import("../helpers/pdf");
    const owner = await registerClient(page, { businessName: "Pdf Bakery" });
    const {
      rows: [me],
    } = await sql.query(`select id from "user" where email = $1`, [owner.email]);
    const {
      rows: [p],
    } = await sql.query(
      `insert into proposal (client_id, source, status, project_details, project_name) values ($1, 'client', 'completed', 'Site', 'Bakery site') returning id`,
      [me.id],
    );
    const number = `INV-PDF-${Date.now()}`;
    const {
      rows: [inv],
    } = await sql.query(
      `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, '2030-01-31', 123450) returning id`,
      [number, p.id, me.id],
    );
    await sql.query(
      `insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Design work', 100000), ($1, 1, 'Hosting setup', 23450)`,
      [inv.id],
    );

    await page.goto(`/view-invoice/${inv.id}`);
    await expect(page.getByRole("link", { name: "Download PDF" })).toHaveAttribute("href", `/view-invoice/${inv.id}/pdf`);
    const response = await page.request.get(`/view-invoice/${inv.id}/pdf`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    const text = await pdfText(await response.body());
    for (const expected of [number, "Design work", "$1,000.00", "Hosting setup", "$234.50", "$1,234.50", "Pdf Bakery", "Jan 31, 2030"])
      expect(text).toContain(expected);

    const otherContext = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    const otherPage = await otherContext.newPage();
    await registerClient(otherPage);
    const refused = await otherPage.request.get(`/view-invoice/${inv.id}/pdf`);
    expect(refused.status()).toBe(404);
    expect(refused.headers()["content-type"]).not.toBe("application/pdf");
    expect(await refused.text()).not.toContain("Design work");
    await otherContext.close();
  });
});
