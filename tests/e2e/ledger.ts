/**
 * Commission ledger helpers of the browser tests (docs/product.md#commissions-ledger, issue #25),
 * shared by the specs that follow payments into an ambassador's ledger.
 */
import type { Page } from "@playwright/test";
import type pg from "pg";
import { expect, hydrated } from "./fixtures";

/** Moves every entry of an ambassador past its hold (the hold is fixed when an entry is made). */
export async function passCommissionHold(sql: pg.Pool, ambassadorId: string): Promise<void> {
  await sql.query("update commission_entries set payable_at = now() - interval '1 minute' where ambassador_id = $1", [ambassadorId]);
}

/**
 * The admin creates a payout of an ambassador's payable balance on /admin/ambassadors: the
 * ambassador's detail, "Create payout", the confirmation naming `amount` (e.g. "$120.00"), a
 * reference and a bank transfer, "Yes, create payout".
 */
export async function createPayout(
  admin: Page,
  ambassador: { name: string; referralCode: string },
  amount: string,
  reference: string,
): Promise<void> {
  await admin.goto(`/admin/ambassadors?q=${ambassador.referralCode}`);
  const row = admin.getByRole("row", { name: new RegExp(ambassador.referralCode) });
  await expect(row).toContainText(amount);
  await row.getByRole("link", { name: `Details of ${ambassador.name}` }).click();
  await expect(admin.getByTestId("ambassador-payable")).toHaveText(amount);
  await hydrated(admin);
  await admin.getByRole("link", { name: `Create payout for ${ambassador.name}` }).click();
  const panel = admin.getByRole("form", { name: `Pay out ${amount} to ${ambassador.name}?` });
  await expect(panel).toBeVisible();
  await panel.getByLabel("Reference").fill(reference);
  await panel.getByLabel("Method").selectOption("bank_transfer");
  await panel.getByRole("button", { name: "Yes, create payout" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `Payout of ${amount} to ${ambassador.name} created.` })).toBeVisible();
  await expect(admin.getByTestId("ambassador-payable")).toHaveText("$0.00");
}
