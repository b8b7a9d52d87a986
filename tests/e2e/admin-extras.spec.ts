/**
 * Issue #6, admin side, in a real browser against the built app on PostgreSQL: notification
 * mails reach the run's real SMTP server, the accepted meeting's .ics (mail attachment and
 * dashboard download), CSV exports with the list's filters, the audit trail page, and the
 * admin invoice PDF.
 */
import fs from "node:fs";
import ICAL from "ical.js";
import type pg from "pg";
import { pdfText } from "../helpers/pdf";
import { addressesOf, adminPage, expect, hydrated, mailTo, registerClient, test, waitForMail } from "./fixtures";

async function userId(sql: pg.Pool, email: string): Promise<string> {
  const { rows } = await sql.query('select id from "user" where email = $1', [email]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

async function insertProposal(sql: pg.Pool, clientId: string, projectName: string, status = "pending"): Promise<number> {
  const { rows } = await sql.query(
    "insert into proposal (source, status, project_details, client_id, project_name) values ('client', $1, 'A new website', $2, $3) returning id",
    [status, clientId, projectName],
  );
  return rows[0].id;
}

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Parses an .ics text and returns its first event. */
function icsEvent(text: string) {
  return new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
}

test.describe("admin extras", () => {
  test("a status change mails the client a link to /project-status and appears in the audit trail", async ({ browser, page, sql }) => {
    const client = await registerClient(page, { businessName: `Mail Bakery ${uid()}` });
    const project = `Mailed site ${uid()}`;
    const proposalId = await insertProposal(sql, await userId(sql, client.email), project);

    const admin = await adminPage(browser);
    await admin.goto(`/admin/proposals?q=${encodeURIComponent(project)}`);
    await hydrated(admin);
    await admin.getByLabel(`Status of ${project}`).selectOption("in_progress");
    await admin
      .getByRole("row", { name: new RegExp(project) })
      .getByRole("button", { name: "Save" })
      .click();
    await expect(admin.getByRole("status").filter({ hasText: `is now “In progress”` })).toBeVisible();

    const mail = await waitForMail((m) => addressesOf(m.to).includes(client.email) && (m.subject ?? "").includes(project));
    expect(mail.subject).toBe(`${project}: status is now In progress — Client Portal`);
    expect(mail.text).toContain(`${process.env.E2E_BASE_URL}/project-status`);
    expect(mail.text).toMatch(/http:\/\/[^\s]+\/project-status/);
    expect(mail.html).toContain(`href="${process.env.E2E_BASE_URL}/project-status"`);

    // The audit trail shows it (filtered by entity), with before → after.
    await admin.goto("/admin");
    await admin.getByRole("link", { name: "Audit trail", exact: true }).click();
    await expect(admin).toHaveURL(/\/admin\/audit$/);
    await admin.getByLabel("Show").selectOption("proposal");
    await admin.getByRole("button", { name: "Filter" }).click();
    await expect(admin).toHaveURL(/entity=proposal/);
    const row = admin.getByRole("row", { name: new RegExp(`proposal #${proposalId} status-changed`) });
    await expect(row).toContainText("status: Pending → In progress");
    await expect(row).toContainText("admin@portfolio.test");
    await admin.goto("/admin/audit?entity=settings");
    await expect(admin.getByRole("row", { name: new RegExp(`proposal #${proposalId} `) })).toHaveCount(0);
  });

  test("accepting a meeting mails the client its .ics, which the dashboard also offers (New York start instant)", async ({
    browser,
    page,
    sql,
  }) => {
    const businessName = `Calendar Co ${uid()}`;
    const client = await registerClient(page, { businessName });
    const note = `Invite me ${uid()}`;
    // 9:30 AM on May 11, 2031 in New York (EDT, UTC−4) is 13:30 UTC.
    const { rows } = await sql.query(
      "insert into meeting (user_id, starts_at, time_zone, notes) values ($1, '2031-05-11 13:30:00+00', 'America/New_York', $2) returning id",
      [await userId(sql, client.email), note],
    );
    const meetingId = rows[0].id as number;

    const admin = await adminPage(browser);
    // The dashboard lists the ten soonest requests only; other tests' may come first.
    await admin.goto("/admin/meetings?show=awaiting");
    const row = admin.getByRole("row", { name: new RegExp(note) });
    await row.locator("summary", { hasText: "Actions" }).click();
    await row.getByRole("button", { name: "Accept" }).click();
    await expect(admin.getByText("Meeting accepted.")).toBeVisible();

    const mail = await mailTo(client.email, "Your meeting is confirmed — Client Portal");
    const attachment = mail.attachments.find((a) => a.filename === `meeting-${meetingId}.ics`);
    expect(attachment, "the .ics attachment").toBeTruthy();
    expect(attachment!.contentType).toBe("text/calendar");
    const mailed = icsEvent(attachment!.content.toString("utf8"));
    expect(mailed.startDate.toJSDate().toISOString()).toBe("2031-05-11T13:30:00.000Z");
    expect(mailed.description).toContain(`${process.env.E2E_BASE_URL}/client-dashboard`);

    // The client downloads the same invite from their dashboard.
    await page.goto("/client-dashboard");
    const link = page.getByRole("link", { name: "Add to calendar (.ics)" });
    await expect(link).toHaveCount(1);
    const response = await page.request.get((await link.getAttribute("href"))!);
    expect(response.status()).toBe(200);
    const downloaded = icsEvent(await response.text());
    const start = downloaded.startDate.toJSDate();
    expect(start.toISOString()).toBe("2031-05-11T13:30:00.000Z");
    expect(new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short" }).format(start)).toBe(
      "May 11, 2031, 9:30 AM",
    );
    expect(downloaded.uid).toBe(mailed.uid);
  });

  test("CSV export downloads the list with its current filters", async ({ browser, page, sql }) => {
    const tag = uid();
    const wanted = await registerClient(page, { businessName: `Export Shop ${tag}` });
    await page.context().clearCookies();
    await registerClient(page, { businessName: `Export Shop ${tag} Two` });
    await page.context().clearCookies();
    await registerClient(page, { businessName: `Other ${tag}` });
    // A value a spreadsheet would run as a formula is neutralised.
    await sql.query('update "user" set name = $1 where email = $2', ['=HYPERLINK("x")', wanted.email]);

    const admin = await adminPage(browser);
    await admin.goto(`/admin/users?q=${encodeURIComponent(`Export Shop ${tag}`)}&role=client`);
    const exportLink = admin.getByRole("link", { name: "Export CSV of these users" });
    await expect(exportLink).toHaveAttribute(
      "href",
      `/admin/users/export.csv?q=${encodeURIComponent(`Export Shop ${tag}`).replace(/%20/g, "+")}&role=client`,
    );
    const [download] = await Promise.all([admin.waitForEvent("download"), exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d\d-\d\d\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe("ID,Name,Business,E-mail,Role,Active,Created at (UTC),Last login (UTC)");
    expect(lines).toHaveLength(3);
    expect(csv).toContain(`Export Shop ${tag} Two`);
    expect(csv).not.toContain(`Other ${tag}`);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);

    // The other lists' exports answer with their header rows; a signed-out request is turned away.
    for (const [path, header] of [
      ["/admin/proposals/export.csv?status=review", "ID,Project,Client"],
      ["/admin/invoices/export.csv?filter=overdue", "Number,Proposal ID,Project"],
      ["/admin/ambassadors/export.csv", "Ambassador ID,Name,E-mail"],
    ] as const) {
      const response = await admin.request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()["content-type"]).toContain("text/csv");
      expect((await response.text()).replace(/^\uFEFF/, "")).toMatch(new RegExp(`^${header}`));
    }
    const anonymous = await page.request.get("/admin/users/export.csv", { maxRedirects: 0 });
    expect(anonymous.status()).not.toBe(200);
  });

  test("the admin downloads any invoice as a PDF from the list and the edit page", async ({ browser, page, sql }) => {
    const client = await registerClient(page, { businessName: `PDF Studio ${uid()}` });
    const clientId = await userId(sql, client.email);
    const proposalId = await insertProposal(sql, clientId, `PDF site ${uid()}`);
    const number = `INV-2099-${String(Math.floor(Math.random() * 9000) + 1000)}${uid().slice(-3)}`;
    const { rows } = await sql.query(
      "insert into invoice (number, proposal_id, client_id, due_date, status, total_cents) values ($1, $2, $3, '2099-01-31', 'unpaid', 123456) returning id",
      [number, proposalId, clientId],
    );
    const invoiceId = rows[0].id as number;
    await sql.query(
      "insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Design and build', 123456)",
      [invoiceId],
    );

    const admin = await adminPage(browser);
    await admin.goto(`/admin/invoices?q=${encodeURIComponent(number)}`);
    await admin.locator(`summary[aria-label="Actions for ${number}"]`).click();
    await expect(admin.getByRole("link", { name: "PDF" })).toHaveAttribute("href", `/admin/invoices/${invoiceId}/pdf`);
    await admin.goto(`/admin/invoices/edit/${invoiceId}`);
    await expect(admin.getByRole("link", { name: "Download PDF" })).toHaveAttribute("href", `/admin/invoices/${invoiceId}/pdf`);

    const response = await admin.request.get(`/admin/invoices/${invoiceId}/pdf`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    const text = await pdfText(await response.body());
    expect(text).toContain(`Invoice ${number}`);
    expect(text).toContain(client.email);
    expect(text).toContain("Design and build");
    expect(text).toContain("$1,234.56");

    expect((await admin.request.get("/admin/invoices/999999999/pdf")).status()).toBe(404);
    // The client cannot use the admin route (the layout guard turns them away).
    const theirs = await page.request.get(`/admin/invoices/${invoiceId}/pdf`, { maxRedirects: 0 });
    expect(theirs.headers()["content-type"] ?? "").not.toContain("application/pdf");
  });
});
