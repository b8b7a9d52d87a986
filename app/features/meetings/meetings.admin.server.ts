/**
 * Admin meeting use-cases (issue #5; spec §2 /admin meeting requests, §4 Meeting status, §6
 * admin): the newest-first list of meeting requests, Accept and Delete. Each function checks
 * that the actor is an admin before anything else.
 */
import { count, eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { ORIGIN_TOKEN, queueUserUpdate } from "#app/features/mail/notifications.server";
import { meeting, user, type MeetingStatus } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { formatDateTime, toIsoOrNull, toValidDate } from "#app/lib/dates";
import { inviteFor } from "./meetings.server";
import { notFound } from "#app/lib/errors";
import { cursorKeySql, keysetPage, type Page, type PageRequest } from "#app/lib/pagination";

/** One meeting request as the admin dashboard lists it. */
export interface AdminMeetingRow {
  id: number;
  /** The requested instant, ISO (UTC); null when the stored value is not a displayable instant. */
  startsAt: string | null;
  /** IANA zone the client picked the time in. */
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  /** When the request was made, ISO (UTC). */
  createdAt: string | null;
  clientName: string;
  clientEmail: string;
}

const ordering = { sort: meeting.createdAt, id: meeting.id };

/**
 * Lists meeting requests, newest request first (spec §2 /admin), paginated.
 * A stored date that is not a real instant (e.g. `infinity`) comes back as `startsAt: null`,
 * which the page shows as "Invalid Date" (spec §8).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listMeetingRequests(db: Queryable, actor: Actor, page: PageRequest): Promise<Page<AdminMeetingRow>> {
  assertRole(actor, "admin");
  const result = await keysetPage(db, { order: ordering, request: page, table: meeting, where: undefined }, (keyset) =>
    db
      .select({
        id: meeting.id,
        cursorKey: cursorKeySql(ordering),
        startsAt: meeting.startsAt,
        timeZone: meeting.timeZone,
        notes: meeting.notes,
        status: meeting.status,
        createdAt: meeting.createdAt,
        clientName: sql<string>`coalesce(${user.businessName}, ${user.name})`,
        clientEmail: user.email,
      })
      .from(meeting)
      .innerJoin(user, eq(user.id, meeting.userId))
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(keyset.limit),
  );
  return {
    ...result,
    items: result.items.map((row) => ({ ...row, startsAt: toIsoOrNull(row.startsAt), createdAt: toIsoOrNull(row.createdAt) })),
  };
}

/** The content type of the invite attached to the acceptance mail (issue #6). */
export const MEETING_ICS_CONTENT_TYPE = "text/calendar; method=PUBLISH; charset=utf-8";

/**
 * Accepts a meeting request (spec §4: pending → accepted; the admin may also accept a
 * declined one). In the same transaction (issue #6): one audit event `accepted` (status
 * before/after) and a non-essential mail to the client with the meeting's `.ics` attached
 * (`meeting-<id>.ics`). Accepting an accepted meeting changes nothing: no audit, no mail.
 *
 * @returns whether the status changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting.
 */
export async function acceptMeeting(db: Database, actor: Actor, meetingId: number): Promise<{ changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(meeting).where(eq(meeting.id, meetingId)).for("update");
    if (!current) throw notFound("Meeting not found");
    if (current.status === "accepted") return { changed: false };
    await tx.update(meeting).set({ status: "accepted" }).where(eq(meeting.id, meetingId));
    await recordAudit(tx, actor, {
      entity: "meeting",
      entityId: meetingId,
      action: "accepted",
      before: { status: current.status },
      after: { status: "accepted" },
    });
    const start = toValidDate(current.startsAt);
    const valid = start !== null;
    const when = start ? `${formatDateTime(start, current.timeZone)} (${current.timeZone})` : "the requested time";
    await queueUserUpdate(tx, current.userId, {
      subject: "Your meeting is confirmed",
      lines: [
        `Your meeting request for ${when} was accepted.`,
        ...(valid ? ["The calendar invite is attached; you can also download it from your dashboard."] : []),
      ],
      link: { label: "Open your dashboard", path: "/client-dashboard" },
      attachments: valid
        ? [
            {
              filename: `meeting-${meetingId}.ics`,
              contentType: MEETING_ICS_CONTENT_TYPE,
              content: await inviteFor(tx, { ...current, status: "accepted" }, `${ORIGIN_TOKEN}/client-dashboard`),
            },
          ]
        : undefined,
    });
    return { changed: true };
  });
}

/**
 * Deletes a meeting request (spec §4; the page asks for confirmation first, spec §5). In
 * the same transaction (issue #6) one audit event `deleted` with the meeting as it was.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting.
 */
export async function deleteMeeting(db: Database, actor: Actor, meetingId: number): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(meeting).where(eq(meeting.id, meetingId)).returning();
    if (!row) throw notFound("Meeting not found");
    const { userId, startsAt, timeZone, notes, status } = row;
    await recordAudit(tx, actor, {
      entity: "meeting",
      entityId: meetingId,
      action: "deleted",
      before: { userId, startsAt: toIsoOrNull(startsAt), timeZone, notes, status },
      after: null,
    });
  });
}

/**
 * @returns the number of meeting requests, and of those still pending (spec §2 /admin).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function countMeetings(db: Queryable, actor: Actor): Promise<{ total: number; pending: number }> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({ total: count(), pending: sql<number>`count(*) filter (where ${meeting.status} = 'pending')`.mapWith(Number) })
    .from(meeting);
  return { total: row!.total, pending: row!.pending };
}
