/**
 * Issue #6, admin side: every admin write records exactly one audit event with the
 * before/after values of what it changed, and queues its notification, in the write's own
 * transaction; refused writes and no-ops record and queue nothing.
 */
import { asc, eq, notLike } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { auditEvent, invoice, mailOutbox, proposal, settings, user } from "#app/db/schema";
import { generateInvoice, deleteInvoice, markInvoicePaid, updateInvoice } from "#app/features/invoices/invoices.admin.server";
import { ORIGIN_TOKEN } from "#app/features/mail/notifications.server";
import { deliverDueMails, type MailSender } from "#app/features/mail/outbox.server";
import { acceptMeeting, deleteMeeting, MEETING_ICS_CONTENT_TYPE } from "#app/features/meetings/meetings.admin.server";
import { setProposalStatus } from "#app/features/proposals/proposals.admin.server";
import { createPayout } from "#app/features/referrals/commissions.admin.server";
import { saveSettings } from "#app/features/settings/settings.server";
import { deleteUser, setUserActive } from "#app/features/users/users.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertMeeting, insertProposal, insertReferredProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { insertInvoice, recordTestPayment } from "../../../tests/helpers/payments";
import { listAuditEvents } from "./audit.server";

const SETTINGS = {
  companyName: "Acme Studio",
  supportEmail: "help@acme.example",
  defaultTimeline: "",
  allowNewClients: true,
  commissionRateBps: 1500,
};
const PAYOUT = { reference: "SEPA-42", method: "bank_transfer" as const, paidAt: new Date("2026-03-01T00:00:00Z") };
const ITEMS = { items: [{ description: "Design", amountCents: 100_000 }], dueDate: "2031-02-01" };

describe.each(testDatabases())("admin audit trail and notifications on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  const events = () => ctx.t.db.select().from(auditEvent).orderBy(asc(auditEvent.id));
  // Registration's verification mails are checked in app/features/users/email-verification.server.test.ts.
  const mails = () =>
    ctx.t.db.select().from(mailOutbox).where(notLike(mailOutbox.subject, "Verify your e-mail address%")).orderBy(asc(mailOutbox.id));
  /** The only audit event; fails unless there is exactly one. */
  async function onlyEvent() {
    const all = await events();
    expect(all).toHaveLength(1);
    return all[0]!;
  }
  async function optOut(userId: string) {
    const { t } = ctx;
    await t.db.update(user).set({ notifyUpdates: false }).where(eq(user.id, userId));
  }
  async function approvedAmbassadorProposal() {
    return insertReferredProposal(ctx.s, {
      budgetCents: 200_000,
      clientApprovedAt: new Date(),
      commissionRateBps: 1500,
      status: "pending",
      projectName: "Gym site",
    });
  }

  describe("proposal status", () => {
    it("records one event with the status before and after, and mails the client a /project-status link", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const id = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery site", status: "pending" });
      await setProposalStatus(t.db, admin, id, "in_progress");
      expect(await onlyEvent()).toMatchObject({
        actorId: admin.id,
        actorEmail: admin.email,
        entity: "proposal",
        entityId: String(id),
        action: "status-changed",
        before: { status: "pending" },
        after: { status: "in_progress" },
      });
      const [mail, ...rest] = await mails();
      expect(rest).toEqual([]);
      expect(mail!.to).toBe(client.email);
      expect(mail!.subject).toBe("Bakery site: status is now In progress — Client Portal");
      expect(mail!.text).toContain(`${ORIGIN_TOKEN}/project-status`);
      expect(mail!.text).toContain("from Pending to In progress");
    });

    it("records and queues nothing when the status is unchanged, refused or the proposal unknown", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const id = await insertProposal(t.db, { clientId: client.id, status: "review" });
      const before = await snapshot(t.db);
      expect(await setProposalStatus(t.db, admin, id, "review")).toMatchObject({ changed: false });
      expect((await rejectionOf(setProposalStatus(t.db, client, id, "completed"))).status).toBe(403);
      expect((await rejectionOf(setProposalStatus(t.db, admin, id, "closed" as never))).status).toBe(400);
      expect((await rejectionOf(setProposalStatus(t.db, admin, id + 999, "completed"))).status).toBe(404);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it("skips the mail for a client who turned updates off, but still audits", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      await optOut(client.id);
      const id = await insertProposal(t.db, { clientId: client.id, status: "pending" });
      await setProposalStatus(t.db, admin, id, "planning");
      expect((await onlyEvent()).after).toEqual({ status: "planning" });
      expect(await mails()).toEqual([]);
    });
  });

  describe("invoices", () => {
    it("create: one event with the invoice as created, and an essential notice with the signed invoice link", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      await optOut(client.id); // essential: sent anyway
      const proposalId = await insertProposal(t.db, { clientId: client.id });
      const created = await generateInvoice(t.db, admin, proposalId, ITEMS, new Date("2030-12-01T12:00:00Z"), { cardPayments: true });
      expect(await onlyEvent()).toMatchObject({
        entity: "invoice",
        entityId: String(created.id),
        action: "created",
        before: null,
        after: {
          number: "INV-2030-0001",
          proposalId,
          clientId: client.id,
          dueDate: "2031-02-01",
          status: "unpaid",
          totalCents: 100_000,
          items: ITEMS.items,
        },
      });
      const [mail, ...rest] = await mails();
      expect(rest).toEqual([]);
      expect(mail).toMatchObject({ to: client.email, subject: "New invoice INV-2030-0001 — Client Portal" });
      expect(mail!.text).toContain(`${ORIGIN_TOKEN}/i/${created.id}.`); // the signed invoice link (docs/product.md#invoice-link)
      expect(mail!.text).toContain("$1,000.00");
    });

    it("edit: one event with only the changed fields, a notice; saving the same values changes nothing", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const proposalId = await insertProposal(t.db, { clientId: client.id });
      const { id } = await generateInvoice(t.db, admin, proposalId, ITEMS, undefined, { cardPayments: true });
      await t.db.delete(auditEvent);
      await t.db.delete(mailOutbox);

      const same = await snapshot(t.db);
      await updateInvoice(t.db, admin, id, ITEMS);
      expect(await snapshot(t.db)).toEqual(same);

      await updateInvoice(t.db, admin, id, { ...ITEMS, items: [...ITEMS.items, { description: "Hosting", amountCents: 5_000 }] });
      expect(await onlyEvent()).toMatchObject({
        entity: "invoice",
        entityId: String(id),
        action: "updated",
        before: { totalCents: 100_000, items: ITEMS.items },
        after: { totalCents: 105_000, items: [...ITEMS.items, { description: "Hosting", amountCents: 5_000 }] },
      });
      expect((await events())[0]!.before).not.toHaveProperty("dueDate");
      const [mail, ...rest] = await mails();
      expect(rest).toEqual([]);
      expect(mail!.to).toBe(client.email);
      expect(mail!.subject).toMatch(/^Invoice INV-\d{4}-0001 was updated/);
      expect(mail!.text).toContain(`${ORIGIN_TOKEN}/i/${id}.`);
    });

    it("record full payment (was Mark paid): one event with the balance before/after; again is a no-op; refusals record nothing", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const { id } = await generateInvoice(t.db, admin, await insertProposal(t.db, { clientId: client.id }), ITEMS, undefined, {
        cardPayments: true,
      });
      await t.db.delete(auditEvent);
      await t.db.delete(mailOutbox);
      const before = await snapshot(t.db);
      expect((await rejectionOf(markInvoicePaid(t.db, client, id))).status).toBe(403);
      expect((await rejectionOf(markInvoicePaid(t.db, admin, id + 99))).status).toBe(404);
      expect(await snapshot(t.db)).toEqual(before);

      await markInvoicePaid(t.db, admin, id);
      const event = await onlyEvent();
      expect(event).toMatchObject({
        entity: "invoice",
        entityId: String(id),
        action: "payment-recorded",
        before: { paidCents: 0, balanceCents: 100_000 },
        after: { status: "paid", balanceCents: 0, method: "other" },
      });
      const [{ status }] = (await t.db.select({ status: invoice.status }).from(invoice).where(eq(invoice.id, id))) as [{ status: string }];
      expect(status).toBe("paid");
      expect(await mails()).toHaveLength(1); // the client's receipt
      expect(await markInvoicePaid(t.db, admin, id)).toMatchObject({ changed: false });
      expect(await events()).toHaveLength(1);
      expect(await mails()).toHaveLength(1);
      // A paid invoice cannot be edited: refused, nothing recorded.
      expect((await rejectionOf(updateInvoice(t.db, admin, id, { ...ITEMS, dueDate: "2031-03-01" }))).status).toBe(409);
      expect(await events()).toHaveLength(1);
    });

    it("delete: one event with the invoice as it was; refusals record nothing", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const proposalId = await insertProposal(t.db, { clientId: client.id });
      const { id, number } = await generateInvoice(t.db, admin, proposalId, ITEMS, undefined, { cardPayments: true });
      await t.db.delete(auditEvent);
      await t.db.delete(mailOutbox);
      const before = await snapshot(t.db);
      expect((await rejectionOf(deleteInvoice(t.db, client, id))).status).toBe(403);
      expect(await snapshot(t.db)).toEqual(before);
      await deleteInvoice(t.db, admin, id);
      expect(await onlyEvent()).toMatchObject({
        entity: "invoice",
        entityId: String(id),
        action: "deleted",
        before: { number, proposalId, clientId: client.id, status: "unpaid", totalCents: 100_000, dueDate: "2031-02-01" },
        after: null,
      });
      expect(await mails()).toEqual([]);
    });

    it("a refused generation (another invoice since the page was shown) records and queues nothing", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const proposalId = await insertProposal(t.db, { clientId: client.id });
      await generateInvoice(t.db, admin, proposalId, ITEMS, undefined, { cardPayments: true });
      const before = await snapshot(t.db);
      // The page showed no invoice; one was generated since (a double submit, another admin): 409 (#37).
      expect(
        (await rejectionOf(generateInvoice(t.db, admin, proposalId, ITEMS, new Date(), { cardPayments: true, knownInvoices: 0 }))).status,
      ).toBe(409);
      expect((await rejectionOf(generateInvoice(t.db, client, proposalId, ITEMS, undefined, { cardPayments: true }))).status).toBe(403);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe("users", () => {
    it("deactivate and reactivate: one event each with active before/after; repeating is a no-op", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      await setUserActive(t.db, admin, client.id, false);
      expect(await onlyEvent()).toMatchObject({
        entity: "user",
        entityId: client.id,
        action: "deactivated",
        before: { active: true },
        after: { active: false },
      });
      expect(await setUserActive(t.db, admin, client.id, false)).toEqual({ changed: false, email: client.email });
      await setUserActive(t.db, admin, client.id, true);
      const all = await events();
      expect(all).toHaveLength(2);
      expect(all[1]).toMatchObject({ action: "reactivated", before: { active: false }, after: { active: true } });
      expect(await mails()).toEqual([]);
    });

    it("delete: one event with the user and what went with them; refusals record nothing", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s, { email: "gone@example.com" });
      await insertProposal(t.db, { clientId: client.id });
      const other = await makeClient(s);
      const before = await snapshot(t.db);
      expect((await rejectionOf(deleteUser(t.db, other, client.id))).status).toBe(403);
      expect((await rejectionOf(deleteUser(t.db, admin, admin.id))).status).toBe(404);
      expect((await rejectionOf(setUserActive(t.db, other, client.id, false))).status).toBe(403);
      expect(await snapshot(t.db)).toEqual(before);
      await deleteUser(t.db, admin, client.id);
      expect(await onlyEvent()).toMatchObject({
        entity: "user",
        entityId: client.id,
        action: "deleted",
        before: { email: "gone@example.com", role: "client", proposals: 1, invoices: 0, meetings: 0 },
        after: null,
      });
    });
  });

  describe("payouts", () => {
    it("create payout: one event with the amount, and a statement to the ambassador (essential) with /ambassador/earnings", async () => {
      const { t, admin } = ctx;
      await t.db.insert(settings).values({ id: 1, commissionHoldDays: 0 });
      const { ambassador, client, id } = await approvedAmbassadorProposal();
      await optOut(ambassador.id); // a statement is sent anyway
      const invoiceId = await insertInvoice(t.db, id, 200_000, client.id);
      await recordTestPayment(t.db, { invoiceId, amountCents: 200_000 });
      const before = await snapshot(t.db);
      expect((await rejectionOf(createPayout(t.db, ambassador, ambassador.id, PAYOUT))).status).toBe(403);
      expect(await snapshot(t.db)).toEqual(before);
      const statusEvents = (await events()).length; // the approved proposal moved to "In progress" when paid (#37)
      const { payoutId } = await createPayout(t.db, admin, ambassador.id, PAYOUT);
      const [event, ...others] = (await events()).slice(statusEvents);
      expect(others).toEqual([]);
      expect(event).toMatchObject({
        entity: "payout",
        entityId: String(payoutId),
        action: "created",
        after: { ambassadorId: ambassador.id, totalCents: 30_000, entries: 1, reference: "SEPA-42", method: "bank_transfer" },
      });
      const [mail, ...rest] = await mails();
      expect(rest).toEqual([]);
      expect(mail).toMatchObject({ to: ambassador.email, subject: "Commission payout: $300.00 — Client Portal" });
      expect(mail!.text).toContain(`${ORIGIN_TOKEN}/ambassador/earnings`);
      expect(mail!.text).toContain("SEPA-42");
      // Nothing payable any more: refused, nothing recorded or queued.
      expect((await rejectionOf(createPayout(t.db, admin, ambassador.id, PAYOUT))).status).toBe(409);
      expect(await events()).toHaveLength(statusEvents + 1);
      expect(await mails()).toHaveLength(1);
    });
  });

  describe("settings", () => {
    it("records one event with only the changed fields; saving the same values records nothing; refusals nothing", async () => {
      const { t, s, admin } = ctx;
      await saveSettings(t.db, admin, SETTINGS, { cardPayments: false });
      expect(await onlyEvent()).toMatchObject({
        entity: "settings",
        entityId: "1",
        action: "updated",
        before: { companyName: "", supportEmail: "" },
        after: { companyName: "Acme Studio", supportEmail: "help@acme.example" },
      });
      await saveSettings(t.db, admin, SETTINGS, { cardPayments: false });
      expect(await events()).toHaveLength(1);
      await saveSettings(t.db, admin, { ...SETTINGS, commissionRateBps: 2000, allowNewClients: false }, { cardPayments: false });
      const all = await events();
      expect(all).toHaveLength(2);
      expect(all[1]!.before).toEqual({ commissionRateBps: 1500, allowNewClients: true });
      expect(all[1]!.after).toEqual({ commissionRateBps: 2000, allowNewClients: false });
      const client = await makeClient(s).catch(() => null); // registration closed now
      expect(client).toBeNull();
      const before = await snapshot(t.db);
      const ambassador = await makeAmbassador(s);
      const afterSignup = await snapshot(t.db);
      expect(
        (await rejectionOf(saveSettings(t.db, ambassador, { ...SETTINGS, companyName: "Hacked" }, { cardPayments: false }))).status,
      ).toBe(403);
      expect(
        (await rejectionOf(saveSettings(t.db, admin, { ...SETTINGS, commissionRateBps: 10_001 }, { cardPayments: false }))).status,
      ).toBe(400);
      expect(await snapshot(t.db)).toEqual(afterSignup);
      expect(before).not.toEqual(afterSignup);
      expect(await mails()).toEqual([]);
    });
  });

  describe("meetings", () => {
    it("accept: one event, and a mail with the meeting's .ics whose link is resolved when sent", async () => {
      const { t, s, admin } = ctx;
      await saveSettings(t.db, admin, SETTINGS, { cardPayments: false });
      await t.db.delete(auditEvent);
      const client = await makeClient(s);
      const id = await insertMeeting(t.db, {
        userId: client.id,
        startsAt: new Date("2031-05-11T13:30:00Z"),
        timeZone: "America/New_York",
        notes: "Kick-off",
      });
      await acceptMeeting(t.db, admin, id);
      expect(await onlyEvent()).toMatchObject({
        entity: "meeting",
        entityId: String(id),
        action: "accepted",
        before: { status: "pending" },
        after: { status: "accepted" },
      });
      const [mail, ...rest] = await mails();
      expect(rest).toEqual([]);
      expect(mail).toMatchObject({ to: client.email, subject: "Your meeting is confirmed — Acme Studio" });
      // The meeting's time in words, in the zone it was booked in (13:30 UTC = 09:30 in New York, #41).
      expect(mail!.text).toContain("11 May 2031, 09:30 EDT");
      expect(mail!.attachments).toHaveLength(1);
      const attachment = mail!.attachments![0]!;
      expect(attachment.filename).toBe(`meeting-${id}.ics`);
      expect(attachment.contentType).toBe(MEETING_ICS_CONTENT_TYPE);

      // The worker resolves the origin token inside the attachment too (even across a fold).
      const sent: Parameters<MailSender>[0][] = [];
      await deliverDueMails({
        db: t.db,
        send: async (m) => void sent.push(m),
        from: "portal@acme.example",
        origin: "https://portal.example.com",
        adminEmail: "owner@acme.example",
      });
      // (The client's verification mail from registration is sent in the same pass.)
      const ics = sent.find((m) => m.to === client.email && m.attachments?.length)!.attachments![0]!.content;
      expect(ics).not.toContain(ORIGIN_TOKEN);
      expect(ics).not.toContain("origin-token.invalid");
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!);
      expect(event.startDate.toJSDate().toISOString()).toBe("2031-05-11T13:30:00.000Z");
      expect(event.uid).toBe(`meeting-${id}@client-portal`);
      expect(String(event.component.getFirstPropertyValue("url"))).toBe("https://portal.example.com/client-dashboard");
      expect(event.description).toContain("https://portal.example.com/client-dashboard");
      for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    });

    it("accepting an accepted meeting, a refusal or an unknown id records and queues nothing; opted-out clients get no mail", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const id = await insertMeeting(t.db, { userId: client.id, status: "accepted" });
      const pending = await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() + 86_400_000) });
      const before = await snapshot(t.db);
      expect(await acceptMeeting(t.db, admin, id)).toEqual({ changed: false });
      expect((await rejectionOf(acceptMeeting(t.db, client, pending))).status).toBe(403);
      expect((await rejectionOf(acceptMeeting(t.db, admin, pending + 99))).status).toBe(404);
      expect((await rejectionOf(deleteMeeting(t.db, client, pending))).status).toBe(403);
      expect(await snapshot(t.db)).toEqual(before);
      await optOut(client.id);
      await acceptMeeting(t.db, admin, pending);
      expect(await events()).toHaveLength(1);
      expect(await mails()).toEqual([]);
    });

    it("delete: one event with the meeting as it was", async () => {
      const { t, s, admin } = ctx;
      const client = await makeClient(s);
      const id = await insertMeeting(t.db, { userId: client.id, notes: "Call me" });
      await deleteMeeting(t.db, admin, id);
      expect(await onlyEvent()).toMatchObject({
        entity: "meeting",
        entityId: String(id),
        action: "deleted",
        before: {
          userId: client.id,
          startsAt: "2026-03-03T19:00:00.000Z",
          timeZone: "America/New_York",
          notes: "Call me",
          status: "pending",
        },
        after: null,
      });
    });
  });

  it("lists events newest first, filtered by entity, paginated; only for admins", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, status: "pending" });
    await setProposalStatus(t.db, admin, id, "planning");
    await saveSettings(t.db, admin, SETTINGS, { cardPayments: false });
    await setProposalStatus(t.db, admin, id, "review");
    const all = await listAuditEvents(t.db, admin, {});
    expect(all.events.map((e) => e.entity)).toEqual(["proposal", "settings", "proposal"]);
    const proposals = await listAuditEvents(t.db, admin, { entity: "proposal", limit: 1 });
    expect(proposals.total).toBe(2);
    expect(proposals.events[0]!.after).toEqual({ status: "review" });
    const older = await listAuditEvents(t.db, admin, { entity: "proposal", limit: 1, before: proposals.nextBefore! });
    expect(older.events[0]!.after).toEqual({ status: "planning" });
    expect(older.nextBefore).toBeNull();
    expect((await rejectionOf(listAuditEvents(t.db, client, {}))).status).toBe(403);
    // The proposal row still exists and holds the last status.
    const [row] = await t.db.select({ status: proposal.status }).from(proposal).where(eq(proposal.id, id));
    expect(row!.status).toBe("review");
  });
});
