import { describe, expect, it } from "vitest";
import { settings } from "#app/db/schema";
import { submitAmbassadorProposal, approveProposal } from "#app/features/proposals/proposals.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, refusalOf } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { referralLink } from "./referral-link";
import { decodeCursor } from "#app/lib/pagination";
import { recordTestPayment } from "../../../tests/helpers/payments";
import { getAmbassadorCommissionTotals, getAmbassadorDashboard, getAmbassadorEarnings, getReferringAmbassador } from "./referrals.server";

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
    // Attribution is per organisation (issue #38): the referred client's organisation, with its owner's contact.
    expect(dashboard.referredClients.map((c) => [c.businessName, c.email])).toEqual([["Blue Cafe", referred.email]]);
    expect(dashboard.proposals.map((p) => [p.id, p.clientRegistered, p.clientApprovedAt instanceof Date])).toEqual([
      [second.id, false, false],
      [first.id, true, true],
    ]);
    expect((await refusalOf(getAmbassadorDashboard(t.db, referred))).status).toBe(403);
  });

  it("earnings: the ambassador's own ledger (date, client, invoice, payment, rate, commission, state), paged, and its totals", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s, { businessName: "Blue Cafe", verified: true, referralCode: ambassador.referralCode });
    await t.db.insert(settings).values({ id: 1, commissionRateBps: 1250 });
    const { id } = await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Blue Cafe",
      clientEmail: client.email,
      projectName: "Cafe site",
      projectDetails: "Menu",
      budget: 100_000,
    });
    await approveProposal(t.db, client, id);
    const invoiceId = await insertInvoice(t.db, { proposalId: id, clientId: client.id, items: [["Site", 123_456]], dueDate: "2030-01-01" });
    const first = await recordTestPayment(t.db, { invoiceId, amountCents: 100_000 });
    await recordTestPayment(t.db, { invoiceId, amountCents: 23_456 }); // 2932 cents exactly
    await recordTestPayment(t.db, { invoiceId, amountCents: -5, refundOf: first }); // -0.625 → -1
    // Another ambassador's commissions are not listed.
    const other = await makeAmbassador(s);
    const otherClient = await makeClient(s, { verified: true, referralCode: other.referralCode });
    const { id: otherId } = await submitAmbassadorProposal(t.db, other, {
      clientName: "Green Cafe",
      clientEmail: otherClient.email,
      projectName: "Other",
      projectDetails: "x",
      budget: null,
    });
    await approveProposal(t.db, otherClient, otherId);
    await recordTestPayment(t.db, {
      invoiceId: await insertInvoice(t.db, { proposalId: otherId, clientId: otherClient.id, items: [["x", 1_000]], dueDate: "2030-01-01" }),
      amountCents: 1_000,
    });

    const earnings = await getAmbassadorEarnings(t.db, ambassador, { size: 2 });
    expect(earnings).toMatchObject({ rateBps: 1250, holdDays: 30, currency: "USD" });
    expect(earnings.entries.total).toBe(3);
    expect(earnings.entries.items.map((e) => [e.kind, e.baseCents, e.rateBps, e.amountCents, e.state, e.clientName])).toEqual([
      ["refund", -5, 1250, -1, "pending", "Blue Cafe"],
      ["payment", 23_456, 1250, 2_932, "pending", "Blue Cafe"],
    ]);
    expect(earnings.totals).toEqual({ pendingCents: 12_500 + 2_932 - 1, payableCents: 0, paidOutCents: 0 });
    const next = await getAmbassadorEarnings(t.db, ambassador, {
      size: 2,
      after: decodeCursor(earnings.entries.next)!,
    });
    expect(next.entries.items.map((e) => e.amountCents)).toEqual([12_500]);
    expect(await getAmbassadorCommissionTotals(t.db, ambassador)).toEqual({ ...earnings.totals, currency: "USD" });
    expect((await refusalOf(getAmbassadorEarnings(t.db, client))).status).toBe(403);
    expect((await refusalOf(getAmbassadorCommissionTotals(t.db, client))).status).toBe(403);
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
