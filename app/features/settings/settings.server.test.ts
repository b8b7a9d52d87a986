import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { settings, user } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { bpsToPercent, percentToBps, settingsSchema } from "./settings.schema";
import { DEFAULT_SETTINGS, getSettings, getSettingsForAdmin, saveSettings } from "./settings.server";

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

describe("settings form", () => {
  it("converts a percent to basis points exactly and back", () => {
    expect(percentToBps("15")).toBe(1500);
    expect(percentToBps("12.5")).toBe(1250);
    expect(percentToBps("0.01")).toBe(1);
    expect(percentToBps("100")).toBe(10_000);
    expect(bpsToPercent(1500)).toBe("15");
    expect(bpsToPercent(1250)).toBe("12.5");
    expect(bpsToPercent(1)).toBe("0.01");
  });

  it("reads the checkbox, lowercases the e-mail and refuses rates outside 0–100 %", () => {
    const ok = parseWithZod(
      form({ companyName: " Acme ", supportEmail: "Help@Acme.COM", commissionRatePercent: "12.5", allowNewClients: "on" }),
      { schema: settingsSchema },
    );
    expect(ok.status).toBe("success");
    expect((ok as { value: unknown }).value).toEqual({
      companyName: "Acme",
      supportEmail: "help@acme.com",
      defaultTimeline: "",
      allowNewClients: true,
      requireAdminTwoFactor: false,
      requireEmailVerification: false,
      requireClientPhone: false,
      commissionRatePercent: 1250,
      companyAddress: "",
      taxId: "",
      paymentInstructions: "",
      paymentLinkTemplate: "",
      accentColor: "",
    });
    const off = parseWithZod(form({ commissionRatePercent: "15" }), { schema: settingsSchema });
    expect((off as { value: { allowNewClients: boolean } }).value.allowNewClients).toBe(false);
    const twoFactor = parseWithZod(form({ commissionRatePercent: "15", requireAdminTwoFactor: "on" }), { schema: settingsSchema });
    expect((twoFactor as { value: { requireAdminTwoFactor: boolean } }).value.requireAdminTwoFactor).toBe(true);
    for (const [value, message] of [
      ["101", "The rate must be between 0 and 100 %."],
      ["-1", "Enter the rate as a percent, e.g. 15 or 12.5."],
      ["12.345", "Enter the rate as a percent, e.g. 15 or 12.5."],
      ["", "Commission rate is required."],
    ]) {
      const bad = parseWithZod(form({ commissionRatePercent: value! }), { schema: settingsSchema });
      expect((bad as { error: Record<string, string[]> }).error.commissionRatePercent, value).toEqual([message]);
    }
    const email = parseWithZod(form({ commissionRatePercent: "15", supportEmail: "nope" }), { schema: settingsSchema });
    expect((email as { error: Record<string, string[]> }).error.supportEmail).toEqual(["Enter a valid email address."]);
  });
});

describe.each(testDatabases())("settings on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("defaults to allowNewClients true and 15 %, then saves and replaces every field", async () => {
    const { t, admin } = ctx;
    expect(await getSettingsForAdmin(t.db, admin)).toMatchObject({
      allowNewClients: true,
      requireAdminTwoFactor: false,
      commissionRateBps: 1500,
      companyName: "",
    });
    const input = {
      companyName: "Acme Web",
      supportEmail: "help@acme.test",
      defaultTimeline: "6 weeks",
      allowNewClients: false,
      requireAdminTwoFactor: true,
      commissionRateBps: 1250,
    };
    expect(await saveSettings(t.db, admin, input, { cardPayments: false })).toMatchObject(input);
    expect(await getSettings(t.db)).toMatchObject(input);
    await saveSettings(t.db, admin, { ...input, companyName: "Acme 2", allowNewClients: true }, { cardPayments: false });
    const rows = await t.db.select().from(settings);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 1,
      companyName: "Acme 2",
      allowNewClients: true,
      commissionRateBps: 1250,
      currency: DEFAULT_SETTINGS.currency,
    });
    expect((await rejectionOf(saveSettings(t.db, admin, { ...input, commissionRateBps: 10_001 }, { cardPayments: false }))).status).toBe(
      400,
    );
  });

  it("a section's save (issue #41) changes its fields only and leaves the others as they are", async () => {
    const { t, admin } = ctx;
    const full = { companyName: "Acme Web", supportEmail: "help@acme.test", defaultTimeline: "6 weeks", allowNewClients: false };
    await saveSettings(
      t.db,
      admin,
      { ...full, requireAdminTwoFactor: true, commissionRateBps: 1250, termsAndConditions: "Net 30." },
      { cardPayments: false },
    );
    await saveSettings(t.db, admin, { accentColor: "#0f5132" }, { cardPayments: false });
    await saveSettings(t.db, admin, { commissionRateBps: 1000 }, { cardPayments: false });
    expect(await getSettings(t.db)).toMatchObject({
      ...full,
      requireAdminTwoFactor: true,
      commissionRateBps: 1000,
      termsAndConditions: "Net 30.",
      accentColor: "#0f5132",
    });
    await saveSettings(t.db, admin, { requireAdminTwoFactor: false, allowNewClients: true }, { cardPayments: false });
    expect(await getSettings(t.db)).toMatchObject({ companyName: "Acme Web", requireAdminTwoFactor: false, allowNewClients: true });
  });

  it("turning off new clients stops client registration; ambassadors can still sign up", async () => {
    const { t, s, admin } = ctx;
    const saveAllowNewClients = (allowNewClients: boolean) =>
      saveSettings(
        t.db,
        admin,
        { companyName: "", supportEmail: "", defaultTimeline: "", allowNewClients, commissionRateBps: 1500 },
        { cardPayments: false },
      );
    await saveAllowNewClients(false);
    const refused = await rejectionOf(makeClient(s, { email: "closed@example.com" }));
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/registrations are currently closed/);
    expect((await t.db.select({ email: user.email }).from(user)).map((u) => u.email)).not.toContain("closed@example.com");
    await makeAmbassador(s);
    await saveAllowNewClients(true);
    await makeClient(s, { email: "open@example.com" });
  });

  it("refuses clients and ambassadors without reading or writing", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect(
        (
          await rejectionOf(
            saveSettings(
              t.db,
              actor,
              {
                companyName: "Hacked",
                supportEmail: "",
                defaultTimeline: "",
                allowNewClients: false,
                commissionRateBps: 9000,
              },
              { cardPayments: false },
            ),
          )
        ).status,
      ).toBe(403);
      expect((await rejectionOf(getSettingsForAdmin(t.db, actor))).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
