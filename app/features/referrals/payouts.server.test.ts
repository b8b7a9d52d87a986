/**
 * The ambassador's Payouts page's use-case (issue #41): only the acting ambassador's payouts,
 * newest first, 25 per page, each with what it covered; other roles are refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import { payouts } from "#app/db/schema";
import { advanceClock, resetClock } from "#app/lib/clock.server";
import { pageRequestFrom } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, insertReferredProposal, rejectionOf } from "../../../tests/helpers/admin-data";
import { insertInvoice, recordTestPayment } from "../../../tests/helpers/payments";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { createPayout, getAmbassadorCommissions } from "./commissions.admin.server";
import { getAmbassadorPayouts, PAYOUTS_PAGE_SIZE } from "./referrals.server";

const DAY = 86_400_000;
const approvedAt = new Date("2026-02-01T12:00:00Z");

describe.each(testDatabases())("ambassador payouts on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  afterEach(() => resetClock());

  it("shows the acting ambassador's payouts with what each covered, never another ambassador's; other roles get 403", async () => {
    const { t, s, admin } = ctx;
    const made = await insertReferredProposal(s, { budgetCents: 100_000, clientApprovedAt: approvedAt, commissionRateBps: 1500 });
    const { ambassador } = made;
    const invoiceA = await insertInvoice(t.db, made.id, 200_000, made.client.id);
    // A second proposal of the same ambassador, another client: the payout covers both.
    const second = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientId: (await makeClient(s)).id,
      clientApprovedAt: approvedAt,
      commissionRateBps: 1000,
    });
    const invoiceB = await insertInvoice(t.db, second, 50_000);
    await recordTestPayment(t.db, { invoiceId: invoiceA, amountCents: 100_000 }); // +15,000
    const refunded = await recordTestPayment(t.db, { invoiceId: invoiceA, amountCents: 20_000 }); // +3,000
    await recordTestPayment(t.db, { invoiceId: invoiceA, amountCents: -10_000, refundOf: refunded }); // -1,500
    await recordTestPayment(t.db, { invoiceId: invoiceB, amountCents: 50_000 }); // +5,000
    advanceClock(31 * DAY);
    const paidAt = new Date("2026-03-01T00:00:00Z");
    const { payoutId } = await createPayout(t.db, admin, ambassador.id, { reference: "SEPA-OWN", method: "bank_transfer", paidAt });

    // Another ambassador with a payout of their own.
    const other = await insertReferredProposal(s, { budgetCents: 100_000, clientApprovedAt: approvedAt, commissionRateBps: 1500 });
    await recordTestPayment(t.db, { invoiceId: await insertInvoice(t.db, other.id, 100_000, other.client.id), amountCents: 100_000 });
    advanceClock(31 * DAY);
    await createPayout(t.db, admin, other.ambassador.id, { reference: "SEPA-OTHER", method: "cash", paidAt });

    const mine = await getAmbassadorPayouts(t.db, ambassador);
    expect(mine.total).toBe(1);
    expect(mine.items).toHaveLength(1);
    const [payout] = mine.items;
    expect(payout).toMatchObject({
      id: payoutId,
      ambassadorId: ambassador.id,
      totalCents: 21_500,
      currency: "USD",
      reference: "SEPA-OWN",
      method: "bank_transfer",
      paidAt: paidAt.toISOString(),
      entries: 4,
    });
    // No admin's e-mail reaches the ambassador.
    expect(payout).not.toHaveProperty("createdByEmail");
    expect(JSON.stringify(mine)).not.toContain(admin.email);
    const byProposal = new Map(payout!.covered.map((c) => [c.proposalId, c]));
    expect(byProposal.get(made.id)).toMatchObject({ entries: 3, amountCents: 16_500, projectName: expect.stringMatching(/^Project /) });
    expect(byProposal.get(made.id)!.invoiceNumbers).toHaveLength(1);
    expect(byProposal.get(second)).toMatchObject({ entries: 1, amountCents: 5_000 });
    expect(payout!.covered.reduce((sum, c) => sum + c.amountCents, 0)).toBe(payout!.totalCents);

    // The other ambassador sees only their own; an ambassador without payouts sees none.
    const theirs = await getAmbassadorPayouts(t.db, other.ambassador);
    expect(theirs.items.map((p) => p.reference)).toEqual(["SEPA-OTHER"]);
    const none = await getAmbassadorPayouts(t.db, await makeAmbassador(s));
    expect(none).toMatchObject({ total: 0, items: [], next: null, prev: null });

    // A client or an admin is refused, and the admin's view reads the same payout through the shared query.
    expect((await rejectionOf(getAmbassadorPayouts(t.db, admin))).status).toBe(403);
    expect((await rejectionOf(getAmbassadorPayouts(t.db, made.client))).status).toBe(403);
    const adminView = await getAmbassadorCommissions(t.db, admin, ambassador.id, {
      entries: { size: 25 },
      payouts: { size: 25 },
      clients: { size: 25 },
    });
    const { covered: _covered, ...ownRow } = payout!;
    expect(adminView.payouts.items).toEqual([
      { ...ownRow, ambassadorName: expect.any(String), ambassadorEmail: ambassador.email, createdByEmail: admin.email },
    ]);
  });

  it("pages 25 payouts at a time, newest first, with the keyset cursors; another ambassador's payouts never fill a page", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s);
    const other = await makeAmbassador(s);
    const base = Date.UTC(2026, 0, 1);
    const rows = (id: string, n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        ambassadorId: id,
        totalCents: 100 * (i + 1),
        currency: "USD",
        reference: `${prefix}-${String(i + 1).padStart(2, "0")}`,
        method: "bank_transfer" as const,
        paidAt: new Date(base + i * DAY),
        createdBy: admin.id,
      }));
    await t.db.insert(payouts).values([...rows(ambassador.id, 27, "MINE"), ...rows(other.id, 30, "OTHER")]);

    expect(PAYOUTS_PAGE_SIZE).toBe(25);
    const first = await getAmbassadorPayouts(t.db, ambassador, { size: PAYOUTS_PAGE_SIZE });
    expect(first.total).toBe(27);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]).toMatchObject({ reference: "MINE-27", totalCents: 2_700, covered: [] });
    expect(first.items.every((p) => p.reference.startsWith("MINE-"))).toBe(true);
    expect(first.prev).toBeNull();
    expect(first.next).not.toBeNull();
    const second = await getAmbassadorPayouts(
      t.db,
      ambassador,
      pageRequestFrom(new URLSearchParams({ after: first.next! }), { size: PAYOUTS_PAGE_SIZE }),
    );
    expect(second.items.map((p) => p.reference)).toEqual(["MINE-02", "MINE-01"]);
    expect(second.next).toBeNull();
    const back = await getAmbassadorPayouts(
      t.db,
      ambassador,
      pageRequestFrom(new URLSearchParams({ before: second.prev! }), { size: PAYOUTS_PAGE_SIZE }),
    );
    expect(back.items.map((p) => p.reference)).toEqual(first.items.map((p) => p.reference));
  });
});
