/** Settings › Commission hold (days) (docs/product.md#commissions-ledger): parsing, range, saving, audit. */
import { describe, expect, it } from "vitest";
import { auditEvent, settings } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { rejectionOf } from "../../../tests/helpers/admin-data";
import { useTestServices } from "../../../tests/helpers/services";
import { COMMISSION_HOLD_MESSAGES } from "./settings.messages";
import { settingsSchema } from "./settings.schema";
import { getSettings, saveSettings } from "./settings.server";

const BASE = { companyName: "", supportEmail: "", defaultTimeline: "", allowNewClients: true, commissionRateBps: 1500 };

describe("commission hold field", () => {
  const parse = (commissionHoldDays: string | undefined) => settingsSchema.shape.commissionHoldDays.safeParse(commissionHoldDays);
  it("takes whole days 0–365; refuses text, decimals, signs and more than a year", () => {
    expect(parse("0")).toMatchObject({ success: true, data: 0 });
    expect(parse(" 30 ")).toMatchObject({ success: true, data: 30 });
    expect(parse("365")).toMatchObject({ success: true, data: 365 });
    expect(parse(undefined)).toMatchObject({ success: true, data: undefined });
    for (const [value, message] of [
      ["", COMMISSION_HOLD_MESSAGES.required],
      ["thirty", COMMISSION_HOLD_MESSAGES.format],
      ["1.5", COMMISSION_HOLD_MESSAGES.format],
      ["-1", COMMISSION_HOLD_MESSAGES.format],
      ["1e3", COMMISSION_HOLD_MESSAGES.format],
      ["366", COMMISSION_HOLD_MESSAGES.range],
    ] as const) {
      const result = parse(value);
      expect(result.success, value).toBe(false);
      expect(result.error?.issues[0]?.message, value).toBe(message);
    }
  });
});

describe.each(testDatabases())("commission hold setting on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  it("defaults to 30, is saved and audited; out of range is refused next to the field and nothing is saved", async () => {
    const { t, admin } = ctx;
    expect((await getSettings(t.db)).commissionHoldDays).toBe(30);
    await saveSettings(t.db, admin, { ...BASE, commissionHoldDays: 14 }, { cardPayments: false });
    expect((await t.db.select().from(settings))[0]!.commissionHoldDays).toBe(14);
    const [event] = await t.db.select().from(auditEvent);
    expect(event).toMatchObject({ entity: "settings", before: { commissionHoldDays: 30 }, after: { commissionHoldDays: 14 } });
    // Absent: unchanged.
    await saveSettings(t.db, admin, BASE, { cardPayments: false });
    expect((await getSettings(t.db)).commissionHoldDays).toBe(14);
    const refused = await rejectionOf(saveSettings(t.db, admin, { ...BASE, commissionHoldDays: 400 }, { cardPayments: false }));
    expect(refused).toMatchObject({ status: 400, fieldErrors: { commissionHoldDays: [COMMISSION_HOLD_MESSAGES.range] } });
    expect((await getSettings(t.db)).commissionHoldDays).toBe(14);
  });
});
