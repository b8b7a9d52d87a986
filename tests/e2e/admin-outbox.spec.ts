/**
 * The admin mail outbox (docs/product.md#admin-outbox) in a real browser against the built app on
 * PostgreSQL: a failed mail is listed with its last error, linked from the dashboard's tools;
 * Retry sends it to the run's real SMTP server and records an audit event. Screenshots at 390 and
 * 1280 px go to test-results/.
 */
import { expect, loginAsAdmin, test, waitForMail } from "./fixtures";
import { reviewScreenshot } from "./review-screenshot";

test("an admin sees a failed mail on /admin/outbox, retries it, and it is delivered and audited", async ({ page, sql }) => {
  const subject = `Outbox retry ${Date.now().toString(36)}`;
  const { rows } = await sql.query(
    `insert into mail_outbox ("to", subject, text, attempts, failed_at, last_error, next_attempt_at)
     values ('retry-me@example.com', $1, 'Body of the failed mail', 10, now(), '550 mailbox unavailable', now()) returning id`,
    [subject],
  );
  const id = rows[0].id as number;

  await loginAsAdmin(page);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Mail outbox", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mail outbox" })).toBeVisible();
  const failed = page.getByRole("table", { name: /Failed mails/ });
  const row = failed.getByRole("row").filter({ hasText: subject });
  await expect(row).toContainText("retry-me@example.com");
  await expect(row).toContainText("550 mailbox unavailable");

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await reviewScreenshot(page, `test-results/admin-outbox-${width}.png`, { fullPage: true });
  }

  await row.getByRole("button", { name: `Retry "${subject}" to retry-me@example.com` }).click();
  await expect(page.getByRole("status").filter({ hasText: `"${subject}" to retry-me@example.com will be sent again` })).toBeVisible();
  await expect(failed.getByRole("row").filter({ hasText: subject })).toHaveCount(0);

  const mail = await waitForMail((m) => m.subject === subject);
  expect(mail.text?.trim()).toBe("Body of the failed mail");
  expect(mail.messageId).toMatch(new RegExp(`^<outbox-${id}\\.\\d+@`));
  const sent = await sql.query("select sent_at, failed_at from mail_outbox where id = $1", [id]);
  expect(sent.rows[0].failed_at).toBeNull();

  await page.goto("/admin/audit?entity=mail");
  await expect(page.getByRole("table", { name: /Audit events/ })).toContainText(`mail #${id} retry`);
});

test("an admin sees a failed background job on /admin/outbox and retries it; it runs and is audited", async ({ page, sql }) => {
  // A large export whose last attempt failed (the export row is gone: the retried job finds nothing to build and completes).
  const exportId = 900_000 + Math.floor(Math.random() * 99_999);
  const { rows } = await sql.query(
    `insert into pgboss.job (name, data, state, retry_limit, retry_count, started_on, completed_on, output)
     values ('data-export', jsonb_build_object('exportId', $1::int), 'failed', 2, 2, now(), now(), '{"message": "injected: the build failed"}')
     returning id::text`,
    [exportId],
  );
  const jobId = rows[0].id as string;

  await loginAsAdmin(page);
  await page.goto("/admin/outbox");
  const jobs = page.getByRole("table", { name: /Failed background jobs/ });
  const row = jobs.getByRole("row").filter({ hasText: String(exportId) });
  await expect(row).toContainText("data-export");
  await expect(row).toContainText("injected: the build failed");
  await expect(row).toContainText("3");
  await page.setViewportSize({ width: 390, height: 900 });
  await reviewScreenshot(page, "test-results/admin-outbox-jobs-390.png", { fullPage: true });

  await row.getByRole("button", { name: `Retry the data-export job {"exportId": ${exportId}}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The data-export job will run again within a few seconds." })).toBeVisible();
  await expect(jobs.getByRole("row").filter({ hasText: String(exportId) })).toHaveCount(0);
  await expect
    .poll(async () => (await sql.query("select state::text from pgboss.job where id = $1", [jobId])).rows[0]?.state, { timeout: 30_000 })
    .toBe("completed");

  await page.goto("/admin/audit?entity=job");
  await expect(page.getByRole("table", { name: /Audit events/ })).toContainText(`job #${jobId} retry`);
});
