/**
 * Admin meeting use-cases (issue #5; spec §2 /admin meeting requests, §4 Meeting status, §6
 * admin): the newest-first list of meeting requests, Accept and Delete. Each function checks
 * that the actor is an admin before anything else.
 */
import { count, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { meeting, user, type MeetingStatus } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
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

/**
 * Accepts a meeting request (spec §4: pending → accepted; the admin may also accept a
 * declined one). Accepting an accepted meeting changes nothing.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting.
 */
export async function acceptMeeting(db: Queryable, actor: Actor, meetingId: number): Promise<void> {
  assertRole(actor, "admin");
  const [row] = await db.update(meeting).set({ status: "accepted" }).where(eq(meeting.id, meetingId)).returning({ id: meeting.id });
  if (!row) throw notFound("Meeting not found");
}

/**
 * Deletes a meeting request (spec §4; the page asks for confirmation first, spec §5).
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting.
 */
export async function deleteMeeting(db: Queryable, actor: Actor, meetingId: number): Promise<void> {
  assertRole(actor, "admin");
  const [row] = await db.delete(meeting).where(eq(meeting.id, meetingId)).returning({ id: meeting.id });
  if (!row) throw notFound("Meeting not found");
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
