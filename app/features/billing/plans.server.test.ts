/**
 * Billing plans (issue #39): the admin's writes and their rules, each audited, on PGlite and
 * PostgreSQL (TEST_DATABASE_URL). Issuing is tested in billing.server.test.ts.
 */
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, billingPlan, membership, organisation, settings, user } from "#app/db/schema";
import { manualClock } from "#app/lib/clock.server";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import {
  cancelBillingPlan,
  changeBillingPlan,
  createBillingPlan,
  listBillingPlans,
  pauseBillingPlan,
  resumeBillingPlan,
} from "./plans.server";
import type { PlanCreateInput } from "./billing.schema";
import { planInput } from "../../../tests/helpers/billing";

/** The shared plan with one $200.00 item. */
const input = (organisationId: number, over: Partial<PlanCreateInput> = {}): PlanCreateInput =>
  planInput(organisationId, { items: [{ description: "Hosting", amountCents: 20_000 }], ...over });

describe.each(testDatabases())("billing plans on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("creates a plan on the agency's date, freezing the referring ambassador's rate and months; refuses bad input", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, timeZone: "Pacific/Auckland", commissionRateBps: 1000, recurringCommissionMonths: 6 });
    const client = await makeClient(s);
    const [m] = await t.db.select().from(membership).where(eq(membership.userId, client.id));
    const organisationId = m!.organisationId;
    await t.db.insert(user).values({ id: "amb-plan", email: "amb-plan@example.com", name: "Amb", role: "ambassador" });
    await t.db.update(organisation).set({ referredById: "amb-plan" }).where(eq(organisation.id, organisationId));
    // 2026-01-30T12:00Z is already Jan 31 in Auckland: a plan may start "today" there.
    const clock = manualClock("2026-01-30T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, input(organisationId), clock);
    expect(plan).toMatchObject({
      nextCycleOn: "2026-01-31",
      totalCents: 20_000,
      ambassadorId: "amb-plan",
      commissionRateBps: 1000,
      commissionUntil: "2026-07-31",
      status: "active",
    });
    expect((await listBillingPlans(t.db, admin)).map((p) => [p.name, p.status, p.nextCycleOn])).toEqual([
      ["Hosting and maintenance", "active", "2026-01-31"],
    ]);

    const refused = async (over: Partial<PlanCreateInput>) => refusalOf(createBillingPlan(t.db, admin, input(organisationId, over), clock));
    expect((await refused({ startDate: "2026-01-30" })).fieldErrors).toEqual({ startDate: [expect.stringMatching(/before today/)] });
    expect((await refused({ endDate: "2026-01-01" })).fieldErrors).toHaveProperty("endDate");
    expect((await refused({ endDate: "2026-12-31", maxCycles: 3 })).fieldErrors).toHaveProperty("maxCycles");
    expect((await refused({ items: [{ description: "Nothing", amountCents: 0 }] })).fieldErrors).toHaveProperty("items");
    expect((await refused({ organisationId: 999_999 })).fieldErrors).toHaveProperty("organisationId");
    expect((await refused({ dayOfMonth: 32 })).fieldErrors).toHaveProperty("dayOfMonth");
    expect((await refusalOf(createBillingPlan(t.db, client, input(organisationId), clock))).status).toBe(403);
    expect(await t.db.select({ id: billingPlan.id }).from(billingPlan)).toHaveLength(1);
  });

  it("pause, resume past the pause's dates, change from the next invoice, cancel — each audited with before and after", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const [m] = await t.db.select().from(membership).where(eq(membership.userId, client.id));
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, input(m!.organisationId), clock);
    await pauseBillingPlan(t.db, admin, plan.id, clock);
    expect((await refusalOf(pauseBillingPlan(t.db, admin, plan.id, clock))).status).toBe(409);
    clock.set("2026-04-15T12:00:00Z");
    const resumed = await resumeBillingPlan(t.db, admin, plan.id, clock);
    // Jan 31 … Mar 31 fell in the pause: the plan goes on with Apr 30.
    expect(resumed).toMatchObject({ status: "active", nextCycleIndex: 3, nextCycleOn: "2026-04-30" });
    const changed = await changeBillingPlan(
      t.db,
      admin,
      plan.id,
      { name: "Hosting", items: [{ description: "Hosting", amountCents: 5_000 }], dueDays: 7, autopay: true, endDate: null, maxCycles: 3 },
      clock,
    );
    // Three invoices in all: cycles 0–2 are passed, so the plan has ended.
    expect(changed).toMatchObject({ totalCents: 5_000, autopay: true, nextCycleOn: null });
    await cancelBillingPlan(t.db, admin, plan.id, clock);
    expect((await refusalOf(resumeBillingPlan(t.db, admin, plan.id, clock))).status).toBe(409);
    expect((await refusalOf(cancelBillingPlan(t.db, admin, plan.id, clock))).status).toBe(409);
    const audit = await t.db
      .select({ action: auditEvent.action, actorId: auditEvent.actorId, before: auditEvent.before, after: auditEvent.after })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "billing-plan"), eq(auditEvent.entityId, String(plan.id))))
      .orderBy(asc(auditEvent.id));
    expect(audit.map((a) => [a.action, a.actorId])).toEqual(
      ["created", "paused", "resumed", "changed", "cancelled"].map((a) => [a, admin.id]),
    );
    expect(audit[3]!.before).toMatchObject({ totalCents: 20_000, autopay: false });
    expect(audit[3]!.after).toMatchObject({ totalCents: 5_000, autopay: true, maxCycles: 3 });
  });
});
