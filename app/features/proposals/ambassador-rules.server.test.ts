/**
 * docs/product.md#ambassador-proposals and #email-verification: whom an ambassador may address,
 * the daily limits, the mail to a new address, and that a proposal reaches its client only once
 * the client's address is verified — on PGlite and on the PostgreSQL server.
 */
import { createOrganisation } from "#app/features/organisations/organisations.server";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, proposal, user } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { proposalRow, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices, verifyByMail } from "../../../tests/helpers/services";
import { AMBASSADOR_DAILY_LIMITS, PROPOSAL_MESSAGES } from "./proposals.messages";
import { approveProposal, declineProposal, listAwaitingApproval, listClientProposals, submitAmbassadorProposal } from "./proposals.server";

const input = (clientEmail: string, extra: Partial<{ clientName: string; projectName: string | null; projectDetails: string }> = {}) => ({
  clientName: "New Co",
  clientEmail,
  projectName: "Shop" as string | null,
  projectDetails: "An online shop",
  budget: 250_000,
  ...extra,
});

describe.each(testDatabases())("ambassador proposal rules on %s", (_name, open) => {
  const ctx = useTestServices(open);
  const proposalCount = async () => (await ctx.t.db.select({ n: count() }).from(proposal))[0]!.n;
  const mailCount = async () => (await ctx.t.db.select({ n: count() }).from(mailOutbox))[0]!.n;

  it("answers and counts every address but a referred client's alike, account or not: no oracle of who has an account (issue #36)", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const otherAmbassador = await makeAmbassador(s);
    const referred = await makeClient(s, { referralCode: ambassador.referralCode });
    const othersClient = await makeClient(s, { referralCode: otherAmbassador.referralCode, verified: true });
    const direct = await makeClient(s, { verified: true });
    const unverified = await makeClient(s);
    const admin = await makeAdmin(s);

    expect((await submitAmbassadorProposal(t.db, ambassador, input(referred.email))).clientId).toBe(referred.id);
    const mailsBefore = await mailCount();
    // Five addresses, four of them with an account: the same answer (a proposal waiting for its client) for each.
    const answers = [];
    for (const email of [othersClient.email, "nobody-yet@example.com", direct.email, admin.email, unverified.email.toUpperCase()]) {
      const answer = await submitAmbassadorProposal(t.db, ambassador, input(email));
      answers.push({ clientId: answer.clientId, id: typeof answer.id });
    }
    expect(answers).toEqual(Array(5).fill({ clientId: null, id: "number" }));
    // One budget for all of them: the sixth is refused whichever kind it is.
    for (const email of [otherAmbassador.email, ambassador.email, "someone-else@example.com"]) {
      expect(await refusalOf(submitAmbassadorProposal(t.db, ambassador, input(email)))).toMatchObject({
        status: 429,
        message: PROPOSAL_MESSAGES.newAddressLimit,
      });
    }
    // Only the address without an account is mailed (an invitation); nothing reaches the account holders.
    const mails = await t.db.select().from(mailOutbox);
    expect(mails.length - mailsBefore).toBe(1);
    const holders = [othersClient.email, direct.email, admin.email, unverified.email];
    expect(mails.filter((m) => holders.includes(m.to) && /proposal/i.test(m.subject))).toEqual([]);
    expect(mails.filter((m) => m.to === "nobody-yet@example.com").map((m) => m.subject)).toEqual([
      "A website proposal was prepared for you — Client Portal",
    ]);
    // An account that existed already never gets it — not even by verifying its address later.
    await verifyByMail(s, unverified.email);
    const waiting = await t.db.select().from(proposal).where(eq(proposal.clientEmail, unverified.email));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ clientId: null, organisationId: null });
    expect(await listClientProposals(t.db, othersClient, { includeCompleted: true, page: 1 })).toMatchObject({ items: [] });
  });

  it("allows 5 new addresses and 20 proposals a day per ambassador; a refused one writes nothing and does not count", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const other = await makeAmbassador(s);
    const referred = await makeClient(s, { referralCode: ambassador.referralCode });
    for (let i = 0; i < AMBASSADOR_DAILY_LIMITS.newAddresses; i++) {
      await submitAmbassadorProposal(t.db, ambassador, input(`new-${i}@example.com`));
    }
    const before = await proposalCount();
    const mails = await mailCount();
    const tooManyNew = await refusalOf(submitAmbassadorProposal(t.db, ambassador, input("new-6@example.com")));
    expect(tooManyNew).toMatchObject({ status: 429, code: "RATE_LIMITED", message: PROPOSAL_MESSAGES.newAddressLimit });
    expect(tooManyNew.retryAfterSeconds).toBeGreaterThan(23 * 3600);
    expect(await proposalCount()).toBe(before);
    expect(await mailCount()).toBe(mails);
    // Another ambassador has their own budget.
    await submitAmbassadorProposal(t.db, other, input("new-6@example.com"));

    // A referred client may still receive proposals, up to 20 in all.
    for (let i = AMBASSADOR_DAILY_LIMITS.newAddresses; i < AMBASSADOR_DAILY_LIMITS.proposals; i++) {
      await submitAmbassadorProposal(t.db, ambassador, input(referred.email, { projectName: `P${i}` }));
    }
    const mine = async () => (await t.db.select({ n: count() }).from(proposal).where(eq(proposal.ambassadorId, ambassador.id)))[0]!.n;
    expect(await mine()).toBe(20);
    expect(await refusalOf(submitAmbassadorProposal(t.db, ambassador, input(referred.email)))).toMatchObject({
      status: 429,
      message: PROPOSAL_MESSAGES.dailyLimit,
    });
    expect(await mine()).toBe(20);
  });

  it("mails a new address only fixed text, the ambassador's display name and the registration link — not the project name nor anything else typed", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "sunny-side" });
    await t.db.update(user).set({ name: "Ann Evil-Name http://phish.example/login" }).where(eq(user.id, ambassador.id));
    await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Dear customer, your bank account is locked",
      clientEmail: "victim@example.com",
      projectName: "Bakery relaunch",
      projectDetails: "Log in at http://phish.example/login to unlock your account",
      budget: 100,
    });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "victim@example.com"));
    expect(mail!.subject).toBe("A website proposal was prepared for you — Client Portal");
    for (const part of [mail!.text, mail!.html!]) {
      expect(part).toContain("{{origin}}/register?ref=sunny-side");
      expect(part).not.toMatch(/Bakery relaunch|http:|phish\.|bank account|Dear customer|\$1\.00/);
    }
    expect(mail!.text).toBe(
      [
        "Ann Evil-Name http phish example login, one of our ambassadors, prepared a website proposal for this e-mail address.",
        "To see it, create your free client account with this e-mail address using the link below, then confirm the address from the e-mail we send you.",
        "If you did not expect this message, ignore it: you will not hear from us about it again.",
        "",
        "Create your account: {{origin}}/register?ref=sunny-side",
        "",
        "— Client Portal",
      ].join("\n"),
    );
  });

  it("shows an addressed proposal to its client only once the address is verified through the mailed link", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const { id } = await submitAmbassadorProposal(t.db, ambassador, input("first@example.com"));
    // Whoever registers the address first sees nothing until they open the link sent to it.
    const client = await makeClient(s, { email: "first@example.com" });
    expect((await proposalRow(t.db, id))!.clientId).toBeNull();
    expect(await listAwaitingApproval(t.db, client)).toEqual([]);
    expect((await listClientProposals(t.db, client, { includeCompleted: true, page: 1 })).items).toEqual([]);
    expect(await refusalOf(approveProposal(t.db, client, id))).toMatchObject({ status: 404, message: PROPOSAL_MESSAGES.notFound });
    expect(await refusalOf(declineProposal(t.db, client, id, "no"))).toMatchObject({ status: 404 });
    expect((await proposalRow(t.db, id))!.clientApprovedAt).toBeNull();

    await verifyByMail(s, client.email);
    expect((await proposalRow(t.db, id))!.clientId).toBe(client.id);
    expect((await listAwaitingApproval(t.db, client)).map((p) => p.id)).toEqual([id]);
    expect(await approveProposal(t.db, client, id)).toEqual({ changed: true });

    // A referred client who has not verified: the proposal is theirs, hidden until they verify.
    const referred = await makeClient(s, { referralCode: ambassador.referralCode });
    const second = await submitAmbassadorProposal(t.db, ambassador, input(referred.email));
    expect(second.clientId).toBe(referred.id);
    expect(await listAwaitingApproval(t.db, referred)).toEqual([]);
    expect((await refusalOf(approveProposal(t.db, referred, second.id))).status).toBe(404);
    await verifyByMail(s, referred.email);
    expect(await approveProposal(t.db, referred, second.id)).toEqual({ changed: true });
  });

  it("never lets an ambassador be the client of their own proposal", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    // Their own address is answered like any other, and the proposal is never theirs as a client…
    expect((await submitAmbassadorProposal(t.db, ambassador, input(ambassador.email))).clientId).toBeNull();
    // …and should the account later act as a client (role changed), approving its own proposal is refused.
    const { id } = await submitAmbassadorProposal(t.db, ambassador, input("someone@example.com"));
    await t.db.update(user).set({ role: "client", emailVerified: true }).where(eq(user.id, ambassador.id));
    await createOrganisation(t.db, { name: "Former ambassador", ownerId: ambassador.id });
    await t.db.update(proposal).set({ clientId: ambassador.id }).where(eq(proposal.id, id));
    const asClient = { ...ambassador, role: "client" as const };
    expect(await refusalOf(approveProposal(t.db, asClient, id))).toMatchObject({ status: 403, message: PROPOSAL_MESSAGES.ownProposal });
    expect(await refusalOf(declineProposal(t.db, asClient, id, "x"))).toMatchObject({ status: 403 });
    expect((await proposalRow(t.db, id))!.clientApprovedAt).toBeNull();
  });
});
