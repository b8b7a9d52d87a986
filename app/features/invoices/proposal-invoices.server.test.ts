/**
 * #37: a proposal may have several invoices, and an invoice may have no proposal. Every reader that
 * once joined one invoice per proposal shows each proposal once, each invoice once, and the owner
 * checks hold for an invoice without a proposal.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { commissionEntries, invoice, membership } from "#app/db/schema";
import { clientNextSteps } from "#app/features/dashboard/next-steps.server";
import { getProposalForAdmin, getProposalForClient } from "#app/features/proposals/proposal-detail.server";
import { listProposalsForAdmin } from "#app/features/proposals/proposals.admin.server";
import { deleteProposal, listClientProposalRows } from "#app/features/proposals/proposals.server";
import { collectDigest } from "#app/features/reminders/digest.server";
import { syncInvoiceStatus } from "#app/features/payments/balance.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertReferredProposal } from "../../../tests/helpers/admin-data";
import { recordTestPayment, insertInvoice as insertBareInvoice } from "../../../tests/helpers/payments";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { generateInvoice, getInvoiceForAdmin, getProposalToInvoice, listInvoicesForAdmin } from "./invoices.admin.server";
import { clientBalance, getInvoiceForClient, listClientInvoices } from "./invoices.server";
import { INVOICE_MESSAGES } from "./invoices.messages";

const NOW = new Date("2026-05-10T12:00:00Z");
const items = (...cents: number[]) => cents.map((amountCents, i) => ({ description: `Part ${i + 1}`, amountCents }));

describe.each(testDatabases())("several invoices per proposal, and invoices without one, on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  async function organisationOf(userId: string): Promise<number> {
    const [row] = await ctx.t.db.select({ id: membership.organisationId }).from(membership).where(eq(membership.userId, userId));
    return row!.id;
  }

  it("generates a second invoice when the page knew the first; every list shows the proposal once", async () => {
    const { t, admin } = ctx;
    const client = await makeClient(ctx.s);
    const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: "Two parts", status: "in_progress" });
    const first = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-05-01", items: items(30_000) }, NOW, {
      cardPayments: true,
      knownInvoices: 0,
    });
    const second = await generateInvoice(t.db, admin, proposalId, { dueDate: "2026-06-01", items: items(70_000) }, NOW, {
      cardPayments: true,
      knownInvoices: 1,
    });
    expect(second.number).not.toBe(first.number);
    // A page still showing one invoice is refused, nothing written.
    expect(
      await refusalOf(
        generateInvoice(t.db, admin, proposalId, { dueDate: "2026-06-01", items: items(1) }, NOW, { cardPayments: true, knownInvoices: 1 }),
      ),
    ).toMatchObject({ status: 409, message: INVOICE_MESSAGES.alreadyInvoiced });
    expect((await getProposalToInvoice(t.db, admin, proposalId)).invoices.map((i) => i.id)).toEqual([first.id, second.id]);

    // Proposal pages: both invoices, oldest first.
    expect((await getProposalForAdmin(t.db, admin, proposalId)).invoices.map((i) => i.number)).toEqual([first.number, second.number]);
    const forClient = await getProposalForClient(t.db, client, proposalId);
    expect(forClient.proposal.invoices.map((i) => i.id)).toEqual([first.id, second.id]);
    expect(forClient.allowed.delete).toBe(false);

    // Lists: one row per proposal; the row links to the oldest unpaid invoice.
    const clientRows = (await listClientProposalRows(t.db, client, { includeCompleted: true, limit: 50 })).filter(
      (r) => r.id === proposalId,
    );
    expect(clientRows).toHaveLength(1);
    expect(clientRows[0]!.invoiceId).toBe(first.id);
    const adminRows = (await listProposalsForAdmin(t.db, admin, { q: "Two parts" }, { size: 25 })).items;
    expect(adminRows.map((r) => [r.id, r.invoiceNumber])).toEqual([[proposalId, first.number]]);
    // Once the first is paid, the row links to the second (the one still to pay).
    await recordTestPayment(t.db, { invoiceId: first.id, amountCents: 30_000 });
    await syncInvoiceStatus(t.db, first.id);
    expect((await listClientProposalRows(t.db, client, { includeCompleted: true, limit: 50 }))[0]!.invoiceId).toBe(second.id);

    // The client's invoices and balance count each invoice once.
    const listed = await listClientInvoices(t.db, client, { page: 1 }, NOW);
    expect(listed.items.map((i) => i.id).sort()).toEqual([first.id, second.id].sort());
    expect(await clientBalance(t.db, client, NOW)).toMatchObject({ outstandingCount: 1, outstandingCents: 70_000 });
    const steps = await clientNextSteps(t.db, client, NOW);
    expect(steps.items.filter((s) => s.key.startsWith("invoice-")).map((s) => s.key)).toEqual([`invoice-${second.id}`]);

    // A proposal with invoices cannot be deleted by its client.
    expect((await refusalOf(deleteProposal(t.db, client, proposalId))).status).toBe(409);
  });

  it("shows an invoice without a proposal to its organisation's money roles only, in the admin's list and the digest", async () => {
    const { t, admin } = ctx;
    const client = await makeClient(ctx.s, { businessName: "Solo Ltd" });
    const other = await makeClient(ctx.s);
    const organisationId = await organisationOf(client.id);
    const [row] = await t.db
      .insert(invoice)
      .values({ number: "INV-2026-9001", proposalId: null, clientId: client.id, organisationId, dueDate: "2026-05-01", totalCents: 12_345 })
      .returning({ id: invoice.id });
    const id = row!.id;

    const mine = await getInvoiceForClient(t.db, client, id, NOW);
    expect(mine).toMatchObject({ id, proposalId: null, projectName: null, totalCents: 12_345, displayStatus: "overdue" });
    expect((await refusalOf(getInvoiceForClient(t.db, other, id, NOW))).status).toBe(404);
    expect((await listClientInvoices(t.db, client, { page: 1 }, NOW)).items.map((i) => i.id)).toEqual([id]);
    expect((await listClientInvoices(t.db, other, { page: 1 }, NOW)).items).toEqual([]);
    expect(await clientBalance(t.db, client, NOW)).toMatchObject({ overdueCount: 1, overdueCents: 12_345 });

    const adminView = await getInvoiceForAdmin(t.db, admin, id, NOW);
    expect(adminView).toMatchObject({ id, proposalId: null, clientName: "Solo Ltd", clientEmail: client.email });
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "all", q: "9001" }, { size: 25 }, NOW)).items.map((i) => i.id)).toEqual([id]);
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "overdue", q: "Solo" }, { size: 25 }, NOW)).items.map((i) => i.id)).toEqual([
      id,
    ]);

    const digest = JSON.stringify(await collectDigest(t.db, NOW, "UTC", "USD"));
    expect(digest).toContain("INV-2026-9001");
  });

  it("refuses an invoice that names neither a proposal nor an organisation; a client's alone gets their organisation", async () => {
    const { t } = ctx;
    const client = await makeClient(ctx.s);
    await expect(
      t.db.execute(sql`insert into invoice (number, due_date, total_cents) values ('INV-ORPHAN', '2026-05-01', 100)`),
    ).rejects.toThrow();
    expect(await t.db.select().from(invoice)).toEqual([]);
    // The organisation trigger still fills what a writer leaves out when the client is known.
    const [row] = await t.db
      .insert(invoice)
      .values({ number: "INV-CLIENT-ONLY", clientId: client.id, dueDate: "2026-05-01", totalCents: 100 })
      .returning({ organisationId: invoice.organisationId });
    expect(row!.organisationId).toBe(await organisationOf(client.id));
  });

  it("earns an ambassador's commission on the payments of each of the proposal's invoices", async () => {
    const { t, s } = ctx;
    const made = await insertReferredProposal(s, {
      budgetCents: 100_000,
      clientApprovedAt: new Date("2026-02-01T12:00:00Z"),
      commissionRateBps: 1000,
    });
    const deposit = await insertBareInvoice(t.db, made.id, 30_000, made.client.id);
    const rest = await insertBareInvoice(t.db, made.id, 70_000, made.client.id);
    await recordTestPayment(t.db, { invoiceId: deposit, amountCents: 30_000 });
    await recordTestPayment(t.db, { invoiceId: rest, amountCents: 70_000 });
    const entries = await t.db.select().from(commissionEntries).orderBy(commissionEntries.id);
    expect(entries.map((e) => [e.invoiceId, e.proposalId, e.amountCents])).toEqual([
      [deposit, made.id, 3_000],
      [rest, made.id, 7_000],
    ]);
  });

  it("lets the portal's invoice helper insert the proposal's invoices one after the other", async () => {
    const { t } = ctx;
    const client = await makeClient(ctx.s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const a = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["A", 100]], dueDate: "2026-05-01" });
    const b = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["B", 200]], dueDate: "2026-06-01" });
    const rows = await t.db
      .select({ id: invoice.id, organisationId: invoice.organisationId })
      .from(invoice)
      .where(eq(invoice.proposalId, proposalId));
    expect(rows.map((r) => r.id).sort()).toEqual([a, b].sort());
    // Both belong to the proposal's organisation (trigger of migration 0029).
    for (const r of rows) expect(r.organisationId).toBe(await organisationOf(client.id));
  });
});
