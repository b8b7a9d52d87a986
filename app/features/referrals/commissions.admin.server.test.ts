import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvent, commissionEntries, liveEvent, mailOutbox, payments, payouts, proposal, settings } from "#app/db/schema";
import { recordPayment, recordRefund } from "#app/features/payments/record-payment.server";
import { approveProposal } from "#app/features/proposals/proposals.server";
import { advanceClock, now, resetClock } from "#app/lib/clock.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, insertReferredProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { insertInvoice, recordTestPayment } from "../../../tests/helpers/payments";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import {
  createPayout,
  exportPayoutForAdmin,
  exportPayoutsForAdmin,
  getAmbassadorCommissions,
  grandCommissionTotals,
  listAmbassadorsForAdmin,
} from "./commissions.admin.server";
import { getAmbassadorEarnings } from "./referrals.server";
import { PAYOUT_MESSAGES } from "./payouts.messages";

const pages = { entries: { size: 25 }, payouts: { size: 25 }, clients: { size: 25 } };
const approvedAt = new Date("2026-02-01T12:00:00Z");
const DAY = 86_400_000;
const payout = { reference: "SEPA-1", method: "bank_transfer" as const, paidAt: new Date("2026-03-01T00:00:00Z") };

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe.each(testDatabases())("commission ledger and payouts on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  afterEach(() => resetClock());

  /** An approved ambassador proposal (rate frozen at 15 %) with an invoice. */
  async function approvedWithInvoice(totalCents = 200_000) {
    const { t, s } = ctx;
    const made = await insertReferredProposal(s, { budgetCents: 100_000, clientApprovedAt: approvedAt, commissionRateBps: 1500 });
    const invoiceId = await insertInvoice(t.db, made.id, totalCents, made.client.id);
    return { ...made, invoiceId };
  }

  it("writes +rate × amount per payment and −rate × amount per refund, half up per entry, Pending during the hold", async () => {
    const { t, admin } = ctx;
    const { ambassador, invoiceId } = await approvedWithInvoice();
    const first = await recordTestPayment(t.db, { invoiceId, amountCents: 100_010 }); // 15001.5 → 15002
    await recordTestPayment(t.db, { invoiceId, amountCents: 99_990 }); // 14998.5 → 14999
    await recordTestPayment(t.db, { invoiceId, amountCents: -10, refundOf: first }); // -1.5 → -2
    const entries = await t.db.select().from(commissionEntries).orderBy(commissionEntries.id);
    expect(entries.map((e) => [e.kind, e.baseCents, e.rateBps, e.amountCents])).toEqual([
      ["payment", 100_010, 1500, 15_002],
      ["payment", 99_990, 1500, 14_999],
      ["refund", -10, 1500, -2],
    ]);
    const received = new Map((await t.db.select().from(payments)).map((p) => [p.id, p.receivedAt.getTime()]));
    for (const e of entries) {
      expect(e.ambassadorId).toBe(ambassador.id);
      // The hold counts from when the money was received (#36).
      expect(e.payableAt.getTime() - received.get(e.paymentId!)!).toBe(30 * DAY);
    }
    const earnings = await getAmbassadorEarnings(t.db, ambassador);
    expect(earnings.totals).toEqual({ pendingCents: 29_999, payableCents: 0, paidOutCents: 0 });
    expect(earnings.entries.items.map((e) => e.state)).toEqual(["pending", "pending", "pending"]);
    expect(earnings.entries.items[0]).toMatchObject({ kind: "refund", amountCents: -2, clientName: "Acme Bakery" });
    expect(earnings.entries.items[0]!.invoiceNumber).toMatch(/^INV-T-/);
    expect((await getAmbassadorCommissions(t.db, admin, ambassador.id, pages)).payoutCents).toBeNull();
    // Each entry is told to the ambassador's open pages (live updates), to nobody else.
    const live = await t.db.select().from(liveEvent).where(eq(liveEvent.kind, "commission.entry-created"));
    expect(live).toHaveLength(3);
    for (const event of live) expect(event).toMatchObject({ userIds: [ambassador.id], admins: false });
  });

  it("counts the hold from when a payment was received, not when it was recorded (#36)", async () => {
    const { t, admin } = ctx;
    const { ambassador, invoiceId } = await approvedWithInvoice(200_000);
    // Recorded today, received 20 days ago: payable in 10 days, not 30.
    const receivedAt = new Date(Date.now() - 20 * DAY);
    const { payment } = await recordPayment(t.db, admin, invoiceId, { amountCents: 20_000, currency: "USD", method: "cash", receivedAt });
    const [entry] = await t.db.select().from(commissionEntries).where(eq(commissionEntries.paymentId, payment.id));
    expect(entry!.payableAt.getTime()).toBe(receivedAt.getTime() + 30 * DAY);
    // Received 31 days ago: its entry is payable at once.
    await recordPayment(t.db, admin, invoiceId, {
      amountCents: 10_000,
      currency: "USD",
      method: "cash",
      receivedAt: new Date(Date.now() - 31 * DAY),
    });
    const earnings = await getAmbassadorEarnings(t.db, ambassador);
    expect(earnings.totals).toEqual({ pendingCents: 3_000, payableCents: 1_500, paidOutCents: 0 });
  });

  it("is written by the payments use-cases in the payment's transaction: record payment, refund; a refused payment writes none", async () => {
    const { t, admin } = ctx;
    const { ambassador, invoiceId } = await approvedWithInvoice(200_000);
    const paid = await recordPayment(t.db, admin, invoiceId, {
      amountCents: 150_000,
      currency: "USD",
      method: "bank_transfer",
      receivedAt: new Date(),
    });
    await recordRefund(t.db, admin, invoiceId, {
      paymentId: paid.payment.id,
      amountCents: 40_000,
      currency: "USD",
      receivedAt: new Date(),
    });
    expect(
      (
        await rejectionOf(
          recordPayment(t.db, admin, invoiceId, { amountCents: 999_999, currency: "USD", method: "cash", receivedAt: new Date() }),
        )
      ).status,
    ).toBeGreaterThanOrEqual(400);
    // Parallel payments of the rest: each one that is recorded has exactly one entry.
    await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        recordPayment(t.db, admin, invoiceId, { amountCents: 20_000, currency: "USD", method: "cash", receivedAt: new Date() }),
      ),
    );
    const entries = await t.db.select().from(commissionEntries).orderBy(commissionEntries.id);
    const allPayments = await t.db.select().from(payments).orderBy(payments.id);
    expect(entries.map((e) => e.paymentId)).toEqual(allPayments.map((p) => p.id));
    expect(entries.slice(0, 2).map((e) => [e.kind, e.amountCents])).toEqual([
      ["payment", 22_500],
      ["refund", -6_000],
    ]);
    expect(entries.every((e) => e.ambassadorId === ambassador.id)).toBe(true);
  });

  it("earns nothing on a client's own proposal or before approval; approval freezes the rate and catches up earlier payments", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s, { verified: true });
    const own = await insertProposal(t.db, { clientId: client.id, budgetCents: 50_000 });
    await recordTestPayment(t.db, { invoiceId: await insertInvoice(t.db, own, 50_000, client.id), amountCents: 50_000 });
    const pending = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientId: client.id,
      clientEmail: client.email,
      budgetCents: 80_000,
    });
    const invoiceId = await insertInvoice(t.db, pending, 80_000, client.id);
    await recordTestPayment(t.db, { invoiceId, amountCents: 30_000 });
    expect(await t.db.select().from(commissionEntries)).toEqual([]);

    await t.db.insert(settings).values({ id: 1, commissionRateBps: 1000 });
    expect(await approveProposal(t.db, client, pending)).toEqual({ changed: true });
    const [row] = await t.db.select({ rate: proposal.commissionRateBps }).from(proposal).where(eq(proposal.id, pending));
    expect(row!.rate).toBe(1000);
    // A later rate change does not touch the frozen rate.
    await t.db.update(settings).set({ commissionRateBps: 2500 });
    await recordTestPayment(t.db, { invoiceId, amountCents: 50_000 });
    const entries = await t.db.select().from(commissionEntries).orderBy(commissionEntries.id);
    expect(entries.map((e) => [e.baseCents, e.rateBps, e.amountCents])).toEqual([
      [30_000, 1000, 3_000],
      [50_000, 1000, 5_000],
    ]);
  });

  it("writes one entry per payment even when the hook runs twice", async () => {
    const { t } = ctx;
    const { invoiceId } = await approvedWithInvoice();
    const id = await recordTestPayment(t.db, { invoiceId, amountCents: 10_000 });
    const { syncProposalCommissions } = await import("./ledger.server");
    const [entry] = await t.db.select().from(commissionEntries);
    expect(await syncProposalCommissions(t.db, entry!.proposalId!)).toBe(0);
    expect(await t.db.select().from(commissionEntries)).toHaveLength(1);
    expect(entry!.paymentId).toBe(id);
  });

  it("becomes Payable after the hold; Create payout takes every payable entry, mails a statement and is audited", async () => {
    const { t, admin } = ctx;
    const { ambassador, invoiceId } = await approvedWithInvoice();
    await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    advanceClock(10 * DAY);
    await recordTestPayment(t.db, { invoiceId, amountCents: 60_000 });
    advanceClock(21 * DAY); // the first is 31 days old, the second 21
    const before = await getAmbassadorCommissions(t.db, admin, ambassador.id, pages);
    expect(before.totals).toEqual({ pendingCents: 9_000, payableCents: 15_000, paidOutCents: 0 });
    expect(before.payoutCents).toBe(15_000);
    expect(await grandCommissionTotals(t.db, now())).toEqual(before.totals);

    const outboxBefore = (await t.db.select().from(mailOutbox)).length;
    const made = await createPayout(t.db, admin, ambassador.id, payout);
    expect(made).toMatchObject({ totalCents: 15_000, entries: 1 });
    const [stored] = await t.db.select().from(payouts);
    expect(stored).toMatchObject({
      ambassadorId: ambassador.id,
      totalCents: 15_000,
      reference: "SEPA-1",
      method: "bank_transfer",
      createdBy: admin.id,
    });
    const after = await getAmbassadorEarnings(t.db, ambassador);
    expect(after.totals).toEqual({ pendingCents: 9_000, payableCents: 0, paidOutCents: 15_000 });
    expect(after.entries.items.map((e) => e.state)).toEqual(["pending", "paid_out"]);
    const [audit] = await t.db.select().from(auditEvent).where(eq(auditEvent.entity, "payout"));
    expect(audit).toMatchObject({ action: "created", entityId: String(made.payoutId), actorId: admin.id });
    const mails = (await t.db.select().from(mailOutbox)).slice(outboxBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(ambassador.email);
    expect(mails[0]!.subject).toContain("Commission payout: $150.00");
    expect(mails[0]!.text).toContain("Total: $150.00.");

    // Nothing payable any more: refused, nothing written.
    const snap = await snapshot(t.db);
    const refused = await rejectionOf(createPayout(t.db, admin, ambassador.id, payout));
    expect(refused).toMatchObject({ status: 409, message: PAYOUT_MESSAGES.nothingPayable("$0.00") });
    expect(await snapshot(t.db)).toEqual(snap);
  });

  it("carries a negative payable balance (a refund after a payout) over and nets it against the next payout", async () => {
    const { t, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
    const { ambassador, invoiceId } = await approvedWithInvoice();
    const paid = await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    expect((await createPayout(t.db, admin, ambassador.id, payout)).totalCents).toBe(15_000);
    await recordTestPayment(t.db, { invoiceId, amountCents: -40_000, refundOf: paid });
    expect((await getAmbassadorEarnings(t.db, ambassador)).totals).toEqual({ pendingCents: 0, payableCents: -6_000, paidOutCents: 15_000 });
    expect(await rejectionOf(createPayout(t.db, admin, ambassador.id, payout))).toMatchObject({
      status: 409,
      message: PAYOUT_MESSAGES.nothingPayable("-$60.00"),
    });
    await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    const next = await createPayout(t.db, admin, ambassador.id, { ...payout, reference: "SEPA-2" });
    expect(next).toMatchObject({ totalCents: 9_000, entries: 2 });
    expect((await getAmbassadorEarnings(t.db, ambassador)).totals).toEqual({ pendingCents: 0, payableCents: 0, paidOutCents: 24_000 });

    const all = await collect(await exportPayoutsForAdmin(t.db, admin));
    expect(all.map((p) => [p.reference, p.totalCents, p.entries])).toEqual([
      ["SEPA-2", 9_000, 2],
      ["SEPA-1", 15_000, 1],
    ]);
    const one = await exportPayoutForAdmin(t.db, admin, next.payoutId);
    expect((await collect(one.entries)).map((e) => e.amountCents).sort((a, b) => a - b)).toEqual([-6_000, 15_000]);
    expect((await rejectionOf(exportPayoutForAdmin(t.db, admin, 999_999))).status).toBe(404);
  });

  it("pays each entry once when two payouts of one ambassador are created at once", async () => {
    const { t, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
    const { ambassador, invoiceId } = await approvedWithInvoice();
    await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    const results = await Promise.allSettled([1, 2, 3].map(() => createPayout(t.db, admin, ambassador.id, payout)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as { status: number }).status).toBe(409);
    expect(await t.db.select().from(payouts)).toHaveLength(1);
  });

  it("lists each ambassador's balances; the grand totals (tally) equal the ledger", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
    const a = await approvedWithInvoice();
    const b = await approvedWithInvoice();
    await recordTestPayment(t.db, { invoiceId: a.invoiceId, amountCents: 100_000 });
    await recordTestPayment(t.db, { invoiceId: b.invoiceId, amountCents: 20_000 });
    await createPayout(t.db, admin, b.ambassador.id, payout);
    await t.db.update(settings).set({ commissionHoldDays: 30 });
    await recordTestPayment(t.db, { invoiceId: b.invoiceId, amountCents: 10_000 });
    const idle = await makeAmbassador(s);
    const list = await listAmbassadorsForAdmin(t.db, admin, {}, { size: 25 });
    const byId = new Map(list.items.map((r) => [r.id, r]));
    expect(byId.get(a.ambassador.id)).toMatchObject({
      pendingCents: 0,
      payableCents: 15_000,
      paidOutCents: 0,
      proposals: 1,
      approvedProposals: 1,
    });
    // An ambassador with no proposal, client or ledger entry reads zeros (nothing joined).
    expect(byId.get(idle.id)).toMatchObject({
      proposals: 0,
      approvedProposals: 0,
      referredClients: 0,
      pendingCents: 0,
      payableCents: 0,
      paidOutCents: 0,
    });
    expect(byId.get(b.ambassador.id)).toMatchObject({ pendingCents: 1_500, payableCents: 0, paidOutCents: 3_000 });
    expect(list.totals).toEqual({ pendingCents: 1_500, payableCents: 15_000, paidOutCents: 3_000 });
    expect(list.holdDays).toBe(30);
  });

  it("refuses clients and ambassadors, an unknown ambassador, and shows an ambassador only their own entries", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
    const { ambassador, client, invoiceId } = await approvedWithInvoice();
    await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    const other = await makeAmbassador(s);
    expect((await getAmbassadorEarnings(t.db, other)).entries.items).toEqual([]);
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(createPayout(t.db, actor, ambassador.id, payout))).status).toBe(403);
      expect((await rejectionOf(listAmbassadorsForAdmin(t.db, actor, {}, { size: 25 }))).status).toBe(403);
      expect((await rejectionOf(getAmbassadorCommissions(t.db, actor, ambassador.id, pages))).status).toBe(403);
      expect((await rejectionOf(exportPayoutsForAdmin(t.db, actor))).status).toBe(403);
    }
    expect((await rejectionOf(getAmbassadorEarnings(t.db, client))).status).toBe(403);
    expect((await rejectionOf(createPayout(t.db, admin, client.id, payout))).status).toBe(404);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("searches ambassadors by name, e-mail or referral code case-insensitively; 404 for a non-ambassador", async () => {
    const { t, s, admin } = ctx;
    const a = await makeAmbassador(s, { referralCode: "Alpha-Code", email: "first@amb.example" });
    await makeAmbassador(s, { referralCode: "beta" });
    const client = await makeClient(s);
    const ids = async (q: string) => (await listAmbassadorsForAdmin(t.db, admin, { q }, { size: 25 })).items.map((r) => r.id);
    expect(await ids("ALPHA")).toEqual([a.id]);
    expect(await ids("FIRST@AMB")).toEqual([a.id]);
    expect(await ids("bassador")).toHaveLength(2);
    expect((await rejectionOf(getAmbassadorCommissions(t.db, admin, client.id, pages))).status).toBe(404);
  });
});
