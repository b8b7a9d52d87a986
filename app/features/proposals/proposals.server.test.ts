import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { proposal, user } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, parseForm, proposalRow, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices, verifyByMail } from "../../../tests/helpers/services";
import { ambassadorProposalSchema, declineSchema, proposalRequestSchema, revisionSchema } from "./proposals.schema";
import { PROPOSAL_MESSAGES } from "./proposals.messages";
import {
  approveProposal,
  declineProposal,
  deleteProposal,
  getProposalForEdit,
  listAwaitingApproval,
  listClientProposals,
  requestProposal,
  submitAmbassadorProposal,
  submitRevision,
  updateProposal,
} from "./proposals.server";

const request = (extra: Partial<ReturnType<typeof proposalRequestSchema.parse>> = {}) => ({
  projectName: "Bakery site",
  projectDetails: "Online menu and orders",
  timeline: "6 weeks",
  budget: 500_000,
  targetAudience: "Locals",
  designInspiration: "https://example.com/inspo",
  numberOfPages: 5,
  websiteGoal: "Creative" as const,
  ...extra,
});

describe("proposal schemas", () => {
  const parse = (entries: Record<string, string>) => parseForm(proposalRequestSchema, { projectDetails: "Details", ...entries });

  it("parses the budget as money into cents", () => {
    const cents = (budget: string) => parse({ budget }).value?.budget;
    expect(cents("$5,000")).toBe(500_000);
    expect(cents("5000.50")).toBe(500_050);
    expect(cents(" 1 200 ")).toBe(120_000);
    expect(cents("0.5")).toBe(50);
    expect(cents("")).toBeNull();
  });

  it("puts a clear message next to an unparsable budget", () => {
    for (const budget of ["abc", "5.555", "-10", "5,00.0.1"]) {
      expect(parse({ budget })).toEqual({ error: { budget: ["Enter an amount like 5000 or $5,000.50"] } });
    }
    expect(parse({ budget: "99999999" }).error).toEqual({ budget: ["That amount is too large."] });
  });

  it("requires project details and checks the optional fields", () => {
    expect(parseForm(proposalRequestSchema, { projectDetails: "   " }).error).toEqual({ projectDetails: ["Project details is required."] });
    const bad = parse({ numberOfPages: "0", websiteGoal: "Fancy", designInspiration: "not a url" });
    expect(Object.keys(bad.error ?? {}).sort()).toEqual(["designInspiration", "numberOfPages", "websiteGoal"]);
    const ok = parse({ numberOfPages: "12", websiteGoal: "Minimal", designInspiration: "https://dribbble.com/x", timeline: "  " });
    expect(ok.value).toMatchObject({
      numberOfPages: 12,
      websiteGoal: "Minimal",
      designInspiration: "https://dribbble.com/x",
      timeline: null,
      budget: null,
    });
  });

  it("requires the ambassador proposal's client name, e-mail and details; lowercases the e-mail", () => {
    expect(parseForm(ambassadorProposalSchema, {}).error).toEqual({
      clientName: ["Client name is required."],
      clientEmail: ["Client email is required."],
      projectDetails: ["Project details is required."],
    });
    const ok = parseForm(ambassadorProposalSchema, {
      clientName: "Jo",
      clientEmail: " Jo@Example.COM ",
      projectDetails: "Shop",
      budget: "$1,000",
    });
    expect(ok.value).toMatchObject({ clientEmail: "jo@example.com", budget: 100_000, projectName: null });
    expect(parseForm(ambassadorProposalSchema, { clientName: "Jo", clientEmail: "nope", projectDetails: "x" }).error).toEqual({
      clientEmail: ["Enter a valid email address."],
    });
  });

  it("refuses a blank revision comment or decline reason", () => {
    expect(parseForm(revisionSchema, { comment: "  \n " }).error).toEqual({ comment: ["Describe the revisions you would like."] });
    expect(parseForm(declineSchema, { reason: " " }).error).toEqual({ reason: ["Tell us why you are declining."] });
  });
});

describe.each(testDatabases())("proposals on %s", (_name, open) => {
  const ctx = useTestServices(open);

  const proposalCount = async () => (await ctx.t.db.select({ n: count() }).from(proposal))[0]!.n;

  describe("proposal request", () => {
    it("stores a pending client proposal with the budget in cents", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      const { id } = await requestProposal(t.db, client, request());
      expect(await proposalRow(t.db, id)).toMatchObject({
        clientId: client.id,
        source: "client",
        status: "pending",
        budgetCents: 500_000,
        numberOfPages: 5,
        websiteGoal: "Creative",
        ambassadorId: null,
        clientApprovedAt: null,
      });
    });

    it('refuses a missing actor with "User not logged in" and a non-client with 403, writing nothing', async () => {
      const { t, s } = ctx;
      expect(await refusalOf(requestProposal(t.db, null, request()))).toMatchObject({
        status: 401,
        message: PROPOSAL_MESSAGES.notLoggedIn,
      });
      const ambassador = await makeAmbassador(s);
      expect((await refusalOf(requestProposal(t.db, ambassador, request()))).status).toBe(403);
      expect((await refusalOf(requestProposal(t.db, await makeAdmin(s), request()))).status).toBe(403);
      expect(await proposalCount()).toBe(0);
    });
  });

  describe("project status list", () => {
    it("lists own and addressed proposals newest first, never another client's; completed only on request", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s, { verified: true });
      const other = await makeClient(s);
      const ambassador = await makeAmbassador(s);
      const old = await insertProposal(t.db, { clientId: client.id, projectName: "old", createdAt: new Date("2026-01-01T00:00:00Z") });
      const done = await insertProposal(t.db, {
        clientId: client.id,
        projectName: "done",
        status: "completed",
        createdAt: new Date("2026-01-02T00:00:00Z"),
      });
      const closed = await insertProposal(t.db, {
        clientId: client.id,
        projectName: "closed",
        status: "closed",
        createdAt: new Date("2026-01-03T00:00:00Z"),
      });
      const addressed = await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "submitted",
        projectName: "addressed",
        createdAt: new Date("2026-01-04T00:00:00Z"),
      });
      await insertProposal(t.db, { clientId: other.id, projectName: "not mine" });

      const active = await listClientProposals(t.db, client, { includeCompleted: false, page: 1 });
      expect(active.items.map((p) => p.id)).toEqual([addressed, old]);
      expect(active.total).toBe(2);
      expect(active.items[0]).toMatchObject({
        ambassadorName: "Ann Bassador",
        allowed: { edit: false, delete: false, approve: true, decline: true, revise: false },
      });
      expect(active.items[1]!.allowed).toEqual({ edit: true, delete: true, approve: false, decline: false, revise: false });

      const all = await listClientProposals(t.db, client, { includeCompleted: true, page: 1 });
      expect(all.items.map((p) => p.id)).toEqual([addressed, closed, done, old]);
    });

    it("paginates on the server and clamps a page past the end", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      for (let i = 0; i < 23; i++)
        await insertProposal(t.db, { clientId: client.id, projectName: `p${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) });
      const first = await listClientProposals(t.db, client, { includeCompleted: false, page: 1 });
      expect(first).toMatchObject({ page: 1, pageCount: 2, total: 23, pageSize: 20 });
      expect(first.items).toHaveLength(20);
      expect(first.items[0]!.projectName).toBe("p22");
      const last = await listClientProposals(t.db, client, { includeCompleted: false, page: 9 });
      expect(last.page).toBe(2);
      expect(last.items.map((p) => p.projectName)).toEqual(["p2", "p1", "p0"]);
    });

    it("marks a proposal in review as revisable and links its invoice", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      const id = await insertProposal(t.db, { clientId: client.id, status: "review" });
      const invoiceId = await insertInvoice(t.db, {
        proposalId: id,
        clientId: client.id,
        items: [["Design", 1000]],
        dueDate: "2030-01-01",
      });
      const { items } = await listClientProposals(t.db, client, { includeCompleted: false, page: 1 });
      expect(items[0]).toMatchObject({ id, invoiceId, allowed: { revise: true, edit: false, delete: false } });
    });

    it("refuses a non-client", async () => {
      const { t, s } = ctx;
      expect((await refusalOf(listClientProposals(t.db, await makeAmbassador(s), { includeCompleted: true, page: 1 }))).status).toBe(403);
    });
  });

  describe("edit and delete", () => {
    it("reads and saves the owner's pending proposal", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      const { id } = await requestProposal(t.db, client, request());
      expect(await getProposalForEdit(t.db, client, id)).toMatchObject({ id, projectName: "Bakery site", budgetCents: 500_000 });
      await updateProposal(t.db, client, id, request({ projectName: "Renamed", budget: 123_456, websiteGoal: null, numberOfPages: null }));
      expect(await proposalRow(t.db, id)).toMatchObject({
        projectName: "Renamed",
        budgetCents: 123_456,
        websiteGoal: null,
        numberOfPages: null,
        status: "pending",
      });
    });

    it("answers another client's or an unknown id with 404 and changes nothing", async () => {
      const { t, s } = ctx;
      const owner = await makeClient(s);
      const intruder = await makeClient(s);
      const { id } = await requestProposal(t.db, owner, request());
      const before = await proposalRow(t.db, id);
      for (const attempt of [
        () => getProposalForEdit(t.db, intruder, id),
        () => updateProposal(t.db, intruder, id, request({ projectName: "hacked" })),
        () => deleteProposal(t.db, intruder, id),
        () => submitRevision(t.db, intruder, id, "hacked"),
        () => approveProposal(t.db, intruder, id),
        () => declineProposal(t.db, intruder, id, "hacked"),
        () => getProposalForEdit(t.db, owner, 999_999),
        () => getProposalForEdit(t.db, owner, 2_147_483_647),
        () => updateProposal(t.db, owner, 2_147_483_647, request()),
      ]) {
        expect(await refusalOf(attempt())).toMatchObject({ status: 404, message: PROPOSAL_MESSAGES.notFound });
      }
      expect(await proposalRow(t.db, id)).toEqual(before);
    });

    it("refuses edit and delete once the proposal is no longer pending, and of ambassador proposals", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s, { verified: true });
      const ambassador = await makeAmbassador(s);
      const planning = await insertProposal(t.db, { clientId: client.id, status: "planning" });
      const fromAmbassador = await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "pending",
      });
      const approved = await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "pending",
        clientApprovedAt: new Date(),
      });
      for (const id of [planning, fromAmbassador, approved]) {
        const before = await proposalRow(t.db, id);
        expect((await refusalOf(getProposalForEdit(t.db, client, id))).status).toBe(409);
        expect((await refusalOf(updateProposal(t.db, client, id, request({ projectName: "changed" })))).status).toBe(409);
        expect((await refusalOf(deleteProposal(t.db, client, id))).status).toBe(409);
        expect(await proposalRow(t.db, id)).toEqual(before);
      }
      expect((await refusalOf(updateProposal(t.db, client, planning, request()))).message).toBe(
        "Only pending proposals can be edited. This one is planning.",
      );
      expect((await refusalOf(updateProposal(t.db, client, approved, request()))).message).toMatch(/ambassador cannot be edited/);
    });

    it("deletes the owner's pending proposal, but not one with an invoice", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      const { id } = await requestProposal(t.db, client, request());
      await deleteProposal(t.db, client, id);
      expect(await proposalRow(t.db, id)).toBeNull();

      const invoiced = await insertProposal(t.db, { clientId: client.id });
      await insertInvoice(t.db, { proposalId: invoiced, clientId: client.id, items: [["Deposit", 5000]], dueDate: "2030-01-01" });
      expect(await refusalOf(deleteProposal(t.db, client, invoiced))).toMatchObject({
        status: 409,
        message: "This proposal has an invoice and can no longer be deleted.",
      });
      expect(await proposalRow(t.db, invoiced)).not.toBeNull();
    });
  });

  describe("revision comment", () => {
    it("is accepted only while in review, trimmed and non-empty", async () => {
      const { t, s } = ctx;
      const client = await makeClient(s);
      const id = await insertProposal(t.db, { clientId: client.id, status: "review" });
      await submitRevision(t.db, client, id, "  Bigger logo, please.  ");
      expect((await proposalRow(t.db, id))!.revisionComment).toBe("Bigger logo, please.");

      expect(await refusalOf(submitRevision(t.db, client, id, "   "))).toMatchObject({
        status: 400,
        fieldErrors: { comment: ["Describe the revisions you would like."] },
      });
      expect((await proposalRow(t.db, id))!.revisionComment).toBe("Bigger logo, please.");

      for (const status of ["pending", "planning", "in_progress", "completed"] as const) {
        const other = await insertProposal(t.db, { clientId: client.id, status });
        expect(await refusalOf(submitRevision(t.db, client, other, "change it"))).toMatchObject({
          status: 409,
          message: "Revisions can only be requested while the proposal is in review.",
        });
        expect((await proposalRow(t.db, other))!.revisionComment).toBeNull();
      }
    });
  });

  describe("approval of ambassador proposals", () => {
    async function setup() {
      const { t, s } = ctx;
      const client = await makeClient(s, { verified: true });
      const ambassador = await makeAmbassador(s);
      const id = await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "submitted",
        clientEmail: client.email,
      });
      return { client, ambassador, id };
    }

    it("approves once; a second approval changes nothing", async () => {
      const { t } = ctx;
      const { client, id } = await setup();
      expect(await listAwaitingApproval(t.db, client)).toHaveLength(1);
      expect(await approveProposal(t.db, client, id)).toEqual({ changed: true });
      const first = await proposalRow(t.db, id);
      expect(first!.clientApprovedAt).toBeInstanceOf(Date);
      expect(first!.status).toBe("submitted");
      expect(await approveProposal(t.db, client, id)).toEqual({ changed: false });
      expect(await proposalRow(t.db, id)).toEqual(first);
      expect(await listAwaitingApproval(t.db, client)).toEqual([]);
      // Approved: locked against decline.
      expect(await refusalOf(declineProposal(t.db, client, id, "changed my mind"))).toMatchObject({
        status: 409,
        message: "You have already approved this proposal.",
      });
      expect(await proposalRow(t.db, id)).toEqual(first);
    });

    it("declines with a reason once; a declined proposal cannot be approved", async () => {
      const { t } = ctx;
      const { client, id } = await setup();
      expect(await declineProposal(t.db, client, id, "  Too expensive  ")).toEqual({ changed: true });
      const declined = await proposalRow(t.db, id);
      expect(declined).toMatchObject({ declineReason: "Too expensive", clientApprovedAt: null });
      expect(declined!.clientDeclinedAt).toBeInstanceOf(Date);
      expect(await declineProposal(t.db, client, id, "again")).toEqual({ changed: false });
      expect(await refusalOf(approveProposal(t.db, client, id))).toMatchObject({ status: 409, message: "You declined this proposal." });
      expect(await proposalRow(t.db, id)).toEqual(declined);
      expect(await refusalOf(declineProposal(t.db, client, id, "   "))).toMatchObject({ status: 400 });
      expect(await listAwaitingApproval(t.db, client)).toEqual([]);
    });

    it("refuses approving the client's own proposal, a closed one, and one addressed to someone else", async () => {
      const { t } = ctx;
      const { client, ambassador } = await setup();
      const own = await insertProposal(t.db, { clientId: client.id });
      expect((await refusalOf(approveProposal(t.db, client, own))).status).toBe(409);
      const closed = await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "completed",
      });
      expect((await refusalOf(approveProposal(t.db, client, closed))).status).toBe(409);
      const unclaimed = await insertProposal(t.db, {
        clientId: null,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "submitted",
        clientEmail: "someone@example.com",
      });
      expect((await refusalOf(approveProposal(t.db, client, unclaimed))).status).toBe(404);
      for (const id of [own, closed, unclaimed]) expect((await proposalRow(t.db, id))!.clientApprovedAt).toBeNull();
      expect((await refusalOf(approveProposal(t.db, ambassador, own))).status).toBe(403);
    });

    it("offers only the client's undecided ambassador proposals", async () => {
      const { t, s } = ctx;
      const { client, ambassador, id } = await setup();
      const other = await makeClient(s);
      await insertProposal(t.db, { clientId: other.id, source: "ambassador", ambassadorId: ambassador.id, status: "submitted" });
      await insertProposal(t.db, { clientId: client.id });
      await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "submitted",
        clientApprovedAt: new Date(),
      });
      await insertProposal(t.db, {
        clientId: client.id,
        source: "ambassador",
        ambassadorId: ambassador.id,
        status: "submitted",
        clientDeclinedAt: new Date(),
        declineReason: "no",
      });
      expect((await listAwaitingApproval(t.db, client)).map((p) => p.id)).toEqual([id]);
    });
  });

  describe("ambassador proposal", () => {
    const input = (clientEmail: string) => ({
      clientName: "New Co",
      clientEmail,
      projectName: "Shop",
      projectDetails: "An online shop",
      budget: 250_000,
    });

    it("stores a submitted proposal for a new e-mail, which the client gets once they register and verify the address", async () => {
      const { t, s } = ctx;
      const ambassador = await makeAmbassador(s);
      const { id, clientId } = await submitAmbassadorProposal(t.db, ambassador, input("newco@example.com"));
      expect(clientId).toBeNull();
      expect(await proposalRow(t.db, id)).toMatchObject({
        source: "ambassador",
        status: "submitted",
        ambassadorId: ambassador.id,
        clientEmail: "newco@example.com",
        budgetCents: 250_000,
        clientApprovedAt: null,
        commissionRateBps: null,
      });
      const client = await makeClient(s, { email: "newco@example.com", referralCode: ambassador.referralCode });
      expect((await proposalRow(t.db, id))!.clientId).toBeNull();
      expect(await listAwaitingApproval(t.db, client)).toEqual([]);
      await verifyByMail(s, client.email);
      expect((await proposalRow(t.db, id))!.clientId).toBe(client.id);
      expect((await listAwaitingApproval(t.db, client)).map((p) => p.id)).toEqual([id]);
    });

    it("gives the proposal at once to an existing client the ambassador referred", async () => {
      const { t, s } = ctx;
      const ambassador = await makeAmbassador(s);
      const client = await makeClient(s, { email: "existing@example.com", referralCode: ambassador.referralCode, verified: true });
      const { id, clientId } = await submitAmbassadorProposal(t.db, ambassador, input("existing@example.com"));
      expect(clientId).toBe(client.id);
      expect((await listAwaitingApproval(t.db, client)).map((p) => p.id)).toEqual([id]);
    });

    it("refuses without an actor, without a referral code, for a non-ambassador, and for a staff e-mail", async () => {
      const { t, s } = ctx;
      const ambassador = await makeAmbassador(s);
      expect(await refusalOf(submitAmbassadorProposal(t.db, null, input("a@example.com")))).toMatchObject({
        status: 401,
        message: PROPOSAL_MESSAGES.mustLogIn,
      });
      expect((await refusalOf(submitAmbassadorProposal(t.db, await makeClient(s), input("a@example.com")))).status).toBe(403);
      const admin = await makeAdmin(s);
      // A staff address is answered like any other (no oracle, issue #36) and stays unattached.
      expect((await submitAmbassadorProposal(t.db, ambassador, input(admin.email))).clientId).toBeNull();
      await t.db.update(user).set({ referralCode: null }).where(eq(user.id, ambassador.id));
      expect(await refusalOf(submitAmbassadorProposal(t.db, ambassador, input("a@example.com")))).toMatchObject({
        status: 403,
        message: PROPOSAL_MESSAGES.referralMissing,
      });
      expect(await proposalCount()).toBe(1); // the one to the staff address
    });
  });
});
