/**
 * Meeting reads of the client portal (docs/product.md#client-meetings) and the meeting invite
 * (docs/product.md#meeting-invites). A client sees only their own meetings. Booking, rescheduling
 * and cancelling live in `booking.server.ts`, the admin's use-cases in `meetings.admin.server.ts`.
 */
import { inOrganisation, PROJECT_ROLES } from "#app/features/organisations/access.server";
import { and, asc, desc, eq, gt, lte } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { meeting, proposal, user, type MeetingStatus } from "#app/db/schema";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { meetingIcs } from "./meeting-ics.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { ORIGIN_TOKEN } from "#app/features/mail/notifications.server";
import { replaceInIcs } from "#app/lib/ics-text";
import { getAvailability } from "./availability.server";
import { clientChangeState, type ChangeState } from "./change-state";
import { BOOKING_MESSAGES } from "./meetings.messages";

/** A meeting as the client's pages list it. */
export interface ClientMeetingRow {
  id: number;
  /** UTC instant. */
  startsAt: Date;
  endsAt: Date;
  /** IANA zone the client picked the time in. */
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  createdAt: Date;
  /** The project it is about, when named. */
  proposalId: number | null;
  projectName: string | null;
  /** What the client may do with it now (docs/product.md#meeting-changes). */
  change: ChangeState;
}

/** Most meetings one list shows. */
const MEETING_LIST_LIMIT = 200;

/** What a meeting request shows, to its client and (with the client's name and e-mail) to the admin. */
export const meetingColumns = {
  id: meeting.id,
  startsAt: meeting.startsAt,
  endsAt: meeting.endsAt,
  timeZone: meeting.timeZone,
  notes: meeting.notes,
  status: meeting.status,
  createdAt: meeting.createdAt,
  proposalId: meeting.proposalId,
};

/**
 * The client's meetings (docs/product.md#client-meetings): upcoming ones (start still ahead) soonest
 * first, and past ones (start passed) most recent first, at most 200 each.
 *
 * @param now - the current instant.
 * @returns both lists and the change cutoff in hours (for the page's wording).
 * @throws {AppError} 403 unless a client.
 */
export async function listClientMeetings(
  db: Queryable,
  actor: Actor,
  now: Date = new Date(),
): Promise<{ upcoming: ClientMeetingRow[]; past: ClientMeetingRow[]; changeCutoffHours: number }> {
  assertRole(actor, "client");
  const [{ changeCutoffHours }, upcoming, past] = await Promise.all([
    getAvailability(db),
    upcomingQuery(db, actor, now, MEETING_LIST_LIMIT),
    clientMeetingQuery(db)
      .where(and(inOrganisation(meeting.organisationId, actor, PROJECT_ROLES), lte(meeting.startsAt, now)))
      .orderBy(desc(meeting.startsAt), desc(meeting.id))
      .limit(MEETING_LIST_LIMIT),
  ]);
  const row = (m: MeetingRead): ClientMeetingRow => ({ ...m, change: clientChangeState(m, changeCutoffHours, now) });
  return { upcoming: upcoming.map(row), past: past.map(row), changeCutoffHours };
}

/**
 * The client's upcoming meetings only (start still ahead), soonest first, at most `limit`: the
 * dashboard's list and next steps (docs/product.md#client-dashboard), one statement.
 *
 * @param now - the current instant.
 * @returns the list and the change cutoff in hours.
 * @throws {AppError} 403 unless a client.
 */
export async function listUpcomingClientMeetings(
  db: Queryable,
  actor: Actor,
  now: Date = new Date(),
  limit = MEETING_LIST_LIMIT,
): Promise<{ upcoming: ClientMeetingRow[]; changeCutoffHours: number }> {
  assertRole(actor, "client");
  const [{ changeCutoffHours }, upcoming] = await Promise.all([getAvailability(db), upcomingQuery(db, actor, now, limit)]);
  return { upcoming: upcoming.map((m) => ({ ...m, change: clientChangeState(m, changeCutoffHours, now) })), changeCutoffHours };
}

function clientMeetingQuery(db: Queryable) {
  return db
    .select({ ...meetingColumns, projectName: proposal.projectName })
    .from(meeting)
    .leftJoin(proposal, eq(proposal.id, meeting.proposalId))
    .$dynamic();
}

type MeetingRead = Awaited<ReturnType<typeof upcomingQuery>>[number];

function upcomingQuery(db: Queryable, actor: Actor, now: Date, limit: number) {
  return clientMeetingQuery(db)
    .where(and(inOrganisation(meeting.organisationId, actor, PROJECT_ROLES), gt(meeting.startsAt, now)))
    .orderBy(asc(meeting.startsAt), asc(meeting.id))
    .limit(limit);
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
    .where(and(eq(meeting.id, id), inOrganisation(meeting.organisationId, actor, PROJECT_ROLES), eq(meeting.status, "accepted")));
  if (!row) throw notFound(BOOKING_MESSAGES.notFound);
  return { filename: `meeting-${row.id}.ics`, ics: await inviteFor(db, row, `${ctx.origin}/meetings`) };
}

/**
 * Builds the `.ics` of a meeting: its length, start in UTC, SEQUENCE = the meeting's, METHOD:CANCEL
 * once cancelled, organizer = the agency's support e-mail when set (docs/product.md#meeting-invites).
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
  const minutes = Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / 60_000);
  return meetingIcs({
    id: row.id,
    startsAt: row.startsAt,
    durationMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : 60,
    sequence: row.sequence,
    cancelled: row.status === "cancelled",
    timeZone: row.timeZone,
    title: `Meeting with ${company}`,
    notes: row.notes,
    url,
    location: settings.meetingLocation,
    organizer: settings.supportEmail ? { name: company, email: settings.supportEmail } : undefined,
    attendee: { name: client?.businessName || client?.name || "Client", email: client?.email ?? "" },
  });
}

/** A syntactically valid origin that stands for {@link ORIGIN_TOKEN} while the invite is built. */
const PLACEHOLDER_ORIGIN = "https://origin-token.invalid";

/**
 * One of the client's meetings, for the reschedule page.
 *
 * @returns its start, zone, status and what the client may do now.
 * @throws {AppError} 403 unless a client; 404 "Meeting not found" (unknown or another client's).
 */
export async function getClientMeeting(
  db: Queryable,
  actor: Actor,
  meetingId: number,
  now: Date = new Date(),
): Promise<{ id: number; startsAt: Date; timeZone: string; status: MeetingStatus; change: ChangeState; changeCutoffHours: number }> {
  assertRole(actor, "client");
  const [row] = await db
    .select({ id: meeting.id, startsAt: meeting.startsAt, timeZone: meeting.timeZone, status: meeting.status })
    .from(meeting)
    .where(and(eq(meeting.id, meetingId), inOrganisation(meeting.organisationId, actor, PROJECT_ROLES)));
  if (!row) throw notFound(BOOKING_MESSAGES.notFound);
  const { changeCutoffHours } = await getAvailability(db);
  return { ...row, change: clientChangeState(row, changeCutoffHours, now), changeCutoffHours };
}
