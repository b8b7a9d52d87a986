import { parseWithZod } from "@conform-to/zod/v4";
import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { invoice, invoiceCounter, invoiceItem, proposal } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import type { Actor } from "../users/actor";
import { invoiceDisplayStatus } from "./invoice-status";
import {
  deleteInvoice,
  formatInvoiceNumber,
  generateInvoice,
  getInvoiceForAdmin,
  getProposalToInvoice,
  INVOICE_MESSAGES,
  invoiceSummary,
  listInvoicesForAdmin,
  markInvoicePaid,
  updateInvoice,
} from "./invoices.admin.server";
import { INVOICE_FILTERS, invoiceEditSchema, invoiceFormSchema, toInvoiceInput, type InvoiceInput } from "./invoices.schema";

const NOW = new Date("2026-03-10T15:00:00Z");
const items = (...amounts: number[]): InvoiceInput["items"] =>
  amounts.map((amountCents, i) => ({ description: `Item ${i + 1}`, amountCents }));

function formData(entries: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

describe("invoice form schema", () => {
  it("parses amounts to cents and requires a description, an amount and the due date", () => {
    const ok = parseWithZod(
      formData({
        "items[0].description": "Design",
        "items[0].amount": "$1,200.50",
        "items[1].description": "Hosting",
        "items[1].amount": "0.01",
        dueDate: "2026-04-01",
      }),
      { schema: invoiceFormSchema },
    );
    if (ok.status !== "success") throw new Error("expected success");
    expect(toInvoiceInput(ok.value)).toEqual({
      dueDate: "2026-04-01",
      items: [
        { description: "Design", amountCents: 120_050 },
        { description: "Hosting", amountCents: 1 },
      ],
    });
    const bad = parseWithZod(
      formData({
        "items[0].description": " ",
        "items[0].amount": "",
        "items[1].description": "x",
        "items[1].amount": "12.345",
        dueDate: "2026-02-30",
      }),
      {
        schema: invoiceFormSchema,
      },
    );
    expect(bad.status).toBe("error");
    const errors = (bad as { error: Record<string, string[]> }).error;
    expect(errors["items[0].description"]).toEqual(["Description is required."]);
    expect(errors["items[0].amount"]).toEqual(["Amount is required."]);
    expect(errors["items[1].amount"]).toEqual(["Enter an amount like 5000 or $5,000.50"]);
    expect(errors.dueDate).toEqual(["Enter a real due date."]);
    const empty = parseWithZod(formData({ dueDate: "" }), { schema: invoiceFormSchema });
    expect((empty as { error: Record<string, string[]> }).error).toMatchObject({
      items: ["Add at least one item."],
      dueDate: ["Due date is required."],
    });
  });

  it("numbers invoices INV-YYYY-NNNN", () => {
    expect(formatInvoiceNumber(2026, 1)).toBe("INV-2026-0001");
    expect(formatInvoiceNumber(2026, 12_345)).toBe("INV-2026-12345");
  });

  it("derives overdue from the due date against today in UTC", () => {
    const lateEvening = new Date("2026-03-10T23:59:59Z");
    const unpaid = { totalCents: 100, paidCents: 0, refundedCents: 0 };
    expect(invoiceDisplayStatus({ ...unpaid, dueDate: "2026-03-09" }, lateEvening)).toBe("overdue");
    expect(invoiceDisplayStatus({ ...unpaid, dueDate: "2026-03-10" }, lateEvening)).toBe("pending");
    expect(invoiceDisplayStatus({ ...unpaid, dueDate: "2026-03-10" }, new Date("2026-03-11T00:00:00Z"))).toBe("overdue");
    expect(invoiceDisplayStatus({ ...unpaid, paidCents: 100, dueDate: "2020-01-01" }, lateEvening)).toBe("paid");
  });
});

describe.each(testDatabases())("admin invoices on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let client: Actor;
  beforeEach(async () => {
    client = await makeClient(ctx.s, { businessName: "Blue Cafe", email: "cafe@example.com" });
  });

  it("generates an invoice: total is the sum of the items in cents, status unpaid, client from the proposal", async () => {
    const { t, admin } = ctx;
    const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: "Cafe site" });
    const created = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(120_050, 1, 99_999) }, NOW, {
      cardPayments: true,
    });
    expect(created).toEqual({ id: created.id, number: "INV-2026-0001", totalCents: 220_050 });
    const [row] = await t.db.select().from(invoice).where(eq(invoice.id, created.id));
    expect(row).toMatchObject({
      proposalId,
      clientId: client.id,
      status: "unpaid",
      totalCents: 220_050,
      dueDate: "2026-04-01",
      paidAt: null,
    });
    const stored = await t.db.select().from(invoiceItem).where(eq(invoiceItem.invoiceId, created.id)).orderBy(invoiceItem.position);
    expect(stored.map((i) => [i.position, i.description, i.amountCents])).toEqual([
      [0, "Item 1", 120_050],
      [1, "Item 2", 1],
      [2, "Item 3", 99_999],
    ]);
    // The proposal now links to the invoice.
    expect((await getProposalToInvoice(t.db, admin, proposalId)).invoices).toEqual([
      { id: created.id, number: "INV-2026-0001", status: "unpaid", totalCents: 220_050, dueDate: "2026-04-01" },
    ]);
  });

  it("numbers sequentially per year, and a new year starts at 0001", async () => {
    const { t, admin } = ctx;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await insertProposal(t.db, { clientId: client.id }));
    const a = await generateInvoice(t.db, admin, ids[0]!, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true });
    const b = await generateInvoice(t.db, admin, ids[1]!, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true });
    const c = await generateInvoice(t.db, admin, ids[2]!, { dueDate: "2027-02-01", items: items(100) }, new Date("2027-01-01T00:00:01Z"), {
      cardPayments: true,
    });
    expect([a.number, b.number, c.number]).toEqual(["INV-2026-0001", "INV-2026-0002", "INV-2027-0001"]);
  });

  it("gives concurrent generations distinct consecutive numbers, and one invoice for a page's repeated submissions", async () => {
    const { t, admin } = ctx;
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await insertProposal(t.db, { clientId: client.id }));
    const results = await Promise.all(
      ids.map((id) => generateInvoice(t.db, admin, id, { dueDate: "2026-04-01", items: items(500) }, NOW, { cardPayments: true })),
    );
    expect(results.map((r) => r.number).sort()).toEqual(Array.from({ length: 8 }, (_, i) => formatInvoiceNumber(2026, i + 1)));

    const twice = await insertProposal(t.db, { clientId: client.id });
    const race = await Promise.allSettled(
      [1, 2, 3].map(() =>
        generateInvoice(t.db, admin, twice, { dueDate: "2026-04-01", items: items(500) }, NOW, { cardPayments: true, knownInvoices: 0 }),
      ),
    );
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of race.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, message: INVOICE_MESSAGES.alreadyInvoiced });
    expect((await t.db.select({ n: count() }).from(invoice).where(eq(invoice.proposalId, twice)))[0]!.n).toBe(1);
    // Refused attempts gave their numbers back: the next one is consecutive.
    const [counter] = await t.db.select().from(invoiceCounter).where(eq(invoiceCounter.year, 2026));
    expect(counter!.lastNumber).toBe(9);
  });

  it("refuses an invoice the page did not know about, a proposal whose client has no account, and an unknown proposal, writing nothing", async () => {
    const { t, s, admin } = ctx;
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true });
    const ambassador = await makeAmbassador(s);
    const unclaimed = await insertProposal(t.db, { ambassadorId: ambassador.id, clientName: "New Co", clientEmail: "new@example.com" });
    const before = await snapshot(t.db);
    // A page loaded before the first invoice (it showed 0) is refused: the admin sees it first.
    expect(
      await rejectionOf(
        generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100) }, NOW, {
          cardPayments: true,
          knownInvoices: 0,
        }),
      ),
    ).toMatchObject({
      status: 409,
      message: INVOICE_MESSAGES.alreadyInvoiced,
    });
    expect(
      await rejectionOf(generateInvoice(t.db, admin, unclaimed, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true })),
    ).toMatchObject({
      status: 409,
      message: INVOICE_MESSAGES.noClientAccount,
    });
    expect(
      (await rejectionOf(generateInvoice(t.db, admin, 999_999, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true })))
        .status,
    ).toBe(404);
    // The use-case checks items itself too (no form in between).
    expect(
      (await rejectionOf(generateInvoice(t.db, admin, unclaimed, { dueDate: "2026-04-01", items: [] }, NOW, { cardPayments: true })))
        .status,
    ).toBe(400);
    expect(
      (
        await rejectionOf(
          generateInvoice(t.db, admin, unclaimed, { dueDate: "2026-04-01", items: [{ description: "x", amountCents: -5 }] }, NOW, {
            cardPayments: true,
          }),
        )
      ).status,
    ).toBe(400);
    expect(
      (await rejectionOf(generateInvoice(t.db, admin, unclaimed, { dueDate: "2026-13-01", items: items(5) }, NOW, { cardPayments: true })))
        .status,
    ).toBe(400);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("edits items and due date with the total recomputed; a paid invoice is locked", async () => {
    const { t, admin } = ctx;
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const { id } = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100, 200) }, NOW, {
      cardPayments: true,
    });
    expect(
      await updateInvoice(t.db, admin, id, {
        dueDate: "2026-05-15",
        items: [
          { description: "Only line", amountCents: 123_456 },
          { description: "Extra", amountCents: 44 },
        ],
      }),
    ).toEqual({ totalCents: 123_500 });
    const edited = await getInvoiceForAdmin(t.db, admin, id, NOW);
    expect(edited).toMatchObject({
      dueDate: "2026-05-15",
      totalCents: 123_500,
      status: "unpaid",
      displayStatus: "pending",
      clientName: "Blue Cafe",
      clientEmail: "cafe@example.com",
    });
    expect(edited.items).toEqual([
      { description: "Only line", amountCents: 123_456 },
      { description: "Extra", amountCents: 44 },
    ]);
    await markInvoicePaid(t.db, admin, id);
    const [paid] = await t.db.select().from(invoice).where(eq(invoice.id, id));
    expect(paid!.status).toBe("paid");
    expect(paid!.paidAt).toBeInstanceOf(Date);
    await markInvoicePaid(t.db, admin, id); // again: no change to paidAt
    const [again] = await t.db.select().from(invoice).where(eq(invoice.id, id));
    expect(again!.paidAt!.getTime()).toBe(paid!.paidAt!.getTime());
    const before = await snapshot(t.db);
    expect(await rejectionOf(updateInvoice(t.db, admin, id, { dueDate: "2026-06-01", items: items(1) }))).toMatchObject({
      status: 409,
      message: INVOICE_MESSAGES.paidLocked,
    });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("refuses a save from a stale page (two admins editing): 409, nothing written", async () => {
    const { t, s, admin } = ctx;
    const otherAdmin = await makeAdmin(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const { id } = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100, 200) }, NOW, {
      cardPayments: true,
    });
    // Both open the edit page at version 1.
    const seenByFirst = (await getInvoiceForAdmin(t.db, admin, id, NOW)).version;
    const seenBySecond = (await getInvoiceForAdmin(t.db, otherAdmin, id, NOW)).version;
    expect([seenByFirst, seenBySecond]).toEqual([1, 1]);
    await updateInvoice(t.db, admin, id, { dueDate: "2026-05-01", items: items(500), version: seenByFirst });
    expect((await getInvoiceForAdmin(t.db, admin, id, NOW)).version).toBe(2);

    const before = await snapshot(t.db);
    expect(
      await rejectionOf(updateInvoice(t.db, otherAdmin, id, { dueDate: "2026-06-01", items: items(9), version: seenBySecond })),
    ).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: "This invoice was changed by someone else; reload to see it.",
    });
    expect(await snapshot(t.db)).toEqual(before);
    expect(await getInvoiceForAdmin(t.db, admin, id, NOW)).toMatchObject({ dueDate: "2026-05-01", totalCents: 500, version: 2 });
    // After reloading (version 2) the second admin's save goes through.
    await updateInvoice(t.db, otherAdmin, id, { dueDate: "2026-06-01", items: items(9), version: 2 });
    expect(await getInvoiceForAdmin(t.db, admin, id, NOW)).toMatchObject({ dueDate: "2026-06-01", totalCents: 9, version: 3 });
    // The form must carry the version.
    const parsed = parseWithZod(formData({ "items[0].description": "A", "items[0].amount": "1", dueDate: "2026-06-01" }), {
      schema: invoiceEditSchema,
    });
    expect((parsed as { error: Record<string, string[]> }).error.version).toEqual([INVOICE_MESSAGES.changedBySomeoneElse]);
  });

  it("deletes an invoice with its items and unlinks the proposal, which stays", async () => {
    const { t, admin } = ctx;
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const { id } = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100, 200, 300) }, NOW, {
      cardPayments: true,
    });
    expect(await deleteInvoice(t.db, admin, id)).toEqual({ number: "INV-2026-0001", proposalId });
    expect(await t.db.select().from(invoiceItem)).toHaveLength(0);
    expect(await t.db.select().from(proposal).where(eq(proposal.id, proposalId))).toHaveLength(1);
    expect((await getProposalToInvoice(t.db, admin, proposalId)).invoices).toEqual([]);
    expect((await rejectionOf(deleteInvoice(t.db, admin, id))).status).toBe(404);
    // The proposal can be invoiced again.
    expect(
      (await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(1) }, NOW, { cardPayments: true })).number,
    ).toBe("INV-2026-0002");
  });

  it("filters all / paid / pending / overdue around the due date, in SQL as in invoice-status.ts", async () => {
    const { t, admin } = ctx;
    const due = { yesterday: "2026-03-09", today: "2026-03-10", tomorrow: "2026-03-11" };
    const made: Record<string, number> = {};
    for (const [label, dueDate] of Object.entries(due)) {
      const p = await insertProposal(t.db, { clientId: client.id, projectName: `due ${label}` });
      made[label] = (await generateInvoice(t.db, admin, p, { dueDate, items: items(1_000) }, NOW, { cardPayments: true })).id;
    }
    const paidProposal = await insertProposal(t.db, { clientId: client.id });
    made.paidLate = (
      await generateInvoice(t.db, admin, paidProposal, { dueDate: "2026-01-01", items: items(5_000) }, NOW, { cardPayments: true })
    ).id;
    await markInvoicePaid(t.db, admin, made.paidLate);

    // Just before midnight UTC, and just after (the day changes by UTC, not local time).
    for (const [now, expected] of [
      [
        new Date("2026-03-10T23:59:59Z"),
        { paid: ["paidLate"], pending: ["today", "tomorrow"], overdue: ["yesterday"], partial: [], refunded: [] },
      ],
      [
        new Date("2026-03-11T00:00:00Z"),
        { paid: ["paidLate"], pending: ["tomorrow"], overdue: ["today", "yesterday"], partial: [], refunded: [] },
      ],
    ] as const) {
      for (const filter of INVOICE_FILTERS) {
        const page = await listInvoicesForAdmin(t.db, admin, { filter }, { size: 25 }, now);
        const labels = page.items.map((row) => Object.keys(made).find((k) => made[k] === row.id)!).sort();
        const wanted = filter === "all" ? Object.keys(made).sort() : [...expected[filter]].sort();
        expect(labels, `${filter} at ${now.toISOString()}`).toEqual(wanted);
        expect(page.total).toBe(wanted.length);
        // The list's derived status agrees with the filter that found the row.
        if (filter !== "all") expect(page.items.every((row) => row.displayStatus === filter)).toBe(true);
      }
    }
    const summary = await invoiceSummary(t.db, admin, new Date("2026-03-10T12:00:00Z"));
    expect(summary).toEqual({
      count: 4,
      paidCount: 1,
      unpaidCount: 3,
      overdueCount: 1,
      unpaidCents: 3_000,
      overdueCents: 1_000,
      paidCents: 5_000,
    });
  });

  it("searches invoices by number, project and client, case-insensitively", async () => {
    const { t, s, admin } = ctx;
    const other = await makeClient(s, { businessName: "Red Barn", email: "barn@example.org" });
    const p1 = await insertProposal(t.db, { clientId: client.id, projectName: "Cafe Website" });
    const p2 = await insertProposal(t.db, { clientId: other.id, projectName: "Farm shop" });
    const a = await generateInvoice(t.db, admin, p1, { dueDate: "2026-04-01", items: items(1) }, NOW, { cardPayments: true });
    const b = await generateInvoice(t.db, admin, p2, { dueDate: "2026-04-01", items: items(1) }, NOW, { cardPayments: true });
    const ids = async (q: string) =>
      (await listInvoicesForAdmin(t.db, admin, { filter: "all", q }, { size: 25 }, NOW)).items.map((r) => r.id);
    expect(await ids("inv-2026-0002")).toEqual([b.id]);
    expect(await ids("CAFE web")).toEqual([a.id]);
    expect(await ids("RED BARN")).toEqual([b.id]);
    expect(await ids("BARN@EXAMPLE")).toEqual([b.id]);
  });

  it("refuses clients and ambassadors without reading or writing", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const other = await insertProposal(t.db, { clientId: client.id });
    const { id } = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-04-01", items: items(100) }, NOW, {
      cardPayments: true,
    });
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      const refusals = [
        generateInvoice(t.db, actor, other, { dueDate: "2026-04-01", items: items(100) }, NOW, { cardPayments: true }),
        updateInvoice(t.db, actor, id, { dueDate: "2026-04-02", items: items(1) }),
        markInvoicePaid(t.db, actor, id),
        deleteInvoice(t.db, actor, id),
        getInvoiceForAdmin(t.db, actor, id),
        getProposalToInvoice(t.db, actor, other),
        listInvoicesForAdmin(t.db, actor, { filter: "all" }, { size: 25 }),
        invoiceSummary(t.db, actor),
      ];
      for (const refusal of refusals) expect((await rejectionOf(refusal)).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
