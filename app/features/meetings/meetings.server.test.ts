import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { meeting } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { parseForm, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { meetingSchema } from "./meetings.schema";
import { MEETING_MESSAGES } from "./meetings.messages";
import { deleteMeeting, listClientMeetings, scheduleMeeting } from "./meetings.server";

const NOW = new Date("2026-05-10T12:00:00Z");

describe("meeting schema", () => {
  it("requires date and time, defaults the zone to UTC and refuses an unknown zone", () => {
    expect(parseForm(meetingSchema, { notes: "hi" }).error).toEqual({ date: ["Date is required."], time: ["Time is required."] });
    expect(parseForm(meetingSchema, { date: "2026-06-01", time: "09:15" }).value).toEqual({
      date: "2026-06-01",
      time: "09:15",
      timeZone: "UTC",
      notes: null,
    });
    expect(parseForm(meetingSchema, { date: "2026-06-01", time: "09:15", timeZone: "Nowhere/City" }).error).toEqual({
      timeZone: ["Unknown time zone. Reload the page and try again."],
    });
    expect(parseForm(meetingSchema, { date: "2026-02-31", time: "9am" }).error).toEqual({
      date: ["Enter a real calendar date."],
      time: ["Enter the time as HH:MM."],
    });
  });
});

describe.each(testDatabases())("meetings on %s", (_name, open) => {
  const ctx = useTestServices(open);

  const meetingRow = async (id: number) => (await ctx.t.db.select().from(meeting).where(eq(meeting.id, id)))[0] ?? null;
  const input = (date: string, time: string, timeZone = "UTC", notes: string | null = null) => ({ date, time, timeZone, notes });

  it("stores the picked wall-clock time in the client's zone as a UTC instant, status pending", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const { id } = await scheduleMeeting(t.db, client, input("2026-05-11", "09:30", "America/New_York", "Kick-off"), NOW);
    const row = await meetingRow(id);
    expect(row).toMatchObject({ userId: client.id, timeZone: "America/New_York", notes: "Kick-off", status: "pending" });
    expect(row!.startsAt.toISOString()).toBe("2026-05-11T13:30:00.000Z");
  });

  it("refuses a date and time in the past (in the client's zone) with a clear message", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    // 07:59 in New York on 10 May is 11:59 UTC: one minute before NOW.
    expect(await refusalOf(scheduleMeeting(t.db, client, input("2026-05-10", "07:59", "America/New_York"), NOW))).toMatchObject({
      status: 400,
      fieldErrors: { date: [MEETING_MESSAGES.inPast] },
    });
    expect(await refusalOf(scheduleMeeting(t.db, client, input("2020-01-01", "10:00"), NOW))).toMatchObject({ status: 400 });
    // 08:01 in New York is 12:01 UTC: accepted.
    await scheduleMeeting(t.db, client, input("2026-05-10", "08:01", "America/New_York"), NOW);
    expect((await t.db.select({ n: count() }).from(meeting))[0]!.n).toBe(1);
  });

  it("refuses non-clients", async () => {
    const { t, s } = ctx;
    for (const actor of [await makeAmbassador(s), await makeAdmin(s)]) {
      expect((await refusalOf(scheduleMeeting(t.db, actor, input("2030-01-01", "10:00"), NOW))).status).toBe(403);
      expect((await refusalOf(listClientMeetings(t.db, actor))).status).toBe(403);
    }
    expect((await t.db.select({ n: count() }).from(meeting))[0]!.n).toBe(0);
  });

  it("lists only the client's own meetings, soonest first, with what may be deleted", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const later = await scheduleMeeting(t.db, client, input("2026-07-01", "10:00"), NOW);
    const sooner = await scheduleMeeting(t.db, client, input("2026-06-01", "10:00"), NOW);
    await scheduleMeeting(t.db, other, input("2026-06-15", "10:00"), NOW);
    await t.db.update(meeting).set({ status: "accepted" }).where(eq(meeting.id, later.id));
    const list = await listClientMeetings(t.db, client);
    expect(list.map((m) => [m.id, m.status, m.canDelete])).toEqual([
      [sooner.id, "pending", true],
      [later.id, "accepted", false],
    ]);
  });

  it("deletes the client's own pending meeting only; another client's is not found and stays", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const intruder = await makeClient(s);
    const mine = await scheduleMeeting(t.db, client, input("2026-06-01", "10:00"), NOW);
    const before = await meetingRow(mine.id);
    expect(await refusalOf(deleteMeeting(t.db, intruder, mine.id))).toMatchObject({ status: 404, message: MEETING_MESSAGES.notFound });
    expect(await refusalOf(deleteMeeting(t.db, client, 2_147_483_647))).toMatchObject({ status: 404 });
    expect(await meetingRow(mine.id)).toEqual(before);

    for (const status of ["accepted", "declined"] as const) {
      const decided = await scheduleMeeting(t.db, client, input("2026-06-02", "10:00"), NOW);
      await t.db.update(meeting).set({ status }).where(eq(meeting.id, decided.id));
      expect(await refusalOf(deleteMeeting(t.db, client, decided.id))).toMatchObject({
        status: 409,
        message: MEETING_MESSAGES.notDeletable,
      });
      expect(await meetingRow(decided.id)).not.toBeNull();
    }

    await deleteMeeting(t.db, client, mine.id);
    expect(await meetingRow(mine.id)).toBeNull();
  });
});
