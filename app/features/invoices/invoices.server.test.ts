import { describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { INVOICE_MESSAGES } from "./invoices.messages";
import { getInvoiceForClient } from "./invoices.server";

const NOW = new Date("2026-05-10T12:00:00Z");

describe.each(testDatabases())("client invoice on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("shows the client's own invoice with items in order, total and derived status", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery site", status: "in_progress" });
    const id = await insertInvoice(t.db, {
      proposalId,
      clientId: client.id,
      items: [
        ["Design", 150_000],
        ["Development", 250_050],
      ],
      dueDate: "2026-05-09",
    });
    const found = await getInvoiceForClient(t.db, client, id, NOW);
    expect(found).toMatchObject({
      id,
      proposalId,
      projectName: "Bakery site",
      totalCents: 400_050,
      status: "unpaid",
      displayStatus: "overdue",
      dueDate: "2026-05-09",
    });
    expect(found.items).toEqual([
      { description: "Design", amountCents: 150_000 },
      { description: "Development", amountCents: 250_050 },
    ]);
    expect((await getInvoiceForClient(t.db, client, id, new Date("2026-05-09T23:59:00Z"))).displayStatus).toBe("pending");
  });

  it("shows a paid invoice as paid even past its due date", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const id = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["All", 100]], dueDate: "2026-01-01", status: "paid" });
    expect((await getInvoiceForClient(t.db, client, id, NOW)).displayStatus).toBe("paid");
  });

  it('answers another client\'s and an unknown id alike: 404 "Invoice not found"', async () => {
    const { t, s } = ctx;
    const owner = await makeClient(s);
    const intruder = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: owner.id });
    const id = await insertInvoice(t.db, { proposalId, clientId: owner.id, items: [["Secret work", 999]], dueDate: "2030-01-01" });
    for (const attempt of [id, id + 1000, 2_147_483_647]) {
      expect(await refusalOf(getInvoiceForClient(t.db, intruder, attempt, NOW))).toMatchObject({
        status: 404,
        message: INVOICE_MESSAGES.notFound,
      });
    }
    // An invoice written without clientId belongs to its proposal's organisation (migration 0029's trigger).
    const proposal2 = await insertProposal(t.db, { clientId: owner.id });
    const orphan = await insertInvoice(t.db, { proposalId: proposal2, clientId: null, items: [["x", 1]], dueDate: "2030-01-01" });
    expect((await getInvoiceForClient(t.db, owner, orphan, NOW)).id).toBe(orphan);
    expect((await refusalOf(getInvoiceForClient(t.db, intruder, orphan, NOW))).status).toBe(404);
  });

  it("refuses non-clients", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const id = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["x", 1]], dueDate: "2030-01-01" });
    expect((await refusalOf(getInvoiceForClient(t.db, await makeAmbassador(s), id))).status).toBe(403);
    expect((await refusalOf(getInvoiceForClient(t.db, await makeAdmin(s), id))).status).toBe(403);
  });
});
