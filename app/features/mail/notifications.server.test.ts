import { eq, notLike } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, user } from "#app/db/schema";
import { freeSlots } from "#app/features/meetings/availability.server";
import { bookMeeting } from "#app/features/meetings/booking.server";
import {
  approveProposal,
  declineProposal,
  requestProposal,
  submitAmbassadorProposal,
  submitRevision,
} from "#app/features/proposals/proposals.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { EMPTY_PROPOSAL_REQUEST } from "../../../tests/helpers/portal";
import { ADMIN_RECIPIENT, ORIGIN_TOKEN } from "./notifications.server";

const EMPTY_REQUEST = EMPTY_PROPOSAL_REQUEST;

/** Notifications caused by client and ambassador actions, queued in the same transaction. */
describe.each(testDatabases())("portal notifications on %s", (_name, open) => {
  const ctx = useTestServices(open);

  // Registration's verification mails are checked in app/features/users/email-verification.server.test.ts.
  const outbox = () =>
    ctx.t.db.select().from(mailOutbox).where(notLike(mailOutbox.subject, "Verify your e-mail address%")).orderBy(mailOutbox.id);

  it("tells the admin about a new proposal request, meeting request, revision, approval and decline", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s, { verified: true });
    await requestProposal(t.db, client, { ...EMPTY_REQUEST, projectName: "Bakery", projectDetails: "Online orders" });
    const now = new Date("2031-05-09T00:00:00Z");
    // The first free slot with the default hours (Mon–Fri 09:00–17:00 UTC, 24 h notice): Monday 12 May 09:00 UTC.
    const [slot] = (await freeSlots(t.db, {}, now)).slots;
    expect(slot!.toISOString()).toBe("2031-05-12T09:00:00.000Z");
    await bookMeeting(t.db, client, { slot: slot!.toISOString(), timeZone: "America/New_York", notes: "Kick-off", proposalId: null }, now);
    const inReview = await insertProposal(t.db, { clientId: client.id, status: "review", projectName: "Shop" });
    await submitRevision(t.db, client, inReview, "Bigger logo please");
    const ambassador = await makeAmbassador(s);
    const toApprove = await insertProposal(t.db, {
      clientId: client.id,
      source: "ambassador",
      status: "submitted",
      ambassadorId: ambassador.id,
      projectName: "Cafe",
    });
    const toDecline = await insertProposal(t.db, {
      clientId: client.id,
      source: "ambassador",
      status: "submitted",
      ambassadorId: ambassador.id,
      projectName: "Gym",
    });
    await approveProposal(t.db, client, toApprove);
    await approveProposal(t.db, client, toApprove); // no change, no second mail
    await declineProposal(t.db, client, toDecline, "Too expensive");

    const mails = await outbox();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [ADMIN_RECIPIENT, "New proposal request — Client Portal"],
      [ADMIN_RECIPIENT, "New meeting request — Client Portal"],
      [ADMIN_RECIPIENT, "Revision requested: Shop — Client Portal"],
      [ADMIN_RECIPIENT, "Proposal approved: Cafe — Client Portal"],
      [ADMIN_RECIPIENT, "Proposal declined: Gym — Client Portal"],
    ]);
    expect(mails[1]!.text).toContain("asked for a meeting on 12 May 2031, 09:00 UTC (12 May 2031, 05:00 EDT for them).");
    expect(mails[2]!.text).toContain("Bigger logo please");
    expect(mails[4]!.text).toContain("Too expensive");
    for (const mail of mails) {
      expect(mail.text).toContain(`${ORIGIN_TOKEN}/admin`);
      expect(mail.html).toContain(`href="${ORIGIN_TOKEN}/admin`);
    }
  });

  it("tells the person an ambassador proposal is addressed to: a registration link without an account, the proposal's page with one", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "sunny" });
    await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "New Person",
      clientEmail: "new@example.com",
      projectName: "Yoga site",
      projectDetails: "Classes",
      budget: null,
    });
    const client = await makeClient(s, { email: "known@example.com", referralCode: "sunny" });
    await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Known",
      clientEmail: "known@example.com",
      projectName: null,
      projectDetails: "Shop",
      budget: null,
    });
    await t.db.update(user).set({ notifyUpdates: false }).where(eq(user.id, client.id));
    await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Known",
      clientEmail: "known@example.com",
      projectName: null,
      projectDetails: "Second",
      budget: null,
    });

    const mails = await outbox();
    expect(mails.map((m) => m.to)).toEqual(["new@example.com", "known@example.com"]);
    expect(mails[0]!.text).toContain(`${ORIGIN_TOKEN}/register?ref=sunny`);
    expect(mails[0]!.text).toContain("Ann Bassador, one of our ambassadors, prepared a website proposal for this e-mail address.");
    expect(mails[0]!.text).not.toContain("Yoga site");
    expect(mails[0]!.text).not.toContain("New Person");
    expect(mails[0]!.text).not.toContain("Classes");
    // The referred client's mail links to the proposal's page, where they accept and sign (issue #26).
    expect(mails[1]!.text).toMatch(new RegExp(`\\{\\{origin\\}\\}/proposals/\\d+`));
  });

  it("queues nothing when the action is refused", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const pending = await insertProposal(t.db, { clientId: other.id, status: "review" });
    await refusalOf(submitRevision(t.db, client, pending, "Not mine"));
    await refusalOf(bookMeeting(t.db, client, { slot: "2001-01-01T10:00:00Z", timeZone: "UTC", notes: null, proposalId: null }));
    expect(await outbox()).toEqual([]);
  });
});
