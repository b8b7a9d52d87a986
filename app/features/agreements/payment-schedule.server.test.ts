/**
 * #37 payment schedules: the offer form's schedule adds up to the total exactly (percentages that
 * do not divide included), is stored with the version and shown in its diff; acceptance issues the
 * deposit line and dates the others in the agency's time zone; the job issues each due line exactly
 * once (two runners at once); only an admin marks a milestone reached.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, invoice, mailOutbox, paymentScheduleLine, proposalVersion, settings } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { dateIn, addCalendarDays } from "#app/features/meetings/slots";
import { acceptOffer } from "./acceptance.server";
import { saveOffer } from "./offers.server";
import { offerFormSchema } from "./offer.schema";
import { issueDueScheduleLines, listScheduleLines, markMilestoneReached } from "./payment-schedule.server";
import { readAgreement, type OfferTermsInput } from "./versions.server";
import type { VersionTerms } from "./terms";
import { generateInvoice } from "#app/features/invoices/generate-invoice.server";

const META = { ip: "203.0.113.9", userAgent: "TestAgent/1.0", timeZone: "UTC", origin: "https://portal.example" };
const DAY = 24 * 3600 * 1000;

/** The offer form as posted: $1,000.00, no deposit, milestones of 33.33 % and 33.33 %, the rest. */
function posted(overrides: Record<string, unknown> = {}) {
  return {
    scope: "Design and build.",
    items: [{ description: "Site", quantity: "1", unitPrice: "1,000.00" }],
    depositKind: "none",
    schedule: [
      { label: "Design approved", shareKind: "percent", shareValue: "33.33", dueKind: "milestone" },
      { label: "Build done", shareKind: "percent", shareValue: "33.33", dueKind: "days_after_signing", dueDays: "10" },
    ],
    finalDueKind: "date",
    finalDueDate: "2030-01-15",
    ...overrides,
  };
}

describe("the offer form's payment schedule", () => {
  it("splits $1,000.00 in three parts exactly and keeps the due rules", () => {
    const parsed = offerFormSchema.safeParse(posted());
    expect(parsed.success).toBe(true);
    expect(parsed.data!.schedule).toEqual([
      { label: "Design approved", share: { kind: "percent", value: 3333 }, due: { kind: "milestone" } },
      { label: "Build done", share: { kind: "percent", value: 3333 }, due: { kind: "days_after_signing", days: 10 } },
      { label: "Final payment", share: { kind: "rest" }, due: { kind: "date", date: "2030-01-15" } },
    ]);
  });

  it("puts each problem next to its field, and the sum's next to the schedule", () => {
    const errors = (value: Record<string, unknown>) => {
      const parsed = offerFormSchema.safeParse(value);
      expect(parsed.success).toBe(false);
      return Object.fromEntries(parsed.error!.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(
      errors(
        posted({
          schedule: [
            { label: "A", shareKind: "percent", shareValue: "120", dueKind: "milestone" },
            { label: "B", shareKind: "amount", shareValue: "100", dueKind: "date", dueDate: "2030-02-30" },
            { label: "C", shareKind: "amount", shareValue: "100", dueKind: "days_after_signing", dueDays: "0" },
          ],
        }),
      ),
    ).toEqual({
      "schedule.0.shareValue": "Enter a percentage above 0 and at most 100, with at most two decimals.",
      "schedule.1.dueDate": "Enter a real due date.",
      "schedule.2.dueDays": "Enter a number of days from 1 to 730.",
    });
    expect(
      errors(
        posted({
          depositKind: "percent",
          depositValue: "30",
          schedule: [{ label: "A", shareKind: "amount", shareValue: "800.00", dueKind: "milestone" }],
        }),
      ),
    ).toEqual({ schedule: "The schedule asks $1,100.00, more than the offer's total of $1,000.00." });
    expect(errors(posted({ schedule: [{ label: "A", shareKind: "percent", shareValue: "100", dueKind: "milestone" }] }))).toEqual({
      schedule: "The milestones take the whole total: lower one of them so the final payment is above 0.",
    });
    expect(errors(posted({ finalDueKind: "days_after_signing", finalDueDays: "" }))).toEqual({
      finalDueDays: "Enter a number of days from 1 to 730.",
    });
  });

  it("accepts an offer without a schedule as before", () => {
    const parsed = offerFormSchema.safeParse(posted({ schedule: undefined }));
    expect(parsed.success && parsed.data.schedule).toEqual([]);
  });
});

/** $1,000.00, a 10 % deposit, a milestone of 33.33 %, one 10 days after signing of 33.33 %, the rest in 40 days. */
const OFFER: OfferTermsInput = {
  projectName: "Bakery site",
  scope: "Design and build.",
  items: [{ description: "Site", quantity: 1, unitPriceCents: 100_000 }],
  timeline: "",
  deposit: { kind: "percent", value: 10 },
  schedule: [
    { label: "Milestone 1: design approved", share: { kind: "percent", value: 3333 }, due: { kind: "milestone" } },
    { label: "Milestone 2: build", share: { kind: "percent", value: 3333 }, due: { kind: "days_after_signing", days: 10 } },
    { label: "Final payment", share: { kind: "rest" }, due: { kind: "days_after_signing", days: 40 } },
  ],
  validUntil: null,
};

describe.each(testDatabases())("payment schedules on %s", (_name, open) => {
  const ctx = useTestServices(open);

  async function acceptedProposal() {
    const { t, s } = ctx;
    await t.db
      .insert(settings)
      .values({ id: 1, timeZone: "Pacific/Kiritimati" })
      .onConflictDoUpdate({ target: settings.id, set: { timeZone: "Pacific/Kiritimati" } });
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    const accepted = await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META);
    return { admin, client, id, accepted };
  }

  it("stores the schedule with the version, exact in cents, and refuses one that does not add up", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    const [v1] = await t.db.select().from(proposalVersion).where(eq(proposalVersion.proposalId, id));
    const terms = v1!.terms as unknown as VersionTerms;
    // 10 % deposit = $100.00; 33.33 % of $1,000.00 = $333.30 each; the rest $233.40.
    expect(terms.schedule!.map((l) => l.amountCents)).toEqual([33_330, 33_330, 23_340]);
    expect(10_000 + terms.schedule!.reduce((sum, l) => sum + l.amountCents, 0)).toBe(terms.totalCents);
    // Thirds of $1,000.00 without a deposit: the largest remainder gives the odd cent to the first.
    const thirds = {
      ...OFFER,
      deposit: null,
      schedule: [
        { label: "A", share: { kind: "rest" as const }, due: { kind: "milestone" as const } },
        { label: "B", share: { kind: "rest" as const }, due: { kind: "milestone" as const } },
        { label: "Final payment", share: { kind: "rest" as const }, due: { kind: "milestone" as const } },
      ],
    };
    await saveOffer(t.db, admin, id, thirds, "send", { cardPayments: true });
    const { current, history } = await readAgreement(t.db, id);
    expect(current!.terms.schedule!.map((l) => l.amountCents)).toEqual([33_334, 33_333, 33_333]);
    // The version diff shows the schedule's change.
    const change = history.versions[0]!.changes.find((c) => c.field === "schedule");
    expect(change?.label).toBe("Payment schedule");
    expect(change?.old).toContain("Milestone 1: design approved — 33.33 % ($333.30), when the agency marks it reached");
    expect(change?.new).toContain("A — the rest ($333.34), when the agency marks it reached");
    // The use-case checks the sum itself (400 next to the schedule), whatever the form let through.
    const over = {
      ...OFFER,
      schedule: [{ ...OFFER.schedule![0]!, share: { kind: "amount" as const, value: 95_000 } }, OFFER.schedule![2]!],
    };
    await expect(saveOffer(t.db, admin, id, over, "send", { cardPayments: true })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { schedule: ["The schedule asks $1,050.00, more than the offer's total of $1,000.00."] },
    });
    expect((await readAgreement(t.db, id)).current!.number).toBe(2);
  });

  it("issues the deposit at signing and dates the other lines in the agency's time zone", async () => {
    const { t } = ctx;
    const { id, accepted, client } = await acceptedProposal();
    expect(accepted.invoiceId).not.toBeNull();
    const [deposit] = await t.db.select().from(invoice).where(eq(invoice.id, accepted.invoiceId!));
    expect(deposit).toMatchObject({ totalCents: 10_000, depositCents: 10_000, proposalId: id, clientId: client.id });
    const signedOn = dateIn(new Date(), "Pacific/Kiritimati");
    const lines = await listScheduleLines(t.db, id);
    expect(lines.map((l) => [l.position, l.label, l.amountCents, l.dueKind, l.dueOn, l.invoiceId !== null])).toEqual([
      [0, "Deposit", 10_000, "signing", signedOn, true],
      [1, "Milestone 1: design approved", 33_330, "milestone", null, false],
      [2, "Milestone 2: build", 33_330, "days_after_signing", addCalendarDays(signedOn, 10), false],
      [3, "Final payment", 23_340, "days_after_signing", addCalendarDays(signedOn, 40), false],
    ]);
    const mail = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email))).find((m) =>
      m.subject.startsWith("New invoice"),
    );
    expect(mail!.text).toContain(
      "Pay $100.00 now (deposit). Next: Milestone 1: design approved ($333.30) is due when the agency marks it reached.",
    );
  });

  it("issues a line the day it falls due, exactly once, even with two runners at once", async () => {
    const { t } = ctx;
    const { id } = await acceptedProposal();
    const lines = await listScheduleLines(t.db, id);
    expect(lines[0]!.dueOn).toBe(dateIn(new Date(), "Pacific/Kiritimati"));
    const dueOn = lines[2]!.dueOn!;
    // The day before (agency time): nothing. Kiritimati is UTC+14: its day starts at 10:00 UTC the day before.
    const dayStart = new Date(`${dueOn}T00:00:00+14:00`);
    expect(await issueDueScheduleLines(t.db, new Date(dayStart.getTime() - 60_000), { cardPayments: true })).toBe(0);
    const runs = await Promise.all([
      issueDueScheduleLines(t.db, dayStart, { cardPayments: true }),
      issueDueScheduleLines(t.db, dayStart, { cardPayments: true }),
    ]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await issueDueScheduleLines(t.db, new Date(dayStart.getTime() + DAY), { cardPayments: true })).toBe(0);
    const invoices = await t.db.select().from(invoice).where(eq(invoice.proposalId, id));
    expect(invoices.map((i) => i.totalCents).sort()).toEqual([10_000, 33_330]);
    const issued = (await listScheduleLines(t.db, id))[2]!;
    expect(issued.invoiceId).not.toBeNull();
    const [audit] = await t.db
      .select({ actorEmail: auditEvent.actorEmail })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "invoice"), eq(auditEvent.entityId, String(issued.invoiceId)), eq(auditEvent.action, "created")));
    expect(audit!.actorEmail).toBe("Payment schedule");
  });

  it("lets only an admin mark a milestone reached, once, and issues its invoice at once (audited)", async () => {
    const { t, s } = ctx;
    const { id, admin, client } = await acceptedProposal();
    const milestone = (await listScheduleLines(t.db, id))[1]!;
    const ambassador = await makeAmbassador(s);
    await expect(markMilestoneReached(t.db, client, id, milestone.id, undefined, { cardPayments: true })).rejects.toMatchObject({
      status: 403,
    });
    await expect(markMilestoneReached(t.db, ambassador, id, milestone.id, undefined, { cardPayments: true })).rejects.toMatchObject({
      status: 403,
    });
    expect((await listScheduleLines(t.db, id))[1]!.reachedAt).toBeNull();
    const done = await markMilestoneReached(t.db, admin, id, milestone.id, undefined, { cardPayments: true });
    expect(done.message).toBe(`“Milestone 1: design approved” marked reached: invoice ${done.number} was sent to the client.`);
    const [row] = await t.db.select().from(invoice).where(eq(invoice.id, done.invoiceId));
    expect(row).toMatchObject({ totalCents: 33_330, depositCents: null, clientId: client.id });
    await expect(markMilestoneReached(t.db, admin, id, milestone.id, undefined, { cardPayments: true })).rejects.toMatchObject({
      status: 409,
    });
    // Not a milestone / another proposal's line.
    const dated = (await listScheduleLines(t.db, id))[2]!;
    await expect(markMilestoneReached(t.db, admin, id, dated.id, undefined, { cardPayments: true })).rejects.toMatchObject({ status: 409 });
    await expect(markMilestoneReached(t.db, admin, id + 1000, milestone.id, undefined, { cardPayments: true })).rejects.toMatchObject({
      status: 404,
    });
    const audits = await t.db
      .select({ actorId: auditEvent.actorId, after: auditEvent.after })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "proposal"), eq(auditEvent.entityId, String(id)), eq(auditEvent.action, "milestone-reached")));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBe(admin.id);
    // Its invoice is issued once: the job finds nothing more for it.
    expect(await issueDueScheduleLines(t.db, undefined, { cardPayments: true })).toBe(0);
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toHaveLength(2);
  });

  it("changes only the unissued lines when a new version is accepted after signing", async () => {
    const { t } = ctx;
    const { id, admin, client } = await acceptedProposal();
    const milestone = (await listScheduleLines(t.db, id))[1]!;
    await markMilestoneReached(t.db, admin, id, milestone.id, undefined, { cardPayments: true });
    // Version 2: the total rises to $2,000.00 and the second milestone becomes a fixed $500.00.
    const v2 = {
      ...OFFER,
      items: [{ description: "Site", quantity: 1, unitPriceCents: 200_000 }],
      schedule: [OFFER.schedule![0]!, { ...OFFER.schedule![1]!, share: { kind: "amount" as const, value: 50_000 } }, OFFER.schedule![2]!],
    };
    // The deposit stays a fixed $100.00 (issued), so the percentage deposit is given as that amount.
    await saveOffer(t.db, admin, id, { ...v2, deposit: { kind: "amount", value: 10_000 } }, "send", { cardPayments: true });
    const { current } = await readAgreement(t.db, id);
    // Issued: the deposit ($100.00) and milestone 1 ($333.30) keep their amounts; the rest follows the new total.
    expect(current!.terms.schedule!.map((l) => l.amountCents)).toEqual([33_330, 50_000, 106_670]);
    await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 2 }, META);
    const lines = await listScheduleLines(t.db, id);
    expect(lines.map((l) => [l.position, l.amountCents, l.invoiceId !== null])).toEqual([
      [0, 10_000, true],
      [1, 33_330, true],
      [2, 50_000, false],
      [3, 106_670, false],
    ]);
    expect(await t.db.select().from(paymentScheduleLine).where(eq(paymentScheduleLine.proposalId, id))).toHaveLength(4);
  });

  it("refuses to send an invoice the client could not pay: no card payments, no instructions (409, names the Settings section)", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    const input = { dueDate: "2030-01-01", items: [{ description: "Work", amountCents: 10_000 }] };
    await t.db
      .insert(settings)
      .values({ id: 1, paymentInstructions: "", paymentLinkTemplate: "" })
      .onConflictDoUpdate({ target: settings.id, set: { paymentInstructions: "", paymentLinkTemplate: "" } });
    await expect(generateInvoice(t.db, admin, id, input, new Date(), { cardPayments: false })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("/admin/settings/payments#payment-instructions"),
    });
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toEqual([]);
    // With card payments, or once the instructions are written, it is sent.
    await generateInvoice(t.db, admin, id, input, new Date(), { cardPayments: true });
    await t.db.update(settings).set({ paymentInstructions: "IBAN DE00 1234" });
    await generateInvoice(t.db, admin, id, input, new Date(), { cardPayments: false });
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toHaveLength(2);
  });

  it("without card payments and instructions: an offer asking money is not sent, a milestone is not marked, due lines wait; then go out", async () => {
    const { t } = ctx;
    const { admin, id } = await acceptedProposal();
    const noInstructions = { paymentInstructions: "", paymentLinkTemplate: "" };
    await t.db.update(settings).set(noInstructions);
    const refusal = { status: 409, message: expect.stringContaining("/admin/settings/payments#payment-instructions") };
    // Mark milestone reached: refused, nothing changes.
    const milestone = (await listScheduleLines(t.db, id))[1]!;
    await expect(markMilestoneReached(t.db, admin, id, milestone.id, new Date(), { cardPayments: false })).rejects.toMatchObject(refusal);
    expect((await listScheduleLines(t.db, id))[1]).toMatchObject({ reachedAt: null, invoiceId: null });
    // A line falling due waits (no invoice, no mail) until the instructions exist, then goes out on the next run.
    const dueOn = (await listScheduleLines(t.db, id))[2]!.dueOn!;
    const dayStart = new Date(`${dueOn}T00:00:00+14:00`);
    const invoicesBefore = (await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).length;
    expect(await issueDueScheduleLines(t.db, dayStart, { cardPayments: false })).toBe(0);
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toHaveLength(invoicesBefore);
    expect(await issueDueScheduleLines(t.db, dayStart, { cardPayments: true })).toBe(1);
    await t.db.update(settings).set({ paymentInstructions: "IBAN DE00 1234" });
    expect(await markMilestoneReached(t.db, admin, id, milestone.id, new Date(), { cardPayments: false })).toMatchObject({
      number: expect.stringMatching(/^INV-/),
    });

    // Sending an offer that asks a deposit or a schedule: refused; a draft, or an offer asking nothing now, is fine.
    await t.db.update(settings).set(noInstructions);
    const other = await insertProposal(t.db, { clientId: (await makeClient(ctx.s)).id, projectDetails: "x", status: "pending" });
    const deposit = { ...OFFER, schedule: [], deposit: { kind: "percent" as const, value: 30 } };
    for (const asking of [OFFER, deposit]) {
      await expect(saveOffer(t.db, admin, other, asking, "send", { cardPayments: false })).rejects.toMatchObject(refusal);
    }
    expect(await t.db.select().from(proposalVersion).where(eq(proposalVersion.proposalId, other))).toEqual([]);
    await saveOffer(t.db, admin, other, OFFER, "draft", { cardPayments: false });
    expect((await saveOffer(t.db, admin, other, { ...OFFER, schedule: [], deposit: null }, "send", { cardPayments: false })).version).toBe(
      1,
    );
    expect((await saveOffer(t.db, admin, other, OFFER, "send", { cardPayments: true })).version).toBe(2);
  });
});
