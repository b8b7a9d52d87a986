import { describe, expect, it } from "vitest";
import { settings } from "#app/db/schema";
import { submitAmbassadorProposal, approveProposal } from "#app/features/proposals/proposals.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { referralLink } from "./referral-link";
import { getAmbassadorDashboard, getAmbassadorEarnings, getReferringAmbassador } from "./referrals.server";

describe("referral link", () => {
  it("is the origin + /register?ref=<code>", () => {
    expect(referralLink("https://dev.example", "sunny-days")).toBe("https://dev.example/register?ref=sunny-days");
    expect(referralLink("http://localhost:3000/", "a_b")).toBe("http://localhost:3000/register?ref=a_b");
  });
});

describe.each(testDatabases())("referrals on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("shows the ambassador's code, the clients who registered through it, and their proposals with approval", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "Sunny" });
    const otherAmbassador = await makeAmbassador(s);
    const referred = await makeClient(s, { referralCode: "sunny", businessName: "Blue Cafe", verified: true });
    await makeClient(s, { referralCode: otherAmbassador.referralCode });
    await makeClient(s);
    const first = await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Blue Cafe",
      clientEmail: referred.email,
      projectName: "Cafe site",
      projectDetails: "Menu",
      budget: 100_000,
    });
    const second = await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Not yet",
      clientEmail: "later@example.com",
      projectName: null,
      projectDetails: "Shop",
      budget: null,
    });
    await submitAmbassadorProposal(t.db, otherAmbassador, {
      clientName: "X",
      clientEmail: "x@example.com",
      projectName: null,
      projectDetails: "X",
      budget: null,
    });
    await approveProposal(t.db, referred, first.id);

    const dashboard = await getAmbassadorDashboard(t.db, ambassador);
    expect(dashboard.referralCode).toBe("sunny");
    expect(dashboard.referredClients.map((c) => [c.id, c.businessName])).toEqual([[referred.id, "Blue Cafe"]]);
    expect(dashboard.proposals.map((p) => [p.id, p.clientRegistered, p.clientApprovedAt instanceof Date])).toEqual([
      [second.id, false, false],
      [first.id, true, true],
    ]);
    expect((await refusalOf(getAmbassadorDashboard(t.db, referred))).status).toBe(403);
  });

  it("computes commissions in cents on the invoice total or budget of approved proposals only; earned = pending + paid", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s);
    const base = { clientId: client.id, source: "ambassador" as const, ambassadorId: ambassador.id, status: "submitted" as const };
    const approved = new Date("2026-04-01T00:00:00Z");
    // Budget $5,000.50 → 15 % = $750.075 → rounded half up to $750.08.
    const onBudget = await insertProposal(t.db, { ...base, projectName: "budget", budgetCents: 500_050, clientApprovedAt: approved });
    // Invoice total wins over the budget: $1,234.56 → $185.184 → $185.18; commission already paid.
    const onInvoice = await insertProposal(t.db, {
      ...base,
      projectName: "invoice",
      budgetCents: 999_999,
      clientApprovedAt: new Date("2026-04-02T00:00:00Z"),
      commissionPaidAt: new Date(),
      commissionPaidCents: 18_518,
    });
    await insertInvoice(t.db, {
      proposalId: onInvoice,
      clientId: client.id,
      items: [
        ["a", 100_000],
        ["b", 23_456],
      ],
      dueDate: "2030-01-01",
    });
    // No amount known: listed with 0.
    const noAmount = await insertProposal(t.db, {
      ...base,
      projectName: "none",
      budgetCents: null,
      clientApprovedAt: new Date("2026-04-03T00:00:00Z"),
    });
    // Not approved, declined, or another ambassador's: not listed.
    await insertProposal(t.db, { ...base, budgetCents: 1_000_000 });
    await insertProposal(t.db, { ...base, budgetCents: 1_000_000, clientDeclinedAt: new Date(), declineReason: "no" });
    const other = await makeAmbassador(s);
    await insertProposal(t.db, { ...base, ambassadorId: other.id, budgetCents: 1_000_000, clientApprovedAt: approved });

    const earnings = await getAmbassadorEarnings(t.db, ambassador);
    expect(earnings.rateBps).toBe(1500);
    expect(earnings.rows.map((r) => [r.proposalId, r.baseCents, r.baseSource, r.commissionCents, r.paidAt !== null])).toEqual([
      [noAmount, null, null, 0, false],
      [onInvoice, 123_456, "invoice", 18_518, true],
      [onBudget, 500_050, "budget", 75_008, false],
    ]);
    expect(earnings.totals).toEqual({ earnedCents: 93_526, pendingCents: 75_008, paidCents: 18_518 });

    // The rate comes from settings; a commission already paid keeps the amount that was paid.
    await t.db.insert(settings).values({ id: 1, commissionRateBps: 1000 });
    const ten = await getAmbassadorEarnings(t.db, ambassador);
    expect(ten.totals).toEqual({ earnedCents: 50_005 + 18_518, pendingCents: 50_005, paidCents: 18_518 });
    expect((await refusalOf(getAmbassadorEarnings(t.db, client))).status).toBe(403);
  });

  it("names the client's referring ambassador, or none", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const referred = await makeClient(s, { referralCode: ambassador.referralCode });
    const direct = await makeClient(s);
    expect(await getReferringAmbassador(t.db, referred)).toEqual({ name: "Ann Bassador" });
    expect(await getReferringAmbassador(t.db, direct)).toBeNull();
    expect((await refusalOf(getReferringAmbassador(t.db, ambassador))).status).toBe(403);
  });
});
