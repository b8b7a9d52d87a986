/**
 * Meeting use-cases of the client portal (docs/product.md#client-dashboard, docs/product.md#meetings-scheduling,
 * docs/product.md#meeting-statuses, docs/product.md#meetings-scheduling). A client schedules and sees only their own meetings and
 * may delete one only while it is pending. The admin's use-cases live in
 * `meetings.admin.server.ts`.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { meeting, user, type MeetingStatus } from "#app/db/schema";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { meetingIcs } from "./meeting-ics.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { zonedDateTimeToUtc } from "#app/lib/dates";
import { notifyAdmin, ORIGIN_TOKEN } from "#app/features/mail/notifications.server";
import { replaceInIcs } from "#app/lib/ics-text";
import { MEETING_HORIZON_DAYS, MEETING_MESSAGES, type MeetingInput } from "./meetings.schema";

/** A meeting as the client's dashboard lists it. */
export interface ClientMeetingRow {
  id: number;
  /** UTC instant. */
  startsAt: Date;
  /** IANA zone the client picked the time in. */
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  createdAt: Date;
  canDelete: boolean;
}

/** Most meetings one dashboard shows (newest starts first beyond that are cut). */
const MEETING_LIST_LIMIT = 200;

/** docs/product.md#meetings-scheduling: a client may delete only their pending meetings. */
export function meetingDeletable(status: MeetingStatus): boolean {
  return status === "pending";
}

/**
 * Schedules a meeting (docs/product.md#meetings-scheduling): status pending; the date and time are read in the
 * client's time zone and stored as a UTC instant plus that zone.
 *
 * @param input - validated `meetingSchema` output (`timeZone` a valid IANA name).
 * @param now - the current instant (tests pass a fixed one).
 * @returns the new meeting's id and its start (UTC).
 * @throws {AppError} FORBIDDEN unless a client; INVALID_INPUT on `date` when the instant is
 *   not in the future, or more than {@link MEETING_HORIZON_DAYS} days ahead.
 */
export async function scheduleMeeting(
  db: Database,
  actor: Actor,
  input: MeetingInput,
  now: Date = new Date(),
): Promise<{ id: number; startsAt: Date }> {
  assertRole(actor, "client");
  let startsAt: Date;
  try {
    startsAt = zonedDateTimeToUtc(input.date, input.time, input.timeZone);
  } catch (error) {
    throw new AppError("INVALID_INPUT", (error as Error).message);
  }
  if (startsAt.getTime() <= now.getTime()) throw fieldError("date", MEETING_MESSAGES.inPast);
  if (startsAt.getTime() > now.getTime() + MEETING_HORIZON_DAYS * 86_400_000) throw fieldError("date", MEETING_MESSAGES.tooFar);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(meeting)
      .values({ userId: actor.id, startsAt, timeZone: input.timeZone, notes: input.notes, status: "pending" })
      .returning({ id: meeting.id, startsAt: meeting.startsAt });
    const when = new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "short", timeZone: input.timeZone }).format(startsAt);
    await notifyAdmin(tx, {
      subject: "New meeting request",
      lines: [`${actor.email} asked for a meeting on ${when} (${input.timeZone}).`, ...(input.notes ? [input.notes] : [])],
      link: { label: "Open meeting requests", path: "/admin" },
    });
    return row!;
  });
}

/** What a meeting request shows, to its client and (with the client's name and e-mail) to the admin. */
export const meetingColumns = {
  id: meeting.id,
  startsAt: meeting.startsAt,
  timeZone: meeting.timeZone,
  notes: meeting.notes,
  status: meeting.status,
  createdAt: meeting.createdAt,
};

/**
 * The client's meetings, soonest first (docs/product.md#client-dashboard).
 *
 * @throws {AppError} 403 unless a client.
 */
export async function listClientMeetings(db: Database, actor: Actor): Promise<ClientMeetingRow[]> {
  assertRole(actor, "client");
  const rows = await db
    .select(meetingColumns)
    .from(meeting)
    .where(eq(meeting.userId, actor.id))
    .orderBy(asc(meeting.startsAt), asc(meeting.id))
    .limit(MEETING_LIST_LIMIT);
  return rows.map((row) => ({ ...row, canDelete: meetingDeletable(row.status) }));
}

/**
 * Deletes one of the client's meetings (docs/product.md#confirmations: after confirmation, which the page asks
 * for): only their own, only while pending.
 *
 * @param meetingId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @throws {AppError} 403 unless a client; 404 "Meeting not found" (unknown or another
 *   client's); 409 when no longer pending.
 */
export async function deleteMeeting(db: Database, actor: Actor, meetingId: number): Promise<void> {
  assertRole(actor, "client");
  const id = meetingId;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: meeting.id, status: meeting.status })
      .from(meeting)
      .where(and(eq(meeting.id, id), eq(meeting.userId, actor.id)))
      .for("update");
    if (!row) throw notFound(MEETING_MESSAGES.notFound);
    if (!meetingDeletable(row.status)) throw new AppError("CONFLICT", MEETING_MESSAGES.notDeletable);
    await tx.delete(meeting).where(eq(meeting.id, row.id));
  });
}

/**
 * The calendar invite of one of the client's accepted meetings (the client can
 * download it from the dashboard).
 *
 * @param meetingId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @param ctx.origin - the site's origin, for the link in the invite.
 * @returns the `.ics` text and a file name.
 * @throws {AppError} 403 unless a client; 404 "Meeting not found" (unknown, another client's,
 *   or not accepted yet).
 */
export async function getMeetingInviteForClient(
  db: Database,
  actor: Actor,
  meetingId: number,
  ctx: { origin: string },
): Promise<{ filename: string; ics: string }> {
  assertRole(actor, "client");
  const id = meetingId;
  const [row] = await db
    .select()
    .from(meeting)
    .where(and(eq(meeting.id, id), eq(meeting.userId, actor.id), eq(meeting.status, "accepted")));
  if (!row) throw notFound(MEETING_MESSAGES.notFound);
  return { filename: `meeting-${row.id}.ics`, ics: await inviteFor(db, row, `${ctx.origin}/client-dashboard`) };
}

/**
 * Builds the `.ics` of a meeting for its client: one hour, start in UTC, organizer = the
 * agency's support e-mail when set.
 *
 * @param url - link into the portal; may start with the outbox's {@link ORIGIN_TOKEN}
 *   (mails: the worker resolves it when sending, see outbox.server.ts).
 * @returns the `.ics` text.
 * @throws {Error} when the meeting cannot be encoded (e.g. its start is not a real instant).
 */
export async function inviteFor(db: Queryable, row: typeof meeting.$inferSelect, url: string): Promise<string> {
  // The ics library validates the URL: build with a placeholder origin, then put the token back.
  if (url.startsWith(ORIGIN_TOKEN)) {
    const ics = await inviteFor(db, row, `${PLACEHOLDER_ORIGIN}${url.slice(ORIGIN_TOKEN.length)}`);
    return replaceInIcs(ics, PLACEHOLDER_ORIGIN, ORIGIN_TOKEN);
  }
  const settings = await getSettings(db);
  const [client] = await db
    .select({ name: user.name, businessName: user.businessName, email: user.email })
    .from(user)
    .where(eq(user.id, row.userId));
  const company = companyNameOf(settings);
  return meetingIcs({
    id: row.id,
    startsAt: row.startsAt,
    timeZone: row.timeZone,
    title: `Meeting with ${company}`,
    notes: row.notes,
    url,
    organizer: settings.supportEmail ? { name: company, email: settings.supportEmail } : undefined,
    attendee: { name: client?.businessName || client?.name || "Client", email: client?.email ?? "" },
  });
}

/** A syntactically valid origin that stands for {@link ORIGIN_TOKEN} while the invite is built. */
const PLACEHOLDER_ORIGIN = "https://origin-token.invalid";
