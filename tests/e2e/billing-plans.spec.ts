/**
 * Recurring billing (issue #39, docs/product.md#recurring-billing) in Chromium: the admin creates a
 * monthly plan for a client organisation starting today; the queue issues its first invoice at once
 * (numbered, mailed to the client); the client sees it on the invoices page and, on the dashboard and
 * the invoices page, what will be billed next, when and how; the admin changes the plan (from the
 * next invoice), pauses it (the client's preview says so), resumes and cancels it after confirming;
 * every change is in the audit trail. Checked at 390 px too.
 */
import { expect, givePaymentInstructions, hydrated, loginAsAdmin, mailTo, newUserPage, registerClient, test } from "./fixtures";
import { reviewScreenshot } from "./review-screenshot";

test.describe("billing plans", () => {
  test.describe.configure({ timeout: 180_000 });

  test("the admin creates a monthly plan starting today; the first invoice is issued and mailed; the client sees what comes next; change, pause, resume, cancel", async ({
    browser,
    sql,
  }) => {
    // #37: without card payments a plan's invoices wait for the agency's payment instructions.
    await givePaymentInstructions(sql);
    const client = await newUserPage(browser);
    const business = `Retainer Co ${Date.now().toString(36)}`;
    const account = await registerClient(client, { businessName: business });
    const { rows } = await sql.query(
      `select m.organisation_id as id from membership m join "user" u on u.id = m.user_id where u.email = $1`,
      [account.email],
    );
    const organisationId = rows[0].id as number;

    const admin = await newUserPage(browser);
    await loginAsAdmin(admin);
    await admin.goto(`/admin/billing-plans/new?organisation=${organisationId}`);
    await hydrated(admin);
    const form = admin.locator("form#billing-plan");
    await expect(form.getByLabel("Client organisation")).toHaveValue(String(organisationId));
    await form.getByLabel("Plan name").fill("Hosting and care");
    await form.getByLabel("Item 1 description").fill("Hosting");
    await form.getByLabel("Item 1 amount").fill("40");
    await form.getByRole("button", { name: "+ Add item" }).click();
    await form.getByLabel("Item 2 description").fill("Maintenance");
    await form.getByLabel("Item 2 amount").fill("160");
    await expect(form.getByTestId("plan-total")).toHaveText("$200.00");
    await expect(form.getByLabel("How often")).toHaveValue("monthly");
    // The start date defaults to today in the agency's zone; a date in the past is refused next to the field.
    const today = await form.getByLabel("Start date").inputValue();
    await form.getByLabel("Start date").fill("2020-01-01");
    await form.getByRole("button", { name: "Create plan" }).click();
    await expect(form.getByText("The start date cannot be before today.")).toBeVisible();
    await form.getByLabel("Start date").fill(today);
    await form.getByRole("button", { name: "Create plan" }).click();
    await expect(admin.getByText("Billing plan “Hosting and care” created.")).toBeVisible();
    const planId = Number(/billing-plans\/(\d+)/.exec(admin.url())![1]);

    // The queue issues the first invoice within seconds: it shows on the plan's page and is mailed.
    await expect(async () => {
      await admin.reload();
      await expect(admin.getByRole("list", { name: "Invoices issued" }).getByRole("link")).toHaveCount(1);
    }).toPass({ timeout: 60_000 });
    const number = (await admin.getByRole("list", { name: "Invoices issued" }).getByRole("link").innerText()).trim();
    expect(number).toMatch(/^INV-\d{4}-\d{4,}$/);
    const mail = await mailTo(account.email, new RegExp(`New invoice ${number}`));
    expect(mail.text).toContain("$200.00");
    const nextDate = (await admin.getByTestId("plan-next").innerText()).trim();

    // The client: the invoice in the list, and the preview of the next one.
    await client.goto("/invoices");
    await expect(client.getByRole("link", { name: number, exact: true })).toBeVisible();
    const preview = client.getByTestId("plan-preview");
    await expect(preview).toContainText("Hosting and care · Monthly");
    await expect(preview).toContainText(`Next: $200.00 on ${nextDate} — an invoice mailed to you, due within 14 days.`);
    await client.setViewportSize({ width: 390, height: 844 });
    await client.goto("/client-dashboard");
    await expect(client.getByTestId("plan-preview")).toContainText(`$200.00 on ${nextDate}`);
    await reviewScreenshot(client, test.info().outputPath("client-dashboard-390.png"), { fullPage: true });

    // The admin changes the plan from the next invoice.
    await admin.goto(`/admin/billing-plans/${planId}`);
    await hydrated(admin);
    const change = admin.locator("form#change-plan-form");
    await change.getByLabel("Item 2 amount").fill("210");
    await change.getByRole("button", { name: "Save changes" }).click();
    await expect(admin.getByText("Changes saved. They apply from the next invoice.")).toBeVisible();
    await client.goto("/invoices");
    await expect(client.getByTestId("plan-preview")).toContainText(`Next: $250.00 on ${nextDate}`);

    // Pause: the client's preview says so; resume; cancel after confirming.
    await admin.getByRole("button", { name: "Pause plan" }).click();
    await expect(admin.getByText("Plan paused: no invoices until it is resumed.")).toBeVisible();
    await expect(admin.getByTestId("plan-status")).toHaveText("Paused");
    await client.reload();
    await expect(client.getByTestId("plan-preview")).toContainText("Paused: nothing will be billed until the agency resumes it.");
    await admin.getByRole("button", { name: "Resume plan" }).click();
    await expect(admin.getByText(`Plan resumed. The next invoice is issued on ${nextDate}.`)).toBeVisible();
    await admin.getByRole("link", { name: "Cancel plan" }).click();
    await admin.getByRole("button", { name: "Yes, cancel the plan" }).click();
    await expect(admin.getByText("Plan cancelled: no further invoices.")).toBeVisible();
    await expect(admin.getByTestId("plan-status")).toHaveText("Cancelled");
    await client.reload();
    await expect(client.getByTestId("plan-preview")).toHaveCount(0);

    // Every change is in the audit trail, and only one invoice was issued.
    const { rows: audit } = await sql.query(`select action from audit_event where entity = 'billing-plan' and entity_id = $1 order by id`, [
      String(planId),
    ]);
    expect(audit.map((r) => r.action)).toEqual(["created", "changed", "paused", "resumed", "cancelled"]);
    const { rows: cycles } = await sql.query(`select count(*)::int as n from billing_cycle where plan_id = $1`, [planId]);
    expect(cycles[0].n).toBe(1);
    await admin.setViewportSize({ width: 390, height: 844 });
    await reviewScreenshot(admin, test.info().outputPath("admin-plan-390.png"), { fullPage: true });
  });
});
