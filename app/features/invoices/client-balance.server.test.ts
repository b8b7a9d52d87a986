import { rerunMigration } from "../../../tests/helpers/migration-sql";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoice, proposal, settings } from "#app/db/schema";
import { getInvoiceMoney } from "#app/features/payments/balance.server";
import { receivedAtOf } from "#app/features/payments/payments.schema";
import { businessDay } from "#app/features/settings/settings.server";
import { invoiceSummary } from "./invoice-summary.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { listInvoicesForAdmin } from "./invoices.admin.server";
import { clientBalance, listClientInvoices } from "./invoices.server";

/** Noon UTC on 2026-05-10: "today" is 2026-05-10. */
const NOW = new Date("2026-05-10T12:00:00Z");

describe.each(testDatabases())("client balance and invoice list on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  /** A client with a paid, an unpaid-due-today, an overdue (due yesterday) and a later invoice, each on its own proposal. */
  async function clientWithInvoices() {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const make = async (dueDate: string, cents: number, status: "unpaid" | "paid" = "unpaid", projectStatus = "in_progress" as const) => {
      const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: `P ${dueDate} ${status}`, status: projectStatus });
      const id = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["Work", cents]], dueDate, status });
      return { id, proposalId };
    };
    const paid = await make("2026-04-01", 10_000, "paid");
    const dueToday = await make("2026-05-10", 20_000);
    const overdue = await make("2026-05-09", 30_000);
    const later = await make("2026-06-30", 40_000);
    return { client, paid, dueToday, overdue, later };
  }

  it("sums outstanding and overdue exactly as the admin list derives overdue; due today is not overdue", async () => {
    const { t, admin } = ctx;
    const { client, overdue } = await clientWithInvoices();
    const balance = await clientBalance(t.db, client, NOW);
    expect(balance).toEqual({
      outstandingCount: 3,
      outstandingCents: 90_000,
      overdueCount: 1,
      overdueCents: 30_000,
      nextDueDate: "2026-05-10",
    });
    // The admin's "overdue" filter, for this client, is the same set.
    const adminOverdue = await listInvoicesForAdmin(t.db, admin, { filter: "overdue", q: client.email }, { size: 100 }, NOW);
    expect(adminOverdue.items.map((row) => row.id)).toEqual([overdue.id]);
    expect(adminOverdue.items.reduce((sum, row) => sum + row.totalCents, 0)).toBe(balance.overdueCents);

    // One second before midnight the invoice due today is still not overdue; one day later it is.
    const lastSecond = await clientBalance(t.db, client, new Date("2026-05-10T23:59:59Z"));
    expect(lastSecond).toMatchObject({ overdueCount: 1, overdueCents: 30_000, nextDueDate: "2026-05-10" });
    const nextDay = await clientBalance(t.db, client, new Date("2026-05-11T00:00:00Z"));
    expect(nextDay).toMatchObject({ outstandingCents: 90_000, overdueCount: 2, overdueCents: 50_000, nextDueDate: "2026-06-30" });
  });

  it("counts the days in the agency's time zone: overdue, the admin's summary and filter, the client's page, the date received (issue #36)", async () => {
    const { t, admin } = ctx;
    const { client, dueToday } = await clientWithInvoices();
    // 2026-05-10 13:00 UTC is already 2026-05-11 01:00 in Auckland (UTC+12 in May).
    const evening = new Date("2026-05-10T13:00:00Z");
    expect((await clientBalance(t.db, client, evening)).overdueCount).toBe(1);
    expect((await businessDay(t.db, evening)).today).toBe("2026-05-10");
    await t.db
      .insert(settings)
      .values({ id: 1, timeZone: "Pacific/Auckland" })
      .onConflictDoUpdate({
        target: settings.id,
        set: { timeZone: "Pacific/Auckland" },
      });
    expect(await businessDay(t.db, evening)).toEqual({ today: "2026-05-11", timeZone: "Pacific/Auckland" });
    // The invoice due on the 10th is overdue on the agency's 11th — everywhere the same.
    expect(await clientBalance(t.db, client, evening)).toMatchObject({ overdueCount: 2, overdueCents: 50_000 });
    const adminOverdue = await listInvoicesForAdmin(t.db, admin, { filter: "overdue", q: client.email }, { size: 100 }, evening);
    expect(adminOverdue.items.map((row) => row.id)).toContain(dueToday.id);
    expect(adminOverdue.items.find((row) => row.id === dueToday.id)?.displayStatus).toBe("overdue");
    expect((await invoiceSummary(t.db, admin, evening)).overdueCount).toBeGreaterThanOrEqual(2);
    expect((await getInvoiceMoney(t.db, dueToday.id, evening)).status).toBe("overdue");
    const listed = (await listClientInvoices(t.db, client, { page: 1 }, evening)).items;
    expect(listed.find((row) => row.id === dueToday.id)?.displayStatus).toBe("overdue");
    // "Date received": the agency's today is accepted (as now), its tomorrow is refused next to the field.
    const business = await businessDay(t.db, evening);
    expect(receivedAtOf("2026-05-11", business, evening)).toBe(evening);
    expect(receivedAtOf("2026-05-09", business, evening).toISOString()).toBe("2026-05-09T12:00:00.000Z");
    expect(await refusalOf(Promise.resolve().then(() => receivedAtOf("2026-05-12", business, evening)))).toMatchObject({
      status: 400,
      fieldErrors: { receivedOn: ["The date cannot be in the future."] },
    });
  });

  it("drops the invoice of a deleted proposal, counts an older invoice without clientId as its proposal's organisation's, never another client's", async () => {
    const { t, s } = ctx;
    const { client, overdue, later } = await clientWithInvoices();
    const other = await makeClient(s);
    const othersProposal = await insertProposal(t.db, { clientId: other.id });
    await insertInvoice(t.db, { proposalId: othersProposal, clientId: other.id, items: [["Not yours", 77_700]], dueDate: "2026-01-01" });
    expect(await clientBalance(t.db, other, NOW)).toMatchObject({ outstandingCents: 77_700, overdueCount: 1 });

    // The proposal is deleted (as deleting the client's account or an operator would): its invoice goes with it.
    await t.db.delete(proposal).where(eq(proposal.id, overdue.proposalId));
    expect(await t.db.select().from(invoice).where(eq(invoice.id, overdue.id))).toEqual([]);
    expect(await clientBalance(t.db, client, NOW)).toEqual({
      outstandingCount: 2,
      outstandingCents: 60_000,
      overdueCount: 0,
      overdueCents: 0,
      nextDueDate: "2026-05-10",
    });
    // An older invoice without clientId belongs to its proposal's organisation (migration 0029 and its
    // insert trigger), so it counts at once; re-running migration 0020 (issue #30) changes nothing.
    const orphanProposal = await insertProposal(t.db, { clientId: client.id });
    await insertInvoice(t.db, { proposalId: orphanProposal, clientId: null, items: [["Legacy", 5_000]], dueDate: "2026-05-01" });
    const withLegacy = { outstandingCount: 3, outstandingCents: 65_000, overdueCents: 5_000 };
    expect(await clientBalance(t.db, client, NOW)).toMatchObject(withLegacy);
    await rerunMigration(t.db, "0020_invoice_owner");
    expect(await clientBalance(t.db, client, NOW)).toMatchObject(withLegacy);
    expect(await clientBalance(t.db, other, NOW)).toMatchObject({ outstandingCents: 77_700 });
    // Paying the later invoice takes it out of the balance.
    await t.db.update(invoice).set({ status: "paid", paidAt: NOW }).where(eq(invoice.id, later.id));
    expect(await clientBalance(t.db, client, NOW)).toMatchObject({ outstandingCount: 2, outstandingCents: 25_000 });
  });

  it("is zero with no invoices, and refuses non-clients", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    expect(await clientBalance(t.db, client, NOW)).toEqual({
      outstandingCount: 0,
      outstandingCents: 0,
      overdueCount: 0,
      overdueCents: 0,
      nextDueDate: null,
    });
    expect((await refusalOf(clientBalance(t.db, await makeAmbassador(s), NOW))).status).toBe(403);
    expect((await refusalOf(clientBalance(t.db, admin, NOW))).status).toBe(403);
    expect((await refusalOf(listClientInvoices(t.db, admin, { page: 1 }, NOW))).status).toBe(403);
  });

  it("lists every invoice of the client whatever the project's status, newest first, in pages", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ids: number[] = [];
    const statuses = ["completed", "closed", "in_progress", "pending", "completed"] as const;
    for (const [index, status] of statuses.entries()) {
      const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: `Project ${index}`, status });
      const id = await insertInvoice(t.db, {
        proposalId,
        clientId: client.id,
        items: [["Work", 1_000 * (index + 1)]],
        dueDate: "2026-05-09",
      });
      await t.db
        .update(invoice)
        .set({ createdAt: new Date(Date.UTC(2026, 3, 1 + index)) })
        .where(eq(invoice.id, id));
      ids.push(id);
    }
    const other = await makeClient(s);
    const othersProposal = await insertProposal(t.db, { clientId: other.id });
    await insertInvoice(t.db, { proposalId: othersProposal, clientId: other.id, items: [["x", 1]], dueDate: "2026-05-09" });

    const first = await listClientInvoices(t.db, client, { page: 1, pageSize: 2 }, NOW);
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 5, pageCount: 3 });
    expect(first.items.map((row) => row.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).toMatchObject({ projectName: "Project 4", totalCents: 5_000, displayStatus: "overdue", dueDate: "2026-05-09" });
    const last = await listClientInvoices(t.db, client, { page: 99, pageSize: 2 }, NOW);
    expect(last.page).toBe(3);
    expect(last.items.map((row) => row.id)).toEqual([ids[0]]);
    const all = await listClientInvoices(t.db, client, { page: 1 }, NOW);
    expect(all.items.map((row) => row.id)).toEqual([...ids].reverse());
    expect((await listClientInvoices(t.db, other, { page: 1 }, NOW)).total).toBe(1);
  });
});
