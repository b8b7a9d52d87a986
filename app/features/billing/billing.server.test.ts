/**
 * Recurring billing (issue #39) with the injected clock, on PGlite and PostgreSQL (TEST_DATABASE_URL):
 * plans bill on their calendar in the agency's zone, each cycle exactly once — after downtime and
 * with two processes issuing at once — numbered in the one invoice sequence and mailed; pause,
 * resume, change and cancel are audited.
 */
import { and, asc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server";
import {
  auditEvent,
  billingCycle,
  billingPlan,
  commissionEntries,
  invoice,
  invoiceItem,
  mailOutbox,
  organisation,
  settings,
  user,
} from "#app/db/schema";
import { manualClock } from "#app/lib/clock.server";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { createPgDatabase } from "../../../tests/helpers/test-database";
import { issueDueCycles } from "./issue-cycles.server";
import { adminNextSteps } from "#app/features/dashboard/next-steps.server";
import { recordFullPayment } from "#app/features/payments/record-payment.server";
import { ledgerPage } from "#app/features/referrals/ledger-queries.server";
import { pageRequestFrom } from "#app/lib/pagination";
import { cancelBillingPlan, changeBillingPlan, createBillingPlan, pauseBillingPlan, resumeBillingPlan } from "./plans.server";
import { clientWithOrganisation, planInput } from "../../../tests/helpers/billing";

async function invoicesOf(db: Database, planId: number) {
  return db
    .select({
      number: invoice.number,
      cycleOn: billingCycle.cycleOn,
      dueDate: invoice.dueDate,
      totalCents: invoice.totalCents,
      id: invoice.id,
    })
    .from(billingCycle)
    .innerJoin(invoice, eq(invoice.id, billingCycle.invoiceId))
    .where(eq(billingCycle.planId, planId))
    .orderBy(asc(billingCycle.cycleIndex));
}

describe.each(testDatabases())("recurring billing on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("without card payments and payment instructions a due cycle is held back (no invoice, no mail; the admin dashboard says so), then goes out", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, paymentInstructions: "", paymentLinkTemplate: "" });
    const { client, organisationId } = await clientWithOrganisation(s);
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, planInput(organisationId), clock);
    expect(await issueDueCycles(t.db, clock, { cardPayments: false })).toEqual({ issued: 0, plans: 0 });
    expect(await invoicesOf(t.db, plan.id)).toEqual([]);
    expect(
      await t.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, client.email), like(mailOutbox.subject, "New invoice%"))),
    ).toEqual([]);
    const held = (await adminNextSteps(t.db, admin, clock.now())).find((step) => step.key === "invoices-held-back");
    expect(held).toMatchObject({
      title: "1 invoice waiting for your payment instructions",
      href: "/admin/settings/payments#payment-instructions",
    });
    // With card payments nothing is held back; once the instructions are written the cycle goes out.
    expect(
      (await adminNextSteps(t.db, admin, clock.now(), undefined, true)).find((step) => step.key === "invoices-held-back"),
    ).toBeUndefined();
    await t.db.update(settings).set({ paymentInstructions: "IBAN DE00 1234" });
    expect((await adminNextSteps(t.db, admin, clock.now())).find((step) => step.key === "invoices-held-back")).toBeUndefined();
    expect((await issueDueCycles(t.db, clock, { cardPayments: false })).issued).toBe(1);
    expect((await invoicesOf(t.db, plan.id)).map((i) => i.cycleOn)).toEqual(["2026-01-31"]);
  });

  it("a monthly plan from Jan 31 bills Jan 31, Feb 28, Mar 31, Apr 30 on the agency's date, once each, mailed and numbered in sequence", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, timeZone: "America/New_York" });
    const { client, organisationId } = await clientWithOrganisation(s);
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, planInput(organisationId), clock);
    expect(plan.nextCycleOn).toBe("2026-01-31");

    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(1);
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(0);
    // 03:00 UTC on Feb 28 is still Feb 27 in New York: nothing; at 05:00 UTC it is Feb 28 there.
    clock.set("2026-02-28T03:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(0);
    clock.set("2026-02-28T05:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(1);
    clock.set("2026-03-31T12:00:00Z");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    clock.set("2026-04-30T12:00:00Z");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    await issueDueCycles(t.db, clock, { cardPayments: true });

    const issued = await invoicesOf(t.db, plan.id);
    expect(issued.map((i) => [i.number, i.cycleOn, i.dueDate, i.totalCents])).toEqual([
      ["INV-2026-0001", "2026-01-31", "2026-02-14", 20_000],
      ["INV-2026-0002", "2026-02-28", "2026-03-14", 20_000],
      ["INV-2026-0003", "2026-03-31", "2026-04-14", 20_000],
      ["INV-2026-0004", "2026-04-30", "2026-05-14", 20_000],
    ]);
    const [second] = await t.db.select().from(invoice).where(eq(invoice.id, issued[1]!.id));
    expect(second).toMatchObject({ organisationId, clientId: client.id, proposalId: null, status: "unpaid" });
    const items = await t.db.select().from(invoiceItem).where(eq(invoiceItem.invoiceId, issued[1]!.id)).orderBy(asc(invoiceItem.position));
    expect(items.map((i) => [i.description, i.amountCents])).toEqual([
      ["Hosting (Feb 28, 2026 – Mar 30, 2026)", 4_000],
      ["Maintenance (Feb 28, 2026 – Mar 30, 2026)", 16_000],
    ]);
    const mails = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, client.email), like(mailOutbox.subject, "New invoice%")));
    // "New invoice INV-2026-0001 — <company>": one mail per invoice.
    expect(mails.map((m) => m.subject.split(" — ")[0]).sort()).toEqual(
      ["INV-2026-0001", "INV-2026-0002", "INV-2026-0003", "INV-2026-0004"].map((n) => `New invoice ${n}`),
    );
    expect(mails[0]!.text).toContain("/i/");
    const [after] = await t.db.select().from(billingPlan).where(eq(billingPlan.id, plan.id));
    expect(after).toMatchObject({ nextCycleIndex: 4, nextCycleOn: "2026-05-31" });
  });

  it("a process down for three cycles issues the three invoices on recovery, once", async () => {
    const { t, s, admin } = ctx;
    const { organisationId } = await clientWithOrganisation(s);
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, planInput(organisationId), clock);
    await issueDueCycles(t.db, clock, { cardPayments: true });
    // Down from Feb 1 to May 1: Feb 28, Mar 31 and Apr 30 were missed.
    clock.set("2026-05-01T09:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(3);
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(0);
    expect((await invoicesOf(t.db, plan.id)).map((i) => i.cycleOn)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
  });

  it("ends after its number of invoices; refuses a start in the past and two ends", async () => {
    const { t, s, admin } = ctx;
    const { organisationId } = await clientWithOrganisation(s);
    const clock = manualClock("2026-03-10T12:00:00Z");
    const past = await refusalOf(createBillingPlan(t.db, admin, planInput(organisationId, { startDate: "2026-03-09" }), clock));
    expect(past).toMatchObject({ status: 400, fieldErrors: { startDate: [expect.stringMatching(/before today/)] } });
    const both = await refusalOf(
      createBillingPlan(t.db, admin, planInput(organisationId, { startDate: "2026-03-10", endDate: "2026-12-31", maxCycles: 2 }), clock),
    );
    expect(both.status).toBe(400);
    const client = await makeClient(s);
    expect((await refusalOf(createBillingPlan(t.db, client, planInput(organisationId, { startDate: "2026-03-10" }), clock))).status).toBe(
      403,
    );

    const plan = await createBillingPlan(
      t.db,
      admin,
      planInput(organisationId, { frequency: "weekly", startDate: "2026-03-10", maxCycles: 2 }),
      clock,
    );
    clock.set("2026-04-30T12:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(2);
    const [ended] = await t.db.select().from(billingPlan).where(eq(billingPlan.id, plan.id));
    expect(ended!.nextCycleOn).toBeNull();
  });

  it("pause, resume (the pause's cycles are not billed), change from the next invoice, cancel: each audited", async () => {
    const { t, s, admin } = ctx;
    const { organisationId } = await clientWithOrganisation(s);
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, planInput(organisationId), clock);
    await issueDueCycles(t.db, clock, { cardPayments: true });
    await pauseBillingPlan(t.db, admin, plan.id, clock);
    expect((await refusalOf(pauseBillingPlan(t.db, admin, plan.id, clock))).status).toBe(409);
    clock.set("2026-03-31T12:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(0);
    clock.set("2026-04-15T12:00:00Z");
    const resumed = await resumeBillingPlan(t.db, admin, plan.id, clock);
    expect(resumed.nextCycleOn).toBe("2026-04-30");
    await changeBillingPlan(
      t.db,
      admin,
      plan.id,
      {
        name: "Hosting",
        items: [{ description: "Hosting", amountCents: 5_000 }],
        dueDays: 7,
        autopay: false,
        endDate: null,
        maxCycles: null,
      },
      clock,
    );
    clock.set("2026-04-30T12:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(1);
    expect((await invoicesOf(t.db, plan.id)).map((i) => [i.cycleOn, i.totalCents, i.dueDate])).toEqual([
      ["2026-01-31", 20_000, "2026-02-14"],
      ["2026-04-30", 5_000, "2026-05-07"],
    ]);
    await cancelBillingPlan(t.db, admin, plan.id, clock);
    clock.set("2026-06-30T12:00:00Z");
    expect((await issueDueCycles(t.db, clock, { cardPayments: true })).issued).toBe(0);
    expect((await refusalOf(resumeBillingPlan(t.db, admin, plan.id, clock))).status).toBe(409);
    const audit = await t.db
      .select({ action: auditEvent.action, actorId: auditEvent.actorId })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "billing-plan"), eq(auditEvent.entityId, String(plan.id))))
      .orderBy(asc(auditEvent.id));
    expect(audit).toEqual(["created", "paused", "resumed", "changed", "cancelled"].map((action) => ({ action, actorId: admin.id })));
  });

  it("the referring ambassador earns on each paid invoice of the plan for Settings' months from its start, in their ledger", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionRateBps: 1000, recurringCommissionMonths: 2 });
    const { organisationId } = await clientWithOrganisation(s);
    await t.db.insert(user).values({ id: "amb-recurring", email: "amb-recurring@example.com", name: "Amb", role: "ambassador" });
    await t.db.update(organisation).set({ referredById: "amb-recurring" }).where(eq(organisation.id, organisationId));
    const clock = manualClock("2026-01-31T12:00:00Z");
    const plan = await createBillingPlan(t.db, admin, planInput(organisationId), clock);
    clock.set("2026-03-31T12:00:00Z");
    await issueDueCycles(t.db, clock, { cardPayments: true });
    const issued = await invoicesOf(t.db, plan.id);
    expect(issued.map((i) => i.cycleOn)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31"]);
    for (const inv of issued) await recordFullPayment(t.db, admin, inv.id, { method: "bank_transfer", receivedAt: clock.now() });
    // Two months from Jan 31: the Jan 31 and Feb 28 invoices earn 10 % of $200.00; Mar 31 is past them.
    const entries = await t.db
      .select({
        invoiceId: commissionEntries.invoiceId,
        amountCents: commissionEntries.amountCents,
        proposalId: commissionEntries.proposalId,
      })
      .from(commissionEntries)
      .where(eq(commissionEntries.ambassadorId, "amb-recurring"))
      .orderBy(asc(commissionEntries.id));
    expect(entries).toEqual([
      { invoiceId: issued[0]!.id, amountCents: 2_000, proposalId: null },
      { invoiceId: issued[1]!.id, amountCents: 2_000, proposalId: null },
    ]);
    const ledger = await ledgerPage(t.db, "amb-recurring", pageRequestFrom(new URLSearchParams()), clock.now());
    expect(ledger.items.map((row) => [row.projectName, row.invoiceNumber, row.amountCents])).toEqual([
      ["Hosting and maintenance", issued[1]!.number, 2_000],
      ["Hosting and maintenance", issued[0]!.number, 2_000],
    ]);
    expect(ledger.items[0]!.clientName).toBe("Acme Bakery");
  });
});

// Two processes (two connection pools on one PostgreSQL database) issuing at once: each cycle once.
const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("recurring billing with two processes on PostgreSQL", () => {
  it("issues every due cycle of every plan exactly once", async () => {
    const created = await createPgDatabase(pgUrl!, "billing_parallel");
    const one = await openDatabase({ url: created.url, poolMax: 4 });
    const two = await openDatabase({ url: created.url, poolMax: 4 });
    try {
      const { makeAdmin, testServices } = await import("../../../tests/helpers/services");
      const s = testServices(one.db);
      const admin = await makeAdmin(s);
      const clock = manualClock("2026-01-31T12:00:00Z");
      const plans: number[] = [];
      for (let i = 0; i < 4; i++) {
        const { organisationId } = await clientWithOrganisation(s);
        plans.push((await createBillingPlan(one.db, admin, planInput(organisationId), clock)).id);
      }
      clock.set("2026-04-30T12:00:00Z");
      const runs = await Promise.all([
        issueDueCycles(one.db, clock, { cardPayments: true }),
        issueDueCycles(two.db, clock, { cardPayments: true }),
        issueDueCycles(one.db, clock, { cardPayments: true }),
        issueDueCycles(two.db, clock, { cardPayments: true }),
      ]);
      expect(runs.reduce((sum, r) => sum + r.issued, 0)).toBe(16);
      for (const id of plans)
        expect((await invoicesOf(one.db, id)).map((i) => i.cycleOn)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
      const numbers = (await one.db.select({ number: invoice.number }).from(invoice).orderBy(asc(invoice.number))).map((r) => r.number);
      expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => `INV-2026-${String(i + 1).padStart(4, "0")}`));
    } finally {
      await one.close();
      await two.close();
      await created.drop();
    }
  });
});
