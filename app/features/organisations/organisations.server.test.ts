/**
 * Issue #38: client organisations — registration makes an owner, invitations (7 days, one use,
 * revocable, verified address of the invited person), the role matrix in every use-case's statement
 * (owner, billing, member, removed member, a member of another organisation, a person in two),
 * the last owner, notifications by role, and closing an account.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, invitation, mailOutbox, membership, messageMail, organisation, proposal } from "#app/db/schema";
import { setConversationMuted } from "#app/features/conversations/mute.server";
import { listConversationBilling, setBillingInConversation } from "#app/features/conversations/participants.server";
import { listClientConversations } from "#app/features/conversations/client-conversations.server";
import { countUnread } from "#app/features/conversations/unread.server";
import { CONVERSATION_MESSAGES } from "#app/features/conversations/conversations.messages";
import { postMessage } from "#app/features/conversations/post-message.server";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { acceptOffer } from "#app/features/agreements/acceptance.server";
import { threadAccess } from "#app/features/conversations/thread-access.server";
import { generateInvoice } from "#app/features/invoices/generate-invoice.server";
import { getInvoiceForClient, listClientInvoices } from "#app/features/invoices/invoices.server";
import { openSignedInvoice } from "#app/features/payments/invoice-link.server";
import { closeOwnAccount } from "#app/features/privacy/close-account.server";
import { getProposalForClient } from "#app/features/proposals/proposal-detail.server";
import { listClientProposals, requestProposal } from "#app/features/proposals/proposals.server";
import { registerInvited } from "#app/features/users/accounts.server";
import type { Actor } from "#app/features/users/actor";
import { withRequestMemo } from "#app/db/request-memo.server";
import { testDatabases } from "../../../tests/helpers/db";
import { EMPTY_PROPOSAL_REQUEST, refusalOf } from "../../../tests/helpers/portal";
import { freshMeta, makeAdmin, makeClient, useTestServices, type TestServices } from "../../../tests/helpers/services";
import { sessionUser } from "../../../tests/helpers/auth-session";
import { ORGANISATION_MESSAGES } from "./organisations.messages";
import {
  acceptInvitation,
  changeMemberRole,
  INVITATION_TTL_MS,
  inviteMember,
  listMyOrganisations,
  readInvitation,
  removeMember,
  revokeInvitation,
  sessionOrganisation,
  createOrganisation,
} from "./organisations.server";

/** The actor a request of `person` in `organisationId` carries (what the session middleware sets). */
async function inOrg(s: TestServices, person: Actor, organisationId: number): Promise<Actor> {
  const [row] = await s.db
    .select({ role: membership.role })
    .from(membership)
    .where(and(eq(membership.userId, person.id), eq(membership.organisationId, organisationId)));
  return { ...person, organisationId, organisationRole: row?.role ?? null };
}

async function ownOrganisation(s: TestServices, person: Actor): Promise<number> {
  const [row] = await s.db.select({ id: membership.organisationId }).from(membership).where(eq(membership.userId, person.id));
  return row!.id;
}

/** The token of the newest invitation mail to `email`. */
async function invitationToken(s: TestServices, email: string): Promise<string> {
  const rows = await s.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(mailOutbox.id);
  const match = rows
    .map((r) => /\/invitations\/([\w-]+)/.exec(r.text)?.[1])
    .filter(Boolean)
    .at(-1);
  if (!match) throw new Error(`no invitation mail to ${email}`);
  return match;
}

describe.each(testDatabases())("organisations on %s", (_name, open) => {
  const ctx = useTestServices(open);

  /** An owner's organisation with an invited billing person and member (accounts made from the invitations). */
  async function team() {
    const { s } = ctx;
    const ownerPerson = await makeClient(s, { verified: true, businessName: "Acme Bakery" });
    const orgId = await ownOrganisation(s, ownerPerson);
    const owner = await inOrg(s, ownerPerson, orgId);
    const people: Record<"billing" | "member", Actor> = {} as never;
    for (const role of ["billing", "member"] as const) {
      const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
      await inviteMember(s.db, owner, { email, role });
      const { userId } = await registerInvited(
        s,
        await invitationToken(s, email),
        { name: `The ${role}`, password: "secret-pass" },
        freshMeta(),
      );
      people[role] = await inOrg(s, { id: userId, role: "client", email }, orgId);
    }
    return { orgId, owner, billing: people.billing, member: people.member };
  }

  it("registration makes an organisation named after the business, with the person as its owner", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { businessName: "Blue Door Studio" });
    const orgs = await listMyOrganisations(s.db, client);
    expect(orgs).toEqual([{ id: expect.any(Number), name: "Blue Door Studio", role: "owner" }]);
  });

  it("invitations: the invited person joins with the role; one use; 7 days; revocable; only their verified address", async () => {
    const { s } = ctx;
    const { owner, orgId, billing } = await team();
    expect((await listMyOrganisations(s.db, billing))[0]).toMatchObject({ id: orgId, role: "billing" });

    // Used once: the same link again is refused.
    const used = await invitationToken(s, billing.email);
    expect((await refusalOf(readInvitation(s.db, used))).status).toBe(404);

    // Another person's account cannot take it, an unverified one neither.
    const stranger = await makeClient(s, { verified: true });
    const unverified = await makeClient(s);
    const target = `late-${Date.now()}@example.com`;
    const { token } = await inviteMember(s.db, owner, { email: target, role: "member" });
    expect((await refusalOf(acceptInvitation(s.db, stranger.id, token))).message).toBe(ORGANISATION_MESSAGES.invitationOtherEmail);
    const { token: forUnverified } = await inviteMember(s.db, owner, { email: unverified.email, role: "member" });
    expect((await refusalOf(acceptInvitation(s.db, unverified.id, forUnverified))).message).toBe(
      ORGANISATION_MESSAGES.invitationUnverified,
    );

    // Expired after 7 days.
    const now = new Date();
    expect((await readInvitation(s.db, token, new Date(now.getTime() + INVITATION_TTL_MS - 60_000))).email).toBe(target);
    expect((await refusalOf(readInvitation(s.db, token, new Date(now.getTime() + INVITATION_TTL_MS + 60_000)))).status).toBe(404);

    // Revoked: the link stops working; a second open invitation to the same address is refused until then.
    expect((await refusalOf(inviteMember(s.db, owner, { email: target, role: "billing" }))).fieldErrors?.email?.[0]).toBe(
      ORGANISATION_MESSAGES.alreadyInvited,
    );
    const [row] = await s.db.select({ id: invitation.id }).from(invitation).where(eq(invitation.email, target));
    await revokeInvitation(s.db, owner, row!.id);
    expect((await refusalOf(readInvitation(s.db, token))).status).toBe(404);
    // The token is kept as a hash only.
    expect(
      await s.db
        .select()
        .from(invitation)
        .where(like(invitation.tokenHash, `%${token}%`)),
    ).toHaveLength(0);

    // Only an owner invites (billing and member: 403), and an admin may on the client's behalf.
    for (const who of [billing]) {
      expect((await refusalOf(inviteMember(s.db, who, { email: "x@example.com", role: "member" }))).status).toBe(403);
    }
    const admin = await makeAdmin(s);
    await inviteMember(s.db, admin, { email: "helper@example.com", role: "member" }, orgId);
    expect(await invitationToken(s, "helper@example.com")).toBeTruthy();
  });

  it("each role reaches only its areas, checked in the statements: owner, billing, member, removed member, another organisation", async () => {
    const { s } = ctx;
    const { owner, billing, member, orgId } = await team();
    const { id: proposalId } = await requestProposal(s.db, member, {
      ...EMPTY_PROPOSAL_REQUEST,
      projectDetails: "Shop",
      projectName: "Shop",
    });
    const admin = await makeAdmin(s);
    const { id: invoiceId } = await generateInvoice(
      s.db,
      admin,
      proposalId,
      {
        items: [{ description: "Work", amountCents: 50_000 }],
        dueDate: "2030-01-01",
      },
      undefined,
      { cardPayments: true },
    );
    const outsiderPerson = await makeClient(s, { verified: true });
    const outsider = await inOrg(s, outsiderPerson, await ownOrganisation(s, outsiderPerson));

    // Projects and conversations: owner and member; not billing, not another organisation.
    for (const who of [owner, member]) {
      expect((await getProposalForClient(s.db, who, proposalId)).proposal.id).toBe(proposalId);
      expect((await threadAccess(s.db, who, proposalId)).proposalId).toBe(proposalId);
    }
    for (const who of [billing, outsider]) {
      expect((await refusalOf(getProposalForClient(s.db, who, proposalId))).status).toBe(404);
      expect((await refusalOf(threadAccess(s.db, who, proposalId))).status).toBe(404);
    }
    // Money: owner and billing; a member gets 404 on the invoice and on the list.
    for (const who of [owner, billing]) expect((await getInvoiceForClient(s.db, who, invoiceId)).id).toBe(invoiceId);
    for (const who of [member, outsider]) expect((await refusalOf(getInvoiceForClient(s.db, who, invoiceId))).status).toBe(404);
    expect((await refusalOf(listClientInvoices(s.db, member, { page: 1 }))).status).toBe(404);
    // The project list names the invoice to the owner only, never to the member (its page is a 404 for them).
    const listed = async (who: Actor) =>
      (await listClientProposals(s.db, who, { includeCompleted: true, page: 1 })).items.find((row) => row.id === proposalId);
    expect((await listed(owner))?.invoiceId).toBe(invoiceId);
    expect((await listed(member))?.invoiceId).toBeNull();

    // The session's claim alone is not enough: a forged role is checked against the membership.
    const forged = { ...member, organisationRole: "owner" as const };
    expect((await refusalOf(getInvoiceForClient(s.db, forged, invoiceId))).status).toBe(404);
    expect(
      (await refusalOf(getProposalForClient(s.db, { ...outsider, organisationId: orgId, organisationRole: "owner" }, proposalId))).status,
    ).toBe(404);

    // Removed: the next read finds nothing, whatever the request still carries.
    await removeMember(s.db, owner, member.id);
    expect((await refusalOf(getProposalForClient(s.db, member, proposalId))).status).toBe(404);
    expect((await refusalOf(threadAccess(s.db, member, proposalId))).status).toBe(404);
    expect(await listMyOrganisations(s.db, member)).toEqual([]);

    // Invoice mails went to the owner and billing person only, each with a link of their own.
    const mails = await s.db.select().from(mailOutbox).where(like(mailOutbox.text, "%/i/%"));
    const to = mails.map((m) => m.to).sort();
    expect(to).toEqual([billing.email, owner.email].sort());
    for (const mail of mails) {
      const link = /\/i\/([\w.~-]+)/.exec(mail.text)![1]!;
      expect((await openSignedInvoice(s.db, link)).client.email).toBe(mail.to);
    }
    // The billing person's link acts as them: once they are no longer billing, it opens nothing.
    const billingLink = /\/i\/([\w.~-]+)/.exec(mails.find((m) => m.to === billing.email)!.text)![1]!;
    await changeMemberRole(s.db, owner, billing.id, "member");
    const opened = await openSignedInvoice(s.db, billingLink);
    expect((await refusalOf(getInvoiceForClient(s.db, opened.client, opened.invoiceId))).status).toBe(404);
  });

  it("thread mails go to the owners and members who did not mute the conversation, never to billing", async () => {
    const { s } = ctx;
    const { owner, billing, member } = await team();
    const { id: proposalId } = await requestProposal(s.db, owner, {
      ...EMPTY_PROPOSAL_REQUEST,
      projectDetails: "Thread",
      projectName: "Thread",
    });
    const admin = await makeAdmin(s);
    await setConversationMuted(s.db, member, proposalId, true);
    expect((await refusalOf(setConversationMuted(s.db, billing, proposalId, true))).status).toBe(404);
    await postMessage(
      { db: s.db, files: createDatabaseFileStore(s.db), maxUploadMb: 1 },
      { author: admin, proposalId, text: "Hello team" },
    );
    const waiting = await s.db.select({ userId: messageMail.userId }).from(messageMail).where(eq(messageMail.proposalId, proposalId));
    expect(waiting.map((r) => r.userId)).toEqual([owner.id]);
  });

  it("an owner adds a billing colleague to one conversation: they read, write and get its mails there only, until removed", async () => {
    const { s } = ctx;
    const { owner, billing, member } = await team();
    const ask = (name: string) => requestProposal(s.db, owner, { ...EMPTY_PROPOSAL_REQUEST, projectDetails: name, projectName: name });
    const { id: shared } = await ask("Shared");
    const { id: other } = await ask("Other");
    const files = { db: s.db, files: createDatabaseFileStore(s.db), maxUploadMb: 1 };

    expect((await listConversationBilling(s.db, owner, shared)).map((p) => [p.userId, p.added])).toEqual([[billing.id, false]]);
    // Only an owner chooses, and only the organisation's billing people.
    for (const who of [member, billing])
      expect((await refusalOf(setBillingInConversation(s.db, who, { proposalId: shared, userId: billing.id, added: true }))).status).toBe(
        404,
      );
    expect(await listConversationBilling(s.db, member, shared)).toEqual([]);
    expect(await refusalOf(setBillingInConversation(s.db, owner, { proposalId: shared, userId: member.id, added: true }))).toMatchObject({
      status: 404,
      message: CONVERSATION_MESSAGES.personNotFound,
    });
    const outsiderPerson = await makeClient(s, { verified: true });
    const outsider = await inOrg(s, outsiderPerson, await ownOrganisation(s, outsiderPerson));
    expect(
      (await refusalOf(setBillingInConversation(s.db, outsider, { proposalId: shared, userId: billing.id, added: true }))).status,
    ).toBe(404);

    await setBillingInConversation(s.db, owner, { proposalId: shared, userId: billing.id, added: true });
    await setBillingInConversation(s.db, owner, { proposalId: shared, userId: billing.id, added: true }); // a repeat records nothing
    expect((await listConversationBilling(s.db, owner, shared))[0]?.added).toBe(true);
    expect((await threadAccess(s.db, billing, shared)).proposalId).toBe(shared);
    expect((await refusalOf(threadAccess(s.db, billing, other))).status).toBe(404);
    expect((await listClientConversations(s.db, billing, 10)).map((row) => row.id)).toEqual([shared]);
    // The proposal itself (offer, request) stays closed to billing.
    expect((await refusalOf(getProposalForClient(s.db, billing, shared))).status).toBe(404);
    await postMessage(files, { author: billing, proposalId: shared, text: "About the invoice" });
    const admin = await makeAdmin(s);
    await postMessage(files, { author: admin, proposalId: shared, text: "Thanks" });
    const waiting = await s.db.select({ userId: messageMail.userId }).from(messageMail).where(eq(messageMail.proposalId, shared));
    expect([...new Set(waiting.map((r) => r.userId))].sort()).toEqual([owner.id, member.id, billing.id].sort());
    expect(await countUnread(s.db, billing)).toBe(1);
    const audited = await s.db
      .select({ action: auditEvent.action })
      .from(auditEvent)
      .where(
        and(eq(auditEvent.entity, "proposal"), eq(auditEvent.entityId, String(shared)), like(auditEvent.action, "conversation-member-%")),
      );
    expect(audited.map((r) => r.action)).toEqual(["conversation-member-added"]);

    await setBillingInConversation(s.db, owner, { proposalId: shared, userId: billing.id, added: false });
    expect((await refusalOf(threadAccess(s.db, billing, shared))).status).toBe(404);
    expect(await listClientConversations(s.db, billing, 10)).toEqual([]);
  });

  it("only an owner signs an offer", async () => {
    const { s } = ctx;
    const { member, billing } = await team();
    const meta = { ip: null, userAgent: null, timeZone: null, origin: null };
    for (const who of [member, billing]) {
      expect(await refusalOf(acceptOffer(s.db, who, 1, { typedName: "Me", version: 1 }, meta))).toMatchObject({
        status: 403,
        message: ORGANISATION_MESSAGES.ownersOnly,
      });
    }
  });

  it("a person in two organisations works in the one chosen, and sees only its proposals", async () => {
    const { s } = ctx;
    const first = await team();
    const other = await makeClient(s, { verified: true, businessName: "Second Co" });
    const otherOrg = await inOrg(s, other, await ownOrganisation(s, other));
    await inviteMember(s.db, otherOrg, { email: first.member.email, role: "member" });
    await acceptInvitation(s.db, first.member.id, await invitationToken(s, first.member.email));
    const inFirst = await inOrg(s, first.member, first.orgId);
    const inSecond = await inOrg(s, first.member, otherOrg.organisationId!);
    const a = await requestProposal(s.db, inFirst, { ...EMPTY_PROPOSAL_REQUEST, projectDetails: "A", projectName: "A" });
    const b = await requestProposal(s.db, inSecond, { ...EMPTY_PROPOSAL_REQUEST, projectDetails: "B", projectName: "B" });
    const [rowA] = await s.db.select({ org: proposal.organisationId }).from(proposal).where(eq(proposal.id, a.id));
    expect(rowA!.org).toBe(first.orgId);
    expect((await refusalOf(getProposalForClient(s.db, inFirst, b.id))).status).toBe(404);
    expect((await refusalOf(getProposalForClient(s.db, inSecond, a.id))).status).toBe(404);
    expect((await getProposalForClient(s.db, inSecond, b.id)).proposal.id).toBe(b.id);
    expect((await listMyOrganisations(s.db, first.member)).map((o) => o.name)).toEqual(["Acme Bakery", "Second Co"]);
  });

  it("the last owner cannot be removed, demoted nor leave; with a second owner they can", async () => {
    const { s } = ctx;
    const { owner, billing } = await team();
    expect((await refusalOf(removeMember(s.db, owner, owner.id))).message).toBe(ORGANISATION_MESSAGES.lastOwner);
    expect((await refusalOf(changeMemberRole(s.db, owner, owner.id, "member"))).message).toBe(ORGANISATION_MESSAGES.lastOwner);
    expect((await refusalOf(removeMember(s.db, billing, owner.id))).status).toBe(403);
    await changeMemberRole(s.db, owner, billing.id, "owner");
    await changeMemberRole(s.db, owner, owner.id, "billing");
    expect((await listMyOrganisations(s.db, owner))[0]!.role).toBe("billing");
  });

  it("closing an account: the last owner hands over first; a member's closing leaves the organisation and its records", async () => {
    const { s } = ctx;
    const { owner, member, orgId } = await team();
    const { id: proposalId } = await requestProposal(s.db, member, {
      ...EMPTY_PROPOSAL_REQUEST,
      projectDetails: "Kept",
      projectName: "Kept",
    });
    const here = freshMeta();
    const ownerSession = { ...(await sessionUser(s, owner.id)), ...owner };
    expect(await refusalOf(closeOwnAccount(s, ownerSession, { password: "secret-pass" }, here))).toMatchObject({ status: 409 });
    const memberSession = { ...(await sessionUser(s, member.id)), ...member };
    await closeOwnAccount(s, memberSession, { password: "secret-pass" }, here);
    expect(await s.db.select().from(membership).where(eq(membership.userId, member.id))).toEqual([]);
    expect((await getProposalForClient(s.db, owner, proposalId)).proposal.id).toBe(proposalId);
    expect(await s.db.select({ id: organisation.id }).from(organisation).where(eq(organisation.id, orgId))).toHaveLength(1);
  });

  it("the session works in the chosen organisation while the person is a member there, else their first", async () => {
    const { s } = ctx;
    const { member, orgId } = await team();
    // A session row as better-auth writes it, with the organisation chosen (what the middleware reads).
    await s.db.execute(sql`insert into session (id, expires_at, token, user_id, active_organisation_id)
        values ('s-test', now() + interval '1 day', 't-test', ${member.id}, ${orgId})`);
    expect(await sessionOrganisation(s.db, "s-test")).toEqual({ organisationId: orgId, organisationRole: "member", name: "Acme Bakery" });
    await s.db.delete(membership).where(eq(membership.userId, member.id));
    expect(await sessionOrganisation(s.db, "s-test")).toBeNull();
  });

  it("the session's statement brings the person's organisations to the request, never another person's (issue #42)", async () => {
    const { s } = ctx;
    const { member, owner, orgId } = await team();
    await s.db.execute(sql`insert into session (id, expires_at, token, user_id, active_organisation_id)
        values ('s-memo', now() + interval '1 day', 't-memo', ${member.id}, ${orgId})`);
    const request = withRequestMemo(s.db);
    await sessionOrganisation(request, "s-memo");
    // A membership added after the session's statement: the request keeps what that statement brought…
    const second = await createOrganisation(s.db, { name: "Second Co", ownerId: member.id });
    expect(await listMyOrganisations(request, member)).toEqual([{ id: orgId, name: "Acme Bakery", role: "member" }]);
    // …a fresh read sees both, and another person on the same request reads their own.
    expect((await listMyOrganisations(s.db, member)).map((o) => o.id)).toEqual([orgId, second]);
    expect(await listMyOrganisations(request, owner)).toEqual([{ id: orgId, name: "Acme Bakery", role: "owner" }]);
  });
});
