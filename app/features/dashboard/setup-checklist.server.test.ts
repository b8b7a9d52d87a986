/**
 * The first-run checklist (issue #41) on PGlite and PostgreSQL: a fresh install has every step to
 * do; each ticks from what the settings hold (Stripe's variables count as a way to pay, a saved
 * availability counts even in UTC with the default hours); only an admin may read it.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { setupChecklist } from "./setup-checklist.server";

describe.each(testDatabases())("setup checklist on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const doneIds = async (env = {}) => (await setupChecklist(ctx.t.db, ctx.admin, env)).filter((s) => s.done).map((s) => s.id);
  const set = (fragment: ReturnType<typeof sql>) =>
    ctx.t.db.execute(sql`insert into settings (id) values (1) on conflict (id) do nothing`).then(() => ctx.t.db.execute(fragment));

  it("a fresh install has six steps to do, each linking to its form; each ticks from the saved settings", async () => {
    const steps = await setupChecklist(ctx.t.db, ctx.admin, {});
    expect(steps.map((s) => [s.id, s.href, s.done])).toEqual([
      ["company-name", "/admin/settings/company", false],
      ["billing-details", "/admin/settings/company#billing-details", false],
      ["payments", "/admin/settings/payments#payment-instructions", false],
      ["availability", "/admin/settings/availability", false],
      ["brand", "/admin/settings/brand", false],
      ["terms", "/admin/settings/terms", false],
    ]);
    expect(await doneIds({ STRIPE_SECRET_KEY: "sk_test_12345678", STRIPE_WEBHOOK_SECRET: "whsec_12345678" })).toEqual(["payments"]);
    await set(sql`update settings set company_name = 'Acme Studio', company_address = '1 Main St'`);
    expect(await doneIds()).toEqual(["company-name"]);
    await set(sql`update settings set tax_id = 'DE123'`);
    expect(await doneIds()).toEqual(["company-name", "billing-details"]);
    await set(sql`update settings set payment_link_template = 'https://pay.example.com/{number}'`);
    await set(sql`update settings set time_zone = 'Europe/Berlin'`);
    await set(sql`update settings set accent_color = '#0f766e'`);
    await set(sql`update settings set terms_and_conditions = 'Pay within 30 days.'`);
    expect(await doneIds()).toEqual(["company-name", "billing-details", "payments", "availability", "brand", "terms"]);
  });

  it("availability saved once in UTC with the default hours counts, another setting saved does not", async () => {
    const { t, admin } = ctx;
    await t.db.execute(
      sql`insert into audit_event (actor_id, actor_email, entity, entity_id, action, before, after) values (${admin.id}, ${admin.email}, 'settings', '1', 'updated', '{}', ${JSON.stringify({ meetingLocation: "Zoom" })}::jsonb)`,
    );
    expect(await doneIds()).not.toContain("availability");
    await t.db.execute(
      sql`insert into audit_event (actor_id, actor_email, entity, entity_id, action, before, after) values (${admin.id}, ${admin.email}, 'settings', '1', 'updated', '{}', ${JSON.stringify({ timeZone: "UTC" })}::jsonb)`,
    );
    expect(await doneIds()).toContain("availability");
  });

  it("a client is refused", async () => {
    const client = await makeClient(ctx.s);
    await expect(setupChecklist(ctx.t.db, client, {})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
