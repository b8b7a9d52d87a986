/**
 * Issue #6: the admin CSV exports read every row matching the list's filters (the same
 * filter builder as the list pages), in keyset batches, and refuse non-admins.
 */
import { desc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoice, settings } from "#app/db/schema";
import {
  exportInvoicesForAdmin,
  generateInvoice,
  listInvoicesForAdmin,
  markInvoicePaid,
} from "#app/features/invoices/invoices.admin.server";
import { exportProposalsForAdmin, listProposalsForAdmin } from "#app/features/proposals/proposals.admin.server";
import { createPayout, exportCommissionsForAdmin } from "#app/features/referrals/commissions.admin.server";
import { insertInvoice, recordTestPayment } from "../../../tests/helpers/payments";
import { exportUsersForAdmin, listUsersForAdmin } from "#app/features/users/users.server";
import { keysetBatches } from "#app/lib/csv.server";
import { cursorKeySql } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, rejectionOf } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const ITEMS = { items: [{ description: "Design", amountCents: 50_000 }], dueDate: "2031-01-15" };

describe.each(testDatabases())("admin CSV exports on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("refuse clients and ambassadors before reading anything", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(exportProposalsForAdmin(t.db, actor, {}))).status).toBe(403);
      expect((await rejectionOf(exportUsersForAdmin(t.db, actor, {}))).status).toBe(403);
      expect((await rejectionOf(exportInvoicesForAdmin(t.db, actor, { filter: "all" }))).status).toBe(403);
      expect((await rejectionOf(exportCommissionsForAdmin(t.db, actor, {}))).status).toBe(403);
    }
  });

  it("export exactly the rows the list shows for the same filters, newest first, across pages", async () => {
    const { t, s, admin } = ctx;
    const bakery = await makeClient(s, { businessName: "Blue Bakery", email: "owner@bluebakery.example" });
    const gym = await makeClient(s, { businessName: "Iron Gym" });
    const ambassador = await makeAmbassador(s);
    for (let i = 0; i < 4; i++)
      await insertProposal(t.db, { clientId: bakery.id, projectName: `Bakery ${i}`, status: i % 2 ? "review" : "pending" });
    await insertProposal(t.db, { clientId: gym.id, projectName: "Gym site", status: "review" });

    const filters = { q: "bakery", status: "review" as const };
    const exported = await all(await exportProposalsForAdmin(t.db, admin, filters));
    const listed = await listProposalsForAdmin(t.db, admin, filters, { size: 25 });
    expect(exported.map((p) => p.projectName)).toEqual(["Bakery 3", "Bakery 1"]);
    expect(exported).toEqual(listed.items);

    const users = await all(await exportUsersForAdmin(t.db, admin, { role: "client" }));
    expect(users.map((u) => u.email)).toEqual(
      (await listUsersForAdmin(t.db, admin, { role: "client" }, { size: 25 })).items.map((u) => u.email),
    );
    expect(users.map((u) => u.email).sort()).toEqual([bakery.email, gym.email].sort());
    expect(users.map((u) => u.email)).not.toContain(ambassador.email);

    const paid = await generateInvoice(
      t.db,
      admin,
      await insertProposal(t.db, { clientId: gym.id, projectName: "Gym shop" }),
      ITEMS,
      undefined,
      { cardPayments: true },
    );
    await generateInvoice(t.db, admin, await insertProposal(t.db, { clientId: bakery.id, projectName: "Bakery shop" }), ITEMS, undefined, {
      cardPayments: true,
    });
    await markInvoicePaid(t.db, admin, paid.id);
    const invoices = await all(await exportInvoicesForAdmin(t.db, admin, { filter: "paid" }));
    expect(invoices.map((i) => i.number)).toEqual([paid.number]);
    expect(invoices).toEqual((await listInvoicesForAdmin(t.db, admin, { filter: "paid" }, { size: 25 })).items);
    expect((await all(await exportInvoicesForAdmin(t.db, admin, { filter: "all", q: "bluebakery" }))).map((i) => i.projectName)).toEqual([
      "Bakery shop",
    ]);
  });

  it("exports ambassadors with their commission pending, payable and paid out", async () => {
    const { t, s, admin } = ctx;
    const ann = await makeAmbassador(s, { referralCode: "ann-code" });
    const bob = await makeAmbassador(s, { referralCode: "bob-code" });
    const client = await makeClient(s);
    await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
    const approved = await insertProposal(t.db, {
      ambassadorId: ann.id,
      clientId: client.id,
      budgetCents: 100_000,
      clientApprovedAt: new Date(),
      commissionRateBps: 1500,
    });
    const other = await insertProposal(t.db, {
      ambassadorId: ann.id,
      clientId: client.id,
      budgetCents: 200_000,
      clientApprovedAt: new Date(),
      commissionRateBps: 1500,
    });
    await recordTestPayment(t.db, { invoiceId: await insertInvoice(t.db, approved, 100_000, client.id), amountCents: 100_000 });
    await createPayout(t.db, admin, ann.id, { reference: "R1", method: "cash", paidAt: new Date() });
    await t.db.update(settings).set({ commissionHoldDays: 30 });
    await recordTestPayment(t.db, { invoiceId: await insertInvoice(t.db, other, 200_000, client.id), amountCents: 200_000 });
    const rows = await all(await exportCommissionsForAdmin(t.db, admin, {}));
    expect(rows.map((r) => r.referralCode)).toEqual(["bob-code", "ann-code"]);
    expect(rows[1]).toMatchObject({ proposals: 2, approvedProposals: 2, paidOutCents: 15_000, pendingCents: 30_000, payableCents: 0 });
    expect(rows[0]).toMatchObject({ proposals: 0, paidOutCents: 0, pendingCents: 0, payableCents: 0 });
    expect((await all(await exportCommissionsForAdmin(t.db, admin, { q: "ann-code" }))).map((r) => r.id)).toEqual([ann.id]);
    expect(rows[0]!.id).toBe(bob.id);
  });

  it("keyset batches read every row exactly once, ties on the sort key broken by id", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    for (let i = 0; i < 7; i++) {
      const { id } = await generateInvoice(t.db, admin, await insertProposal(t.db, { clientId: client.id }), ITEMS, undefined, {
        cardPayments: true,
      });
      // Same creation instant for several rows: the id decides their order.
      if (i >= 2)
        await t.db
          .update(invoice)
          .set({ createdAt: new Date("2030-01-01T00:00:00Z") })
          .where(sql`${invoice.id} = ${id}`);
    }
    const order = { sort: invoice.createdAt, id: invoice.id };
    const calls: number[] = [];
    const rows = await all(
      keysetBatches(
        order,
        undefined,
        async (q) => {
          const batch = await t.db
            .select({ id: invoice.id, cursorKey: cursorKeySql(order) })
            .from(invoice)
            .where(q.where)
            .orderBy(...q.orderBy)
            .limit(q.limit);
          calls.push(batch.length);
          return batch;
        },
        2,
      ),
    );
    const expected = await t.db.select({ id: invoice.id }).from(invoice).orderBy(desc(invoice.createdAt), desc(invoice.id));
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(rows[0]).not.toHaveProperty("cursorKey");
    expect(calls).toEqual([2, 2, 2, 1]);
  });
});
