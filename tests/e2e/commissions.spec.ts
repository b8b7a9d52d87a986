/**
 * Commissions on what is paid (issue #25, docs/product.md#commissions-ledger) in a real browser,
 * on an app instance of its own (the test changes the global hold period):
 * payments and a refund recorded through the admin's invoice payments page make +15 % / −15 %
 * ledger entries; Pending during the hold, Payable once it is 0 (or once the clock passes it);
 * the admin's "Create payout" (a confirmation naming the amount, with reference, method and date)
 * pays every payable entry once — two confirmations at once make one payout — the ambassador is
 * mailed a statement and sees the entries Paid out; the payout CSVs list them.
 */
import type { Page } from "@playwright/test";
import { adminPage, expect, hydrated, mailTo, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

test.describe("commission ledger and payouts", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  test.beforeAll(async () => {
    app = await startIsolatedApp("commissions");
  });
  test.afterAll(async () => {
    await app.stop();
  });

  /** Records a payment (or, with `refund`, a refund of the latest payment) on the admin's payments page of one invoice. */
  async function record(admin: Page, invoiceId: number, kind: "payment" | "refund", amount: string) {
    await admin.goto(`/admin/invoices/${invoiceId}/payments`);
    await hydrated(admin);
    const form = admin.locator(kind === "payment" ? "#record-payment" : "#record-refund");
    await form.getByLabel(kind === "payment" ? "Amount" : "Refund amount").fill(amount);
    await form.getByRole("button", { name: kind === "payment" ? "Record payment" : "Record refund" }).click();
    await expect(admin.getByText(kind === "payment" ? /^Payment of .* recorded\./ : /^Refund of .* recorded\./).first()).toBeVisible();
  }

  test("payments earn Pending then Payable entries; Create payout pays them once; the ambassador sees them Paid out", async ({
    browser,
  }) => {
    const baseURL = app.baseUrl;
    const sql = app.sql;
    const ambassadorPage = await newUserPage(browser, { baseURL });
    const ambassador = await registerAmbassador(ambassadorPage, { name: "Lena Ledger" });
    const clientPage = await newUserPage(browser, { baseURL });
    const client = await registerClient(clientPage, { referralCode: ambassador.referralCode, businessName: "Ledger Bakery" });
    await clientPage.context().close();
    const id = async (email: string) => (await sql.query('select id from "user" where email = $1', [email])).rows[0].id as string;
    const ambassadorId = await id(ambassador.email);
    const clientId = await id(client.email);
    // A proposal the ambassador made and the client approved (rate frozen at 15 %), with a $2,000 invoice.
    const { rows: proposals } = await sql.query(
      `insert into proposal (source, status, project_details, project_name, ambassador_id, client_id, client_name, client_email, budget_cents, client_approved_at, commission_rate_bps)
       values ('ambassador', 'in_progress', 'x', 'Bakery relaunch', $1, $2, 'Ledger Bakery', $3, 200000, now(), 1500) returning id`,
      [ambassadorId, clientId, client.email],
    );
    const { rows: invoices } = await sql.query(
      `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ('INV-2026-7001', $1, $2, '2030-01-01', 200000) returning id`,
      [proposals[0].id, clientId],
    );
    const invoiceId = invoices[0].id as number;

    const admin = await adminPage(browser, { baseURL });
    // 1. A payment of $1,500 during the 30-day hold: +$225.00, Pending.
    await record(admin, invoiceId, "payment", "1500");
    await ambassadorPage.goto("/ambassador/earnings");
    const ledger = ambassadorPage.getByRole("table", { name: "Commission ledger" });
    await expect(ledger.getByRole("row")).toHaveCount(2);
    const firstRow = ledger.getByRole("row").nth(1);
    await expect(firstRow).toContainText("Ledger Bakery");
    await expect(firstRow).toContainText("INV-2026-7001");
    await expect(firstRow).toContainText("$1,500.00");
    await expect(firstRow).toContainText("15%");
    await expect(firstRow).toContainText("$225.00");
    await expect(firstRow).toContainText("Pending");
    await expect(ambassadorPage.getByTestId("commission-pending")).toHaveText("$225.00");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$0.00");

    // 2. The admin sets the hold to 0 days in Settings; a partial refund and the rest are payable at once.
    await admin.goto("/admin/settings/commissions");
    await hydrated(admin);
    await admin.getByLabel("Commission hold (days)").fill("0");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByText("✅ Settings saved.")).toBeVisible();
    expect((await sql.query("select commission_hold_days from settings")).rows[0].commission_hold_days).toBe(0);
    await record(admin, invoiceId, "refund", "400");
    await record(admin, invoiceId, "payment", "500");
    await ambassadorPage.reload();
    await expect(ledger.getByRole("row")).toHaveCount(4);
    await expect(ledger.getByRole("row").nth(1)).toContainText("$75.00");
    await expect(ledger.getByRole("row").nth(1)).toContainText("Payable");
    await expect(ledger.getByRole("row").nth(2)).toContainText("-$60.00");
    await expect(ledger.getByRole("row").nth(2)).toContainText("Refund");
    await expect(ledger.getByRole("row").nth(3)).toContainText("Pending");
    await expect(ambassadorPage.getByTestId("commission-pending")).toHaveText("$225.00");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$15.00");
    // The clock passes the first entry's hold (its payable date moved into the past).
    await sql.query("update commission_entries set payable_at = now() - interval '1 minute' where ambassador_id = $1", [ambassadorId]);
    await ambassadorPage.reload();
    await expect(ambassadorPage.getByTestId("commission-pending")).toHaveText("$0.00");
    await expect(ambassadorPage.getByTestId("commission-payable")).toHaveText("$240.00");

    // 3. The admin's ambassador page: the payable balance, Create payout with its confirmation.
    await admin.goto(`/admin/ambassadors?q=${ambassador.referralCode}`);
    const row = admin.getByRole("row", { name: new RegExp(ambassador.referralCode) });
    await expect(row).toContainText("$240.00");
    await row.getByRole("link", { name: `Details of ${ambassador.name}` }).click();
    await expect(admin.getByTestId("ambassador-payable")).toHaveText("$240.00");
    await hydrated(admin);
    await admin.getByRole("link", { name: `Create payout for ${ambassador.name}` }).click();
    const panel = admin.getByRole("form", { name: `Pay out $240.00 to ${ambassador.name}?` });
    await expect(panel).toBeVisible();
    // Bad input: a clear message next to the field, nothing written.
    await panel.getByRole("button", { name: "Yes, create payout" }).click();
    await expect(panel.getByText("Reference is required")).toBeVisible();
    expect((await sql.query("select count(*)::int as n from payouts")).rows[0].n).toBe(0);
    await panel.getByLabel("Reference").fill("SEPA-2026-11-30");
    await panel.getByLabel("Method").selectOption("bank_transfer");
    await panel.getByRole("button", { name: "Yes, create payout" }).click();
    await expect(admin.getByRole("status").filter({ hasText: `Payout of $240.00 to ${ambassador.name} created.` })).toBeVisible();
    await expect(admin.getByTestId("ambassador-payable")).toHaveText("$0.00");
    await expect(admin.getByTestId("ambassador-paid-out")).toHaveText("$240.00");
    await expect(admin.getByRole("table", { name: `Payouts to ${ambassador.name}` })).toContainText("SEPA-2026-11-30");
    await expect(admin.getByText("Nothing to pay out yet: no commission is payable.")).toBeVisible();
    const { rows: payouts } = await sql.query("select id, total_cents, reference, method from payouts");
    expect(payouts).toEqual([{ id: expect.any(Number), total_cents: 24_000, reference: "SEPA-2026-11-30", method: "bank_transfer" }]);
    expect(
      (await sql.query("select action from audit_event where entity = 'payout' and entity_id = $1", [String(payouts[0].id)])).rows,
    ).toEqual([{ action: "created" }]);

    // The statement e-mail.
    const statement = await mailTo(ambassador.email, /^Commission payout: \$240\.00/);
    expect(statement.text).toContain("SEPA-2026-11-30");
    expect(statement.text).toContain("Total: $240.00.");

    // The CSVs: one payout's entries, and all payouts.
    const one = await admin.request.get(`/admin/ambassadors/payouts/${payouts[0].id}/export.csv`);
    expect(one.status()).toBe(200);
    const oneCsv = await one.text();
    expect(oneCsv.split("\r\n")[0] ?? oneCsv.split("\n")[0]).toContain("Payout ID,Ambassador,Payout reference,Entry ID");
    expect(oneCsv).toContain("22500");
    expect(oneCsv).toContain("-6000");
    const all = await admin.request.get("/admin/ambassadors/payouts.csv");
    expect(await all.text()).toContain(`${payouts[0].id},${ambassadorId},Lena Ledger`);
    expect((await admin.request.get("/admin/ambassadors/payouts/999999/export.csv")).status()).toBe(404);

    // 4. The ambassador sees every entry Paid out, and the totals on the dashboard.
    await ambassadorPage.reload();
    for (const n of [1, 2, 3]) await expect(ledger.getByRole("row").nth(n)).toContainText("Paid out");
    await expect(ambassadorPage.getByTestId("commission-paid-out")).toHaveText("$240.00");
    await ambassadorPage.goto("/ambassador/dashboard");
    await expect(ambassadorPage.getByText("Commission paid out")).toBeVisible();

    // 5. Two confirmations of the next payout at once make one payout.
    await sql.query(
      `insert into commission_entries (ambassador_id, proposal_id, invoice_id, kind, base_cents, rate_bps, amount_cents, currency, payable_at)
       values ($1, $2, $3, 'payment', 10000, 1500, 1500, 'USD', now() - interval '1 minute')`,
      [ambassadorId, proposals[0].id, invoiceId],
    );
    const confirm = () =>
      admin.request.post("/admin/ambassadors", {
        form: {
          intent: "create-payout",
          ambassadorId,
          reference: "SEPA-2",
          method: "paypal",
          paidAt: new Date().toISOString().slice(0, 10),
          confirm: "yes",
        },
      });
    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((a) => a.status()).sort()).toEqual([200, 409]);
    expect((await sql.query("select total_cents from payouts order by id")).rows.map((r) => r.total_cents)).toEqual([24_000, 1_500]);
    await ambassadorPage.context().close();
  });
});
