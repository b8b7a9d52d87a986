import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { meeting } from "#app/db/schema";
import { formatDateTime, INVALID_DATE } from "#app/lib/dates";
import { pageRequestFrom } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { insertMeeting, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import {
  acceptMeeting,
  countMeetings,
  declineMeeting,
  deleteMeeting,
  listMeetingRequests,
  listPendingMeetingRequests,
  listUpcomingMeetingFirstPages,
  listUpcomingMeetings,
} from "./meetings.admin.server";

describe.each(testDatabases())("admin meetings on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("lists requests newest first with the client, paginated", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s, { businessName: "Blue Cafe", email: "cafe@example.com" });
    const ids: number[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(await insertMeeting(t.db, { userId: client.id, createdAt: new Date(Date.UTC(2026, 0, 1 + i)), notes: `n${i}` }));
    const page1 = await listMeetingRequests(t.db, admin, { size: 5 });
    expect(page1.total).toBe(7);
    expect(page1.items.map((m) => m.id)).toEqual(ids.slice(2).reverse());
    expect(page1.items[0]).toMatchObject({
      clientName: "Blue Cafe",
      clientEmail: "cafe@example.com",
      status: "pending",
      timeZone: "America/New_York",
      startsAt: "2026-03-03T19:00:00.000Z",
    });
    const page2 = await listMeetingRequests(t.db, admin, pageRequestFrom(new URLSearchParams({ after: page1.next! }), { size: 5 }));
    expect(page2.items.map((m) => m.id)).toEqual(ids.slice(0, 2).reverse());
    expect(page2.next).toBeNull();
  });

  it('returns a date that cannot be shown as null, which formats as "Invalid Date"', async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const id = await insertMeeting(t.db, { userId: client.id });
    await t.db.execute(sql`update ${meeting} set starts_at = 'infinity' where id = ${id}`);
    const bad = await insertMeeting(t.db, { userId: client.id, timeZone: "Mars/Olympus_Mons" });
    const { items } = await listMeetingRequests(t.db, admin, { size: 25 });
    const infinite = items.find((m) => m.id === id)!;
    expect(infinite.startsAt).toBeNull();
    expect(formatDateTime(infinite.startsAt, infinite.timeZone)).toBe(INVALID_DATE);
    // An unknown time zone still shows the instant (in UTC) rather than failing.
    const zoned = items.find((m) => m.id === bad)!;
    expect(formatDateTime(zoned.startsAt, zoned.timeZone)).toBe("Mar 3, 2026, 7:00 PM UTC");
  });

  it("accepts and deletes a meeting; unknown ids are 404", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const ahead = new Date(Date.now() + 7 * 86_400_000);
    const id = await insertMeeting(t.db, { userId: client.id, startsAt: ahead });
    const other = await insertMeeting(t.db, { userId: client.id, startsAt: ahead });
    await acceptMeeting(t.db, admin, id);
    const [row] = await t.db.select({ status: meeting.status }).from(meeting).where(eq(meeting.id, id));
    expect(row!.status).toBe("accepted");
    expect(await countMeetings(t.db, admin)).toEqual({ total: 2, pending: 1 });
    await deleteMeeting(t.db, admin, id);
    expect(await t.db.select().from(meeting).where(eq(meeting.id, id))).toHaveLength(0);
    expect(await t.db.select().from(meeting).where(eq(meeting.id, other))).toHaveLength(1);
    expect((await rejectionOf(deleteMeeting(t.db, admin, id))).status).toBe(404);
    expect((await rejectionOf(acceptMeeting(t.db, admin, id))).status).toBe(404);
  });

  it("answers only pending requests for a time still ahead: past or declined ones are refused (409), Decline is audited", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const past = await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() - 3_600_000) });
    const ahead = await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() + 86_400_000) });
    expect((await rejectionOf(acceptMeeting(t.db, admin, past))).status).toBe(409);
    expect((await rejectionOf(declineMeeting(t.db, admin, past))).status).toBe(409);
    expect(await declineMeeting(t.db, admin, ahead)).toEqual({ changed: true });
    expect(await declineMeeting(t.db, admin, ahead)).toEqual({ changed: false });
    expect((await rejectionOf(acceptMeeting(t.db, admin, ahead))).status).toBe(409);
    const pending = await listPendingMeetingRequests(t.db, admin);
    expect(pending.items.map((m) => m.id)).not.toContain(ahead);
  });

  it("lists upcoming requests soonest first, a page at a time, with how many there are in all", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const day = 86_400_000;
    const ids: number[] = [];
    for (const days of [30, 10, 20])
      ids.push(await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() + days * day) }));
    const all = await listUpcomingMeetings(t.db, admin, "pending");
    const mine = all.items.filter((m) => ids.includes(m.id)).map((m) => m.id);
    expect(mine).toEqual([ids[1], ids[2], ids[0]]);
    const two = await listUpcomingMeetings(t.db, admin, "pending", { pageSize: 2 });
    expect(two).toMatchObject({ page: 1, pageSize: 2, total: all.total, pageCount: Math.ceil(all.total / 2) });
    expect(two.items.map((m) => m.id)).toEqual(all.items.slice(0, 2).map((m) => m.id));
    const second = await listUpcomingMeetings(t.db, admin, "pending", { page: 2, pageSize: 2 });
    expect(second.items.map((m) => m.id)).toEqual(all.items.slice(2, 4).map((m) => m.id));
    // A page past the end serves the last one.
    const beyond = await listUpcomingMeetings(t.db, admin, "pending", { page: 1_000, pageSize: 2 });
    expect(beyond.page).toBe(two.pageCount);
    expect(beyond.items.map((m) => m.id)).toEqual(all.items.slice((two.pageCount - 1) * 2).map((m) => m.id));
    expect(beyond.total).toBe(all.total);
  });

  it("reads the dashboard's first pages of both upcoming lists in one statement, as the lists give them", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const day = 86_400_000;
    const pendingIds: number[] = [];
    for (const days of [30, 10, 20])
      pendingIds.push(await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() + days * day) }));
    const acceptedIds: number[] = [];
    for (const days of [5, 15])
      acceptedIds.push(await insertMeeting(t.db, { userId: client.id, status: "accepted", startsAt: new Date(Date.now() + days * day) }));
    const both = await listUpcomingMeetingFirstPages(t.db, admin, 2);
    expect(both.pending).toEqual(await listUpcomingMeetings(t.db, admin, "pending", { pageSize: 2 }));
    expect(both.accepted).toEqual(await listUpcomingMeetings(t.db, admin, "accepted", { pageSize: 2 }));
    expect(both.pending.items.every((m) => m.status === "pending")).toBe(true);
    expect(both.accepted.items.map((m) => m.id)).toEqual([acceptedIds[0], acceptedIds[1]]);
    expect(both.pending.total).toBeGreaterThanOrEqual(3);
  });

  it("refuses clients and ambassadors without writing", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    const id = await insertMeeting(t.db, { userId: client.id });
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(listMeetingRequests(t.db, actor, { size: 25 }))).status).toBe(403);
      expect((await rejectionOf(acceptMeeting(t.db, actor, id))).status).toBe(403);
      expect((await rejectionOf(deleteMeeting(t.db, actor, id))).status).toBe(403);
      expect((await rejectionOf(countMeetings(t.db, actor))).status).toBe(403);
      expect((await rejectionOf(listUpcomingMeetingFirstPages(t.db, actor, 10))).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
