import ICAL from "ical.js";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, mailOutbox, meeting, settings } from "#app/db/schema";
import { DEFAULT_WEEKLY_HOURS } from "#app/db/enums";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { BOOKING_MESSAGES } from "./meetings.messages";
import { busyRanges, freeSlots, saveAvailability } from "./availability.server";
import { openSlots } from "./slots";
import { bookMeeting, cancelMeeting, rescheduleMeeting } from "./booking.server";
import { listClientMeetings } from "./meetings.server";

/** Friday 2026-06-05 08:00 UTC. */
const NOW = new Date("2026-06-05T08:00:00Z");

const BERLIN = {
  timeZone: "Europe/Berlin",
  weeklyHours: DEFAULT_WEEKLY_HOURS,
  meetingMinutes: 30,
  meetingBufferMinutes: 15,
  minNoticeHours: 24,
  bookingHorizonDays: 60,
  changeCutoffHours: 12,
  datesOff: ["2026-06-09"],
};

/** The invite attached to an outbox row, parsed. */
function inviteOf(row: typeof mailOutbox.$inferSelect) {
  const attachment = row.attachments?.[0];
  if (!attachment) throw new Error("no invite attached");
  const component = new ICAL.Component(ICAL.parse(attachment.content));
  const event = new ICAL.Event(component.getFirstSubcomponent("vevent")!);
  return { method: component.getFirstPropertyValue("method"), event, contentType: attachment.contentType };
}

describe.each(testDatabases())("booking on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const book = (actor: Parameters<typeof bookMeeting>[1], slot: Date, extra: { proposalId?: number | null; timeZone?: string } = {}) =>
    bookMeeting(
      ctx.t.db,
      actor,
      { slot: slot.toISOString(), timeZone: extra.timeZone ?? "America/New_York", notes: null, proposalId: extra.proposalId ?? null },
      NOW,
    );
  const slots = async (now = NOW) => (await freeSlots(ctx.t.db, {}, now)).slots;
  const outbox = () =>
    ctx.t.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} not like 'Verify%'`)
      .orderBy(mailOutbox.id);

  it("offers only slots inside the weekly hours in the agency's zone, after the notice, never on a date off", async () => {
    const { t, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const all = await slots();
    // 24 h notice from Friday 08:00 UTC: the first slot is Monday 8 June 09:00 in Berlin (07:00 UTC).
    expect(all[0]!.toISOString()).toBe("2026-06-08T07:00:00.000Z");
    const berlin = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "short", hour: "2-digit", minute: "2-digit" });
    for (const slot of all) {
      const parts = berlin.formatToParts(slot);
      const time = `${parts.find((p) => p.type === "hour")!.value}:${parts.find((p) => p.type === "minute")!.value}`;
      expect(["Sat", "Sun"]).not.toContain(parts.find((p) => p.type === "weekday")!.value);
      expect(time >= "09:00" && time <= "16:30").toBe(true);
      expect(slot.getTime()).toBeGreaterThanOrEqual(NOW.getTime() + 24 * 3_600_000);
      expect(slot.getTime()).toBeLessThanOrEqual(NOW.getTime() + 60 * 86_400_000);
    }
    // 16 slots a day, none on Tuesday 9 June (a date off).
    expect(all.filter((s) => s.toISOString().startsWith("2026-06-08"))).toHaveLength(16);
    expect(all.filter((s) => s.toISOString().startsWith("2026-06-09"))).toHaveLength(0);
  });

  it("a booked slot and its buffer disappear for everyone; the same slot cannot be booked twice", async () => {
    const { t, s, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const [first, second] = [await makeClient(s), await makeClient(s)];
    const target = new Date("2026-06-08T08:00:00Z"); // 10:00 in Berlin
    const { id } = await book(first, target);
    const row = (await t.db.select().from(meeting).where(eq(meeting.id, id)))[0]!;
    expect(row).toMatchObject({ status: "pending", timeZone: "America/New_York", sequence: 0 });
    expect(row.endsAt.toISOString()).toBe("2026-06-08T08:30:00.000Z");
    expect(row.blockedUntil!.toISOString()).toBe("2026-06-08T08:45:00.000Z");

    const left = (await slots()).map((d) => d.toISOString()).filter((d) => d.startsWith("2026-06-08T0"));
    // 09:30 (ends 10:00, needs 15 min before 10:00) and 10:30 (starts inside the buffer) are gone too.
    expect(left).toEqual(["2026-06-08T07:00:00.000Z", "2026-06-08T09:00:00.000Z", "2026-06-08T09:30:00.000Z"]);
    expect(await refusalOf(book(second, target))).toMatchObject({ status: 409, fieldErrors: { slot: [BOOKING_MESSAGES.slotGone] } });
    expect(await refusalOf(book(second, new Date("2026-06-08T07:30:00Z")))).toMatchObject({ status: 409 });
    // Not on the grid, outside the hours, inside the notice: refused.
    for (const odd of ["2026-06-08T07:10:00Z", "2026-06-08T18:00:00Z", "2026-06-05T12:00:00Z", "2026-06-13T08:00:00Z"]) {
      expect(await refusalOf(book(second, new Date(odd)))).toMatchObject({ status: 409 });
    }
    expect(await t.db.$count(meeting)).toBe(1);
  });

  it("reads the held time as its union (issue #42): overlapping and touching meetings are one range; the free slots are those the meetings leave", async () => {
    const { t, s, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const client = await makeClient(s);
    const at = (time: string) => new Date(`2026-06-10T${time}:00Z`);
    const held: [string, string, string][] = [
      ["08:00", "08:30", "pending"],
      ["08:15", "09:00", "accepted"],
      ["09:00", "09:30", "pending"], // touches the one before
      ["11:00", "11:30", "accepted"],
      ["12:00", "13:00", "cancelled"], // holds no time
      ["14:00", "14:00", "pending"], // no length: still a point in time
    ];
    // Straight into the table (blocked_until null: outside the no-overlap constraint, as before availability existed).
    await t.db.insert(meeting).values(
      held.map(([start, end, status]) => ({
        userId: client.id,
        timeZone: "UTC",
        startsAt: at(start),
        endsAt: at(end),
        status: status as never,
      })),
    );
    const ranges = await busyRanges(t.db, at("00:00"), at("23:59"));
    expect(ranges.map((r) => [r.start.toISOString().slice(11, 16), r.end.toISOString().slice(11, 16)])).toEqual([
      ["08:00", "09:30"],
      ["11:00", "11:30"],
      ["14:00", "14:00"],
    ]);
    // The slots are those every meeting on its own leaves free (with the 15-minute buffer: 10:00 UTC is, 09:30 is not).
    const each = held.filter(([, , status]) => status !== "cancelled").map(([start, end]) => ({ start: at(start), end: at(end) }));
    const { availability, slots: free } = await freeSlots(t.db, {}, NOW);
    expect(free).toEqual(openSlots(availability, each, NOW));
    expect(free.some((slot) => slot.toISOString() === "2026-06-10T10:00:00.000Z")).toBe(true);
    expect(free.some((slot) => slot.toISOString() === "2026-06-10T09:30:00.000Z")).toBe(false);
  });

  it("two bookings of one slot at the same moment make one meeting and one clear refusal", async () => {
    const { t, s, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const clients = await Promise.all([makeClient(s), makeClient(s), makeClient(s)]);
    const target = new Date("2026-06-10T12:00:00Z");
    const results = await Promise.allSettled(clients.map((c) => book(c, target)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, message: BOOKING_MESSAGES.slotGone });
    }
    expect(await t.db.$count(meeting)).toBe(1);
  });

  it("the database itself refuses two pending or accepted meetings holding overlapping time", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const at = (iso: string) => new Date(iso);
    const insert = (start: string, end: string, blocked: string | null, status: "pending" | "declined" = "pending") =>
      t.db.insert(meeting).values({
        userId: client.id,
        startsAt: at(start),
        endsAt: at(end),
        blockedUntil: blocked ? at(blocked) : null,
        timeZone: "UTC",
        status,
      });
    await insert("2026-07-01T10:00:00Z", "2026-07-01T10:30:00Z", "2026-07-01T10:45:00Z");
    const violation = await insert("2026-07-01T10:30:00Z", "2026-07-01T11:00:00Z", "2026-07-01T11:00:00Z").catch((e: unknown) => e);
    let e: unknown = violation;
    while (e && (e as { code?: string }).code !== "23P01") e = (e as { cause?: unknown }).cause;
    expect((e as { code?: string }).code).toBe("23P01");
    // After the buffer, a declined one, or one from before availability existed: allowed.
    await insert("2026-07-01T10:45:00Z", "2026-07-01T11:15:00Z", "2026-07-01T11:15:00Z");
    await insert("2026-07-01T10:00:00Z", "2026-07-01T10:30:00Z", "2026-07-01T10:30:00Z", "declined");
    await insert("2026-07-01T10:00:00Z", "2026-07-01T10:30:00Z", null);
    // An insert naming no end gets the old one-hour length (migration 0016's trigger).
    await t.db.execute(sql`insert into meeting (user_id, starts_at, time_zone) values (${client.id}, '2030-01-01T10:00:00Z', 'UTC')`);
    const [legacy] = await t.db
      .select()
      .from(meeting)
      .where(eq(meeting.startsAt, at("2030-01-01T10:00:00Z")));
    expect(legacy!.endsAt.toISOString()).toBe("2030-01-01T11:00:00.000Z");
  });

  it("names a project only among the client's own; refuses other roles", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const mine = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery" });
    const theirs = await insertProposal(t.db, { clientId: other.id, projectName: "Gym" });
    const [a, b] = await slots();
    expect(await refusalOf(book(client, a!, { proposalId: theirs }))).toMatchObject({
      status: 400,
      fieldErrors: { proposalId: [BOOKING_MESSAGES.proposalUnknown] },
    });
    const { id } = await book(client, a!, { proposalId: mine });
    expect((await t.db.select().from(meeting).where(eq(meeting.id, id)))[0]!.proposalId).toBe(mine);
    for (const actor of [admin, await makeAmbassador(s)]) expect((await refusalOf(book(actor, b!))).status).toBe(403);
  });

  it("the client reschedules before the cutoff: same UID, higher SEQUENCE mailed to the agency; not after the cutoff", async () => {
    const { t, s, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const client = await makeClient(s);
    const { id } = await book(client, new Date("2026-06-10T08:00:00Z"));
    await rescheduleMeeting(t.db, client, id, { slot: "2026-06-10T12:00:00.000Z", timeZone: "Asia/Tokyo" }, NOW);
    const row = (await t.db.select().from(meeting).where(eq(meeting.id, id)))[0]!;
    expect(row).toMatchObject({ sequence: 1, status: "pending", timeZone: "Asia/Tokyo" });
    expect(row.startsAt.toISOString()).toBe("2026-06-10T12:00:00.000Z");
    const mails = await outbox();
    expect(mails.map((m) => m.subject)).toEqual(["New meeting request — Client Portal", "Meeting moved — Client Portal"]);
    const [first, moved] = [inviteOf(mails[0]!), inviteOf(mails[1]!)];
    expect(moved.event.uid).toBe(first.event.uid);
    expect(moved.event.sequence).toBeGreaterThan(first.event.sequence);
    expect(moved.event.startDate.toJSDate().toISOString()).toBe("2026-06-10T12:00:00.000Z");
    expect(moved.event.endDate.toJSDate().toISOString()).toBe("2026-06-10T12:30:00.000Z");
    // The old slot is free again.
    expect((await slots()).map((d) => d.toISOString())).toContain("2026-06-10T08:00:00.000Z");

    // 11 hours before the meeting (cutoff 12 h): the client is told to write to the agency.
    const late = new Date("2026-06-10T01:00:00Z");
    expect(await refusalOf(rescheduleMeeting(t.db, client, id, { slot: "2026-06-10T13:00:00.000Z", timeZone: "UTC" }, late))).toMatchObject(
      {
        status: 409,
        message: BOOKING_MESSAGES.pastCutoff,
      },
    );
    expect(await refusalOf(cancelMeeting(t.db, client, id, late))).toMatchObject({ status: 409, message: BOOKING_MESSAGES.pastCutoff });
    const listed = await listClientMeetings(t.db, client, late);
    expect(listed.upcoming.map((m) => [m.id, m.change])).toEqual([[id, "past-cutoff"]]);
    // The admin always can (the notice does not bind the admin either): the client gets the update.
    await rescheduleMeeting(t.db, admin, id, { slot: "2026-06-10T13:00:00.000Z", timeZone: "UTC" }, late);
    const toClient = (await outbox()).at(-1)!;
    expect(toClient).toMatchObject({ to: client.email, subject: "Your meeting was moved — Client Portal" });
    expect(inviteOf(toClient).event.sequence).toBe(2);
    expect((await t.db.select().from(meeting).where(eq(meeting.id, id)))[0]!.timeZone).toBe("Asia/Tokyo");
  });

  it("cancelling frees the slot and mails a METHOD:CANCEL invite with the same UID; only upcoming pending or accepted meetings change", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const intruder = await makeClient(s);
    const [slot] = await slots();
    const { id } = await book(client, slot!);
    expect(await refusalOf(cancelMeeting(t.db, intruder, id, NOW))).toMatchObject({ status: 404 });
    await cancelMeeting(t.db, client, id, NOW);
    expect((await t.db.select().from(meeting).where(eq(meeting.id, id)))[0]).toMatchObject({ status: "cancelled", sequence: 1 });
    const mail = (await outbox()).at(-1)!;
    expect(mail.subject).toBe("Meeting cancelled — Client Portal");
    const invite = inviteOf(mail);
    expect(invite.method).toBe("CANCEL");
    expect(invite.contentType).toContain("method=CANCEL");
    expect(invite.event.component.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(invite.event.uid).toBe(`meeting-${id}@client-portal`);
    expect((await slots())[0]).toEqual(slot);
    expect(await refusalOf(cancelMeeting(t.db, client, id, NOW))).toMatchObject({ status: 409, message: BOOKING_MESSAGES.notChangeable });
    expect(await refusalOf(cancelMeeting(t.db, admin, id, NOW))).toMatchObject({ status: 409 });
    const actions = await t.db.select({ action: auditEvent.action }).from(auditEvent).where(eq(auditEvent.entity, "meeting"));
    expect(actions.map((a) => a.action)).toEqual(["requested", "cancelled"]);
    // A past meeting is listed apart and cannot change.
    const past = await book(client, slot!);
    const after = new Date(slot!.getTime() + 3_600_000);
    const listed = await listClientMeetings(t.db, client, after);
    expect(listed.upcoming).toEqual([]);
    expect(listed.past.map((m) => [m.id, m.change])).toEqual([
      [past.id, "closed"],
      [id, "closed"],
    ]);
    expect(await refusalOf(cancelMeeting(t.db, admin, past.id, after))).toMatchObject({ status: 409 });
  });

  it("the admin's cancellation is mailed to the client even when updates are off", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const [slot] = await slots();
    const { id } = await book(client, slot!);
    await t.db.execute(sql`update "user" set notify_updates = false where id = ${client.id}`);
    await cancelMeeting(t.db, admin, id, NOW);
    const mail = (await outbox()).at(-1)!;
    expect(mail).toMatchObject({ to: client.email, subject: "Your meeting was cancelled — Client Portal" });
    expect(inviteOf(mail).method).toBe("CANCEL");
  });

  it("saves the availability with its audit event; refuses values outside the limits", async () => {
    const { t, s, admin } = ctx;
    await saveAvailability(t.db, admin, BERLIN);
    const [row] = await t.db.select().from(settings);
    expect(row).toMatchObject({ timeZone: "Europe/Berlin", meetingMinutes: 30, meetingBufferMinutes: 15, datesOff: ["2026-06-09"] });
    await saveAvailability(t.db, admin, BERLIN); // unchanged: no second event
    expect(await t.db.$count(auditEvent, eq(auditEvent.entity, "settings"))).toBe(1);
    expect(await refusalOf(saveAvailability(t.db, admin, { ...BERLIN, meetingMinutes: 10 }))).toMatchObject({
      status: 400,
      fieldErrors: { meetingMinutes: expect.any(Array) },
    });
    expect(await refusalOf(saveAvailability(t.db, admin, { ...BERLIN, timeZone: "Mars/Base" }))).toMatchObject({ status: 400 });
    const overlapping = {
      ...BERLIN.weeklyHours,
      mon: [
        { start: "09:00", end: "12:00" },
        { start: "11:00", end: "13:00" },
      ],
    };
    expect(await refusalOf(saveAvailability(t.db, admin, { ...BERLIN, weeklyHours: overlapping }))).toMatchObject({
      fieldErrors: { mon: expect.any(Array) },
    });
    expect((await refusalOf(saveAvailability(t.db, await makeClient(s), BERLIN))).status).toBe(403);
  });
  it("confirms a booking at once when Settings say so; the place goes into the invite (LOCATION, URL) and the mails (issue #41)", async () => {
    const { t, s, admin } = ctx;
    // Off (the default): the booking waits for the admin, the invite carries no place.
    await saveAvailability(t.db, admin, BERLIN);
    const client = await makeClient(s);
    const waiting = await book(client, new Date("2026-06-08T07:00:00Z"));
    expect(waiting.status).toBe("pending");
    expect(inviteOf((await outbox()).at(-1)!).event.location).toBeNull();

    // On, with a video link: accepted at once, both sides mailed the invite with the link.
    const link = "https://meet.example.com/agency-room";
    await saveAvailability(t.db, admin, { ...BERLIN, instantBooking: true, meetingLocation: `  ${link}  ` });
    expect((await t.db.select().from(settings))[0]).toMatchObject({ instantBooking: true, meetingLocation: link });
    const before = (await outbox()).length;
    const { id, status } = await book(client, new Date("2026-06-08T08:00:00Z"));
    expect(status).toBe("accepted");
    expect((await t.db.select({ status: meeting.status }).from(meeting).where(eq(meeting.id, id)))[0]!.status).toBe("accepted");
    const mails = (await outbox()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [expect.stringContaining("@"), "New meeting booked — Client Portal"],
      [client.email, "Your meeting is confirmed — Client Portal"],
    ]);
    for (const mail of mails) {
      expect(mail.text).toContain(`Join: ${link}`);
      const { event } = inviteOf(mail);
      expect(event.location).toBe(link);
      expect(String(event.component.getFirstPropertyValue("url"))).toBe(link);
      expect(event.description).toContain("/meetings");
    }
    const [audit] = await t.db
      .select({ after: auditEvent.after })
      .from(auditEvent)
      .where(sql`${auditEvent.entity} = 'meeting' and ${auditEvent.entityId} = ${String(id)}`);
    expect(audit!.after).toMatchObject({ status: "accepted" });

    // An address: LOCATION only, the URL stays the portal's; "Where:" in the mails.
    await saveAvailability(t.db, admin, { ...BERLIN, instantBooking: true, meetingLocation: "Studio, 1 Main Street, Berlin" });
    const atStudio = await book(client, new Date("2026-06-08T09:00:00Z"));
    const mail = (await outbox()).at(-1)!;
    expect(mail.text).toContain("Where: Studio, 1 Main Street, Berlin");
    const { event } = inviteOf(mail);
    expect(event.location).toBe("Studio, 1 Main Street, Berlin");
    expect(String(event.component.getFirstPropertyValue("url"))).toMatch(/\/meetings$/);
    expect(atStudio.status).toBe("accepted");

    // A place too long, or with control characters, is refused next to its field.
    expect(await refusalOf(saveAvailability(t.db, admin, { ...BERLIN, meetingLocation: "x".repeat(501) }))).toMatchObject({
      status: 400,
      fieldErrors: { meetingLocation: expect.any(Array) },
    });
    expect(await refusalOf(saveAvailability(t.db, admin, { ...BERLIN, meetingLocation: "a\u0007b" }))).toMatchObject({ status: 400 });
    // Off again: the next booking waits.
    await saveAvailability(t.db, admin, BERLIN);
    expect((await book(client, new Date("2026-06-08T10:00:00Z"))).status).toBe("pending");
  });
});
