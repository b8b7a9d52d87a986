import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { account, commissionEntries, invoice, invoiceItem, meeting, proposal, session, user, verification } from "#app/db/schema";
import { testDatabases, type TestDb } from "../../../tests/helpers/db";
import { insertMeeting, insertProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { freshMeta, makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { recordTestPayment } from "../../../tests/helpers/payments";
import { generateInvoice } from "../invoices/invoices.admin.server";
import { requestPasswordReset, signIn } from "./accounts.server";
import { countUsers, deleteUser, getUserDeletionImpact, listUsersForAdmin, setUserActive } from "./users.server";

const first = { size: 25 };

/** Rows that point at a user or invoice that no longer exists (must always be zero). */
async function orphanCount(t: TestDb): Promise<number> {
  const result = await t.db.execute<{ n: number }>(sql`
    select (
      (select count(*) from ${proposal} p where (p.client_id is not null and not exists (select 1 from ${user} u where u.id = p.client_id))
                                      or (p.ambassador_id is not null and not exists (select 1 from ${user} u where u.id = p.ambassador_id)))
    + (select count(*) from ${invoice} i where not exists (select 1 from ${proposal} p where p.id = i.proposal_id)
                                      or (i.client_id is not null and not exists (select 1 from ${user} u where u.id = i.client_id)))
    + (select count(*) from ${invoiceItem} ii where not exists (select 1 from ${invoice} i where i.id = ii.invoice_id))
    + (select count(*) from ${meeting} m where not exists (select 1 from ${user} u where u.id = m.user_id))
    + (select count(*) from ${session} s where not exists (select 1 from ${user} u where u.id = s.user_id))
    + (select count(*) from ${account} a where not exists (select 1 from ${user} u where u.id = a.user_id))
    + (select count(*) from ${user} r where r.referred_by_id is not null and not exists (select 1 from ${user} u where u.id = r.referred_by_id))
    )::int as n`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
}

describe.each(testDatabases())("admin users on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("lists non-admin users only, newest first, with role, created, last login and active", async () => {
    const { t, s, admin } = ctx;
    await makeAdmin(s);
    const client = await makeClient(s, { businessName: "Blue Cafe" });
    const ambassador = await makeAmbassador(s);
    await setUserActive(t.db, admin, client.id, false);
    const page = await listUsersForAdmin(t.db, admin, {}, first);
    expect(page.total).toBe(2);
    expect(page.items.map((u) => u.id)).toEqual([ambassador.id, client.id]);
    expect(page.items.every((u) => u.role !== ("admin" as string))).toBe(true);
    expect(page.items[1]).toMatchObject({ role: "client", businessName: "Blue Cafe", active: false });
    expect(page.items[1]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.items[1]!.lastLoginAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await listUsersForAdmin(t.db, admin, { role: "ambassador" }, first)).toMatchObject({ total: 1, items: [{ id: ambassador.id }] });
    expect(await listUsersForAdmin(t.db, admin, { role: "client" }, first)).toMatchObject({ total: 1, items: [{ id: client.id }] });
    expect(await countUsers(t.db, admin)).toEqual({ total: 2, clients: 1, ambassadors: 1, inactive: 1 });
  });

  it("searches e-mail or business name case-insensitively and never returns admins", async () => {
    const { t, s, admin } = ctx;
    const a = await makeClient(s, { email: "Hello@Sunrise-Bakery.com", businessName: "Sunrise Bakery" });
    const b = await makeClient(s, { email: "owner@moonlight.example", businessName: "Moonlight Diner" });
    await t.db.update(user).set({ businessName: "Sunrise Admin Team" }).where(eq(user.id, admin.id));
    const ids = async (q: string) => (await listUsersForAdmin(t.db, admin, { q }, first)).items.map((u) => u.id).sort();
    expect(await ids("SUNRISE")).toEqual([a.id]); // the admin's business name matches too, but admins are excluded
    expect(await ids("sunrise-BAKERY.COM")).toEqual([a.id]);
    expect(await ids("moonLIGHT diner")).toEqual([b.id]);
    expect(await ids("admin-")).toEqual([]); // the admin's e-mail
    expect(await ids("_")).toEqual([]); // LIKE wildcard taken literally
    expect((await listUsersForAdmin(t.db, admin, { q: "example" }, first)).total).toBe(1);
  });

  it("deactivation ends the user's sessions and refuses sign-in; reactivation lets them back", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s, { email: "toggle@example.com" });
    expect((await t.db.select({ n: count() }).from(session).where(eq(session.userId, client.id)))[0]!.n).toBeGreaterThan(0);
    // The e-mail address comes back for the admin's message ("toggle@example.com is deactivated …").
    expect(await setUserActive(t.db, admin, client.id, false)).toEqual({ changed: true, email: "toggle@example.com" });
    expect(await t.db.select().from(session).where(eq(session.userId, client.id))).toHaveLength(0);
    expect((await rejectionOf(signIn(s, { email: "toggle@example.com", password: "secret-pass" }, freshMeta()))).status).toBe(403);
    expect(await setUserActive(t.db, admin, client.id, false)).toEqual({ changed: false, email: "toggle@example.com" });
    await setUserActive(t.db, admin, client.id, true);
    expect((await signIn(s, { email: "toggle@example.com", password: "secret-pass" }, freshMeta())).userId).toBe(client.id);
  });

  it("deletes a client with their proposals, invoices, items, meetings, sessions and tokens, leaving no orphans", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "amb-one" });
    const client = await makeClient(s, { email: "leaving@example.com", referralCode: "amb-one" });
    const other = await makeClient(s);
    const own = await insertProposal(t.db, { clientId: client.id });
    const viaAmbassador = await insertProposal(t.db, { clientId: client.id, ambassadorId: ambassador.id, clientApprovedAt: new Date() });
    const othersProposal = await insertProposal(t.db, { clientId: other.id });
    await generateInvoice(
      t.db,
      admin,
      own,
      {
        dueDate: "2026-04-01",
        items: [
          { description: "a", amountCents: 100 },
          { description: "b", amountCents: 200 },
        ],
      },
      undefined,
      { cardPayments: true },
    );
    await generateInvoice(
      t.db,
      admin,
      viaAmbassador,
      { dueDate: "2026-04-01", items: [{ description: "c", amountCents: 300 }] },
      undefined,
      { cardPayments: true },
    );
    const othersInvoice = await generateInvoice(
      t.db,
      admin,
      othersProposal,
      {
        dueDate: "2026-04-01",
        items: [{ description: "d", amountCents: 400 }],
      },
      undefined,
      { cardPayments: true },
    );
    await insertMeeting(t.db, { userId: client.id });
    await insertMeeting(t.db, { userId: other.id });
    await requestPasswordReset(s, "leaving@example.com", freshMeta());
    expect((await t.db.select({ n: count() }).from(verification).where(eq(verification.value, client.id)))[0]!.n).toBe(1);

    expect(await getUserDeletionImpact(t.db, admin, client.id)).toEqual({
      id: client.id,
      email: "leaving@example.com",
      role: "client",
      proposals: 2,
      invoices: 2,
      meetings: 1,
      ambassadorProposals: 0,
      referredClients: 0,
    });
    await deleteUser(t.db, admin, client.id);

    expect(await t.db.select().from(user).where(eq(user.id, client.id))).toHaveLength(0);
    for (const table of [session, account]) expect(await t.db.select().from(table).where(eq(table.userId, client.id))).toHaveLength(0);
    expect(await t.db.select().from(verification).where(eq(verification.value, client.id))).toHaveLength(0);
    expect(await t.db.select({ id: proposal.id }).from(proposal)).toEqual([{ id: othersProposal }]);
    expect((await t.db.select({ id: invoice.id }).from(invoice)).map((r) => r.id)).toEqual([othersInvoice.id]);
    expect(await t.db.select({ d: invoiceItem.description }).from(invoiceItem)).toEqual([{ d: "d" }]);
    expect(await t.db.select({ u: meeting.userId }).from(meeting)).toEqual([{ u: other.id }]);
    expect(await orphanCount(t)).toBe(0);
    // The ambassador and the other client are untouched.
    expect(await t.db.select({ id: user.id }).from(user).where(eq(user.id, ambassador.id))).toHaveLength(1);
  });

  it("deletes an ambassador: their proposals for others and their referred clients stay, unlinked", async () => {
    const { t, s, admin } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "amb-two" });
    const referred = await makeClient(s, { referralCode: "amb-two" });
    const forReferred = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientId: referred.id,
      clientApprovedAt: new Date(),
      commissionRateBps: 1500,
    });
    const addressed = await insertProposal(t.db, { ambassadorId: ambassador.id, clientName: "Not yet", clientEmail: "notyet@example.com" });
    const { id: invoiceId } = await generateInvoice(
      t.db,
      admin,
      forReferred,
      {
        dueDate: "2026-04-01",
        items: [{ description: "x", amountCents: 10_000 }],
      },
      undefined,
      { cardPayments: true },
    );
    await recordTestPayment(t.db, { invoiceId, amountCents: 10_000 });
    expect(await t.db.select().from(commissionEntries)).toHaveLength(1);

    expect(await getUserDeletionImpact(t.db, admin, ambassador.id)).toMatchObject({
      role: "ambassador",
      proposals: 0,
      invoices: 0,
      ambassadorProposals: 2,
      referredClients: 1,
    });
    const impact = await deleteUser(t.db, admin, ambassador.id);
    expect(impact.ambassadorProposals).toBe(2);

    const rows = await t.db
      .select({ id: proposal.id, ambassadorId: proposal.ambassadorId, source: proposal.source, rate: proposal.commissionRateBps })
      .from(proposal)
      .orderBy(proposal.id);
    expect(rows).toEqual([
      { id: forReferred, ambassadorId: null, source: "ambassador", rate: 1500 },
      { id: addressed, ambassadorId: null, source: "ambassador", rate: null },
    ]);
    // Their commission ledger goes with their account (there is no one left to pay).
    expect(await t.db.select().from(commissionEntries)).toEqual([]);
    const [client] = await t.db.select({ referredById: user.referredById }).from(user).where(eq(user.id, referred.id));
    expect(client!.referredById).toBeNull();
    expect(await t.db.select().from(invoice)).toHaveLength(1);
    expect(await orphanCount(t)).toBe(0);
  });

  it("refuses to delete or deactivate an admin or an unknown user", async () => {
    const { t, s, admin } = ctx;
    const other = await makeAdmin(s);
    const before = await snapshot(t.db);
    for (const id of [other.id, admin.id, "no-such-user"]) {
      expect((await rejectionOf(deleteUser(t.db, admin, id))).status).toBe(404);
      expect((await rejectionOf(getUserDeletionImpact(t.db, admin, id))).status).toBe(404);
      expect((await rejectionOf(setUserActive(t.db, admin, id, false))).status).toBe(404);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("refuses clients and ambassadors without reading or writing", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    const victim = await makeClient(s);
    await insertProposal(t.db, { clientId: victim.id });
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(listUsersForAdmin(t.db, actor, {}, first))).status).toBe(403);
      expect((await rejectionOf(countUsers(t.db, actor))).status).toBe(403);
      expect((await rejectionOf(getUserDeletionImpact(t.db, actor, victim.id))).status).toBe(403);
      expect((await rejectionOf(deleteUser(t.db, actor, victim.id))).status).toBe(403);
      expect((await rejectionOf(setUserActive(t.db, actor, victim.id, false))).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
