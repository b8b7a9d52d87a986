import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoice, proposal, settings } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, insertReferredProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { commissionCents } from "./commission";
import { COMMISSION_MESSAGES, getAmbassadorCommissions, listAmbassadorsForAdmin, markCommissionPaid } from "./commissions.admin.server";

const pages = { proposals: { size: 25 }, clients: { size: 25 } };
const approvedAt = new Date("2026-02-01T12:00:00Z");

describe.each(testDatabases())("admin commissions on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("computes commission on client-approved proposals only: invoice total when there is one, else budget (15 %)", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "Sunny" });
    const referred = await makeClient(s, { referralCode: "sunny", businessName: "Referred Co" });
    const withBudget = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientId: referred.id,
      budgetCents: 100_000,
      clientApprovedAt: approvedAt,
      status: "pending",
    });
    const withInvoice = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientId: referred.id,
      budgetCents: 100_000,
      clientApprovedAt: approvedAt,
      status: "pending",
    });
    await t.db
      .insert(invoice)
      .values({ number: "INV-2026-0001", proposalId: withInvoice, clientId: referred.id, dueDate: "2026-04-01", totalCents: 250_003 });
    const unapproved = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientName: "Maybe",
      clientEmail: "maybe@example.com",
      budgetCents: 900_000,
    });

    const detail = await getAmbassadorCommissions(t.db, admin, ambassador.id, pages);
    expect(detail.rateBps).toBe(1500);
    const byId = Object.fromEntries(detail.proposals.items.map((p) => [p.id, p]));
    expect(byId[withBudget]).toMatchObject({ clientApproved: true, baseCents: 100_000, commissionCents: 15_000 });
    expect(byId[withInvoice]).toMatchObject({ clientApproved: true, baseCents: 250_003, commissionCents: 37_500 }); // 37500.45 → 37500
    expect(byId[unapproved]).toMatchObject({ clientApproved: false, commissionCents: 0 });
    expect(detail.totals).toEqual({ owedCents: 52_500, paidCents: 0 });
    expect(detail.referredClients.items.map((c) => c.name)).toEqual(["Referred Co"]);
    expect(detail.ambassador.referralCode).toBe("sunny");

    const list = await listAmbassadorsForAdmin(t.db, admin, {}, { size: 25 });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      referralCode: "sunny",
      referredClients: 1,
      proposals: 3,
      approvedProposals: 2,
      owedCents: 52_500,
      paidCents: 0,
      active: true,
    });
    expect(list.totals).toEqual({ owedCents: 52_500, paidCents: 0 });
  });

  it("uses the rate from settings, rounding each proposal half up like commission.ts", async () => {
    const { t, s, admin } = ctx;
    await t.db.insert(settings).values({ id: 1, commissionRateBps: 1250 });
    const ambassador = await makeAmbassador(s);
    const bases = [1, 4, 40, 99, 12_345, 1_000_000_000];
    for (const budgetCents of bases) await insertProposal(t.db, { ambassadorId: ambassador.id, budgetCents, clientApprovedAt: approvedAt });
    const expected = bases.reduce((sum, b) => sum + commissionCents(b, 1250), 0);
    const list = await listAmbassadorsForAdmin(t.db, admin, {}, { size: 25 });
    expect(list.rateBps).toBe(1250);
    expect(list.items[0]!.owedCents).toBe(expected);
    const detail = await getAmbassadorCommissions(t.db, admin, ambassador.id, pages);
    expect(detail.totals.owedCents).toBe(expected);
    expect(detail.proposals.items.reduce((sum, p) => sum + p.commissionCents, 0)).toBe(expected);
  });

  it("marks an approved commission paid, recording the amount; owed moves to paid and a rate change does not rewrite it", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s);
    const id = await insertProposal(t.db, { ambassadorId: ambassador.id, budgetCents: 200_000, clientApprovedAt: approvedAt });
    const other = await insertProposal(t.db, { ambassadorId: ambassador.id, budgetCents: 100_000, clientApprovedAt: approvedAt });
    expect(await markCommissionPaid(t.db, admin, id)).toEqual({ paidCents: 30_000 });
    const [row] = await t.db.select().from(proposal).where(eq(proposal.id, id));
    expect(row!.commissionPaidAt).toBeInstanceOf(Date);
    expect(row!.commissionPaidCents).toBe(30_000);
    expect((await getAmbassadorCommissions(t.db, admin, ambassador.id, pages)).totals).toEqual({ owedCents: 15_000, paidCents: 30_000 });

    await t.db.insert(settings).values({ id: 1, commissionRateBps: 2000 });
    const after = await listAmbassadorsForAdmin(t.db, admin, {}, { size: 25 });
    expect(after.items[0]).toMatchObject({ owedCents: 20_000, paidCents: 30_000 });
    expect(after.totals).toEqual({ owedCents: 20_000, paidCents: 30_000 });
    expect(other).toBeGreaterThan(0);

    const before = await snapshot(t.db);
    expect(await rejectionOf(markCommissionPaid(t.db, admin, id))).toMatchObject({ status: 409, message: COMMISSION_MESSAGES.alreadyPaid });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("refuses Mark as Paid for a proposal the client has not approved, writing nothing", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s);
    const unapproved = await insertProposal(t.db, { ambassadorId: ambassador.id, budgetCents: 100_000, status: "submitted" });
    const clientOwn = await insertProposal(t.db, { clientId: client.id, budgetCents: 100_000, clientApprovedAt: approvedAt });
    const noBase = await insertProposal(t.db, { ambassadorId: ambassador.id, clientApprovedAt: approvedAt });
    const before = await snapshot(t.db);
    expect(await rejectionOf(markCommissionPaid(t.db, admin, unapproved))).toMatchObject({
      status: 409,
      message: COMMISSION_MESSAGES.notApproved,
    });
    expect(await rejectionOf(markCommissionPaid(t.db, admin, clientOwn))).toMatchObject({
      status: 409,
      message: COMMISSION_MESSAGES.notAmbassadorProposal,
    });
    expect(await rejectionOf(markCommissionPaid(t.db, admin, noBase))).toMatchObject({ status: 409, message: COMMISSION_MESSAGES.noBase });
    expect((await rejectionOf(markCommissionPaid(t.db, admin, 999_999))).status).toBe(404);
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

  it("refuses clients and ambassadors without reading or writing", async () => {
    const { t, s } = ctx;
    const { ambassador, client, id } = await insertReferredProposal(s, { budgetCents: 100_000, clientApprovedAt: approvedAt });
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(markCommissionPaid(t.db, actor, id))).status).toBe(403);
      expect((await rejectionOf(listAmbassadorsForAdmin(t.db, actor, {}, { size: 25 }))).status).toBe(403);
      expect((await rejectionOf(getAmbassadorCommissions(t.db, actor, ambassador.id, pages))).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
