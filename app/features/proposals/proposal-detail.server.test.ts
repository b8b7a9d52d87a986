import { describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { getProposalForAdmin, getProposalForClient } from "./proposal-detail.server";

describe.each(testDatabases())("proposal pages on %s", (_name, open) => {
  const ctx = useTestServices(open);
  const longDetails = `${"A long brief. ".repeat(300)}\nSecond paragraph.`;

  it("gives the admin every field, the client, the ambassador and the invoice", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s, { businessName: "Bakery Co", verified: true });
    const id = await insertProposal(t.db, {
      clientId: client.id,
      source: "ambassador",
      ambassadorId: ambassador.id,
      status: "submitted",
      projectName: "Bakery",
      projectDetails: longDetails,
      timeline: "6 weeks",
      budgetCents: 500_000,
      targetAudience: "Locals",
      designInspiration: "https://example.com/inspo",
      numberOfPages: 5,
      websiteGoal: "Creative",
    });
    const invoiceId = await insertInvoice(t.db, {
      proposalId: id,
      clientId: client.id,
      items: [["Design", 100_00]],
      dueDate: "2030-01-01",
    });
    const detail = await getProposalForAdmin(t.db, admin, id);
    expect(detail).toMatchObject({
      id,
      projectDetails: longDetails,
      timeline: "6 weeks",
      budgetCents: 500_000,
      targetAudience: "Locals",
      designInspiration: "https://example.com/inspo",
      numberOfPages: 5,
      websiteGoal: "Creative",
      client: { id: client.id, name: "Bakery Co", email: client.email },
      ambassador: { id: ambassador.id, email: ambassador.email },
      invoices: [{ id: invoiceId, number: expect.any(String) }],
    });
    expect((await refusalOf(getProposalForAdmin(t.db, admin, 2_000_000))).status).toBe(404);
    expect((await refusalOf(getProposalForAdmin(t.db, client, id))).status).toBe(403);
  });

  it("gives a client their own proposal in full and a 404 for anyone else's", async () => {
    const { t, s } = ctx;
    const owner = await makeClient(s);
    const other = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: owner.id, projectDetails: longDetails });
    const { proposal, allowed } = await getProposalForClient(t.db, owner, id);
    expect(proposal.projectDetails).toBe(longDetails);
    expect(allowed).toMatchObject({ edit: true, delete: true, revise: false, approve: false });
    expect((await refusalOf(getProposalForClient(t.db, other, id))).status).toBe(404);
    expect((await refusalOf(getProposalForClient(t.db, owner, 2_000_000))).status).toBe(404);
  });

  it("shows an ambassador proposal only once the client's address is verified, without the ambassador's e-mail", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const unverified = await makeClient(s);
    const verified = await makeClient(s, { verified: true });
    const hidden = await insertProposal(t.db, {
      clientId: unverified.id,
      source: "ambassador",
      ambassadorId: ambassador.id,
      status: "submitted",
    });
    const shown = await insertProposal(t.db, {
      clientId: verified.id,
      source: "ambassador",
      ambassadorId: ambassador.id,
      status: "submitted",
    });
    expect((await refusalOf(getProposalForClient(t.db, unverified, hidden))).status).toBe(404);
    const { proposal, allowed } = await getProposalForClient(t.db, verified, shown);
    expect(proposal.ambassador).toMatchObject({ id: ambassador.id, email: "" });
    expect(allowed).toMatchObject({ edit: false, approve: true, decline: true });
  });
});
