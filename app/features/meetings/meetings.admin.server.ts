/**
 * Admin meeting use-cases (docs/product.md#meetings-admin, docs/product.md#meeting-statuses
 * admin): the newest-first list of meeting requests, Accept and Delete. Each function checks
 * that the actor is an admin before anything else.
 */
import { formatMailTime } from "#app/features/mail/mail-dates.server";
import { asc, count, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "#app/db/client.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { ORIGIN_TOKEN, queueUserUpdate } from "#app/features/mail/notifications.server";
import { meeting, user, type MeetingStatus } from "#app/db/schema";
import { clientNameSql } from "#app/features/users/client-name.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull, toValidDate } from "#app/lib/dates";
import { inviteFor, meetingColumns } from "./meetings.server";
import { meetingPlaceLines } from "./availability.server";
import { AppError, notFound } from "#app/lib/errors";
import {
  cursorKeySql,
  DEFAULT_PAGE_SIZE,
  keysetPage,
  pageCountOf,
  type NumberedPage,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";
import { formId, type IntentHandler } from "#app/lib/form-action.server";
import { cancelMeeting } from "./booking.server";
import { clientChangeState } from "./change-state";

/** One meeting request as the admin dashboard lists it. */
export interface AdminMeetingRow {
  id: number;
  /** The requested instant, ISO (UTC); null when the stored value is not a displayable instant. */
  startsAt: string | null;
  endsAt: string | null;
  proposalId: number | null;
  /** IANA zone the client picked the time in. */
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  /** When the request was made, ISO (UTC). */
  createdAt: string | null;
  clientName: string;
  clientEmail: string;
}

/** Refusals of Accept / Decline (409). */
export const MEETING_ADMIN_MESSAGES = {
  notAnswerable: "Only pending requests for a time still ahead can be accepted or declined.",
} as const;

const rowSelect = () => ({
  ...meetingColumns,
  clientName: clientNameSql(),
  clientEmail: user.email,
});

/**
 * Upcoming meetings of one status — `pending` (the requests awaiting an answer) or `accepted` —
 * soonest first, one numbered page (docs/product.md#meetings-admin). The page's rows and the
 * total are one statement (the total an uncorrelated sub-select, computed once; the rows still
 * come from the start-time index, stopping at the page's end).
 *
 * @param options.page - 1-based, clamped to the last page; `pageSize` defaults to
 *   {@link DEFAULT_PAGE_SIZE}, as the admin's other lists (the dashboard shows fewer).
 * @returns the page's rows, how many there are in all and the page actually served.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listUpcomingMeetings(
  db: Queryable,
  actor: Actor,
  status: "pending" | "accepted" = "pending",
  options: { page?: number; pageSize?: number } = {},
): Promise<NumberedPage<AdminMeetingRow>> {
  assertRole(actor, "admin");
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  let page = Math.max(1, options.page ?? 1);
  let rows = await upcomingPageQuery(db, status, pageSize, page);
  if (rows.length === 0 && page > 1) {
    // Past the last page (a stale link, or the list got shorter): serve the last one.
    const [counted] = await db.select({ n: count() }).from(meeting).where(upcomingWhere(status));
    page = pageCountOf(counted!.n, pageSize);
    rows = await upcomingPageQuery(db, status, pageSize, page);
  }
  return numberedUpcomingPage(rows, page, pageSize);
}

/**
 * The first page of both upcoming lists of the admin dashboard — the requests awaiting an answer
 * (`pending`) and the accepted meetings — in ONE statement (the two pages of
 * {@link listUpcomingMeetings}, `union all`; issue #42: a round trip less per dashboard).
 *
 * @param pageSize - rows of each list (the dashboard's 10).
 * @returns each status's first page, soonest first, with its total.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listUpcomingMeetingFirstPages(
  db: Queryable,
  actor: Actor,
  pageSize: number,
): Promise<Record<"pending" | "accepted", NumberedPage<AdminMeetingRow>>> {
  assertRole(actor, "admin");
  const rows = await unionAll(upcomingPageQuery(db, "pending", pageSize, 1), upcomingPageQuery(db, "accepted", pageSize, 1));
  const of = (status: MeetingStatus) =>
    numberedUpcomingPage(
      rows.filter((row) => row.status === status).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id),
      1,
      pageSize,
    );
  return { pending: of("pending"), accepted: of("accepted") };
}

/** Meetings of `status` whose (displayable) time is still ahead. */
function upcomingWhere(status: "pending" | "accepted") {
  return sql`${meeting.status} = ${status} and ${meeting.startsAt} > now() and ${meeting.startsAt} <> 'infinity'::timestamptz`;
}

/**
 * One page of the upcoming meetings of `status`, soonest first, each row with the list's total (an
 * uncorrelated sub-select, computed once; the rows come from the start-time index, stopping at the
 * page's end). Not run here: awaited, or combined with another page by {@link listUpcomingMeetingFirstPages}.
 */
function upcomingPageQuery(db: Queryable, status: "pending" | "accepted", pageSize: number, page: number) {
  const where = upcomingWhere(status);
  return db
    .select({ ...rowSelect(), total: sql<number>`(select count(*) from ${meeting} where ${where})`.mapWith(Number) })
    .from(meeting)
    .innerJoin(user, eq(user.id, meeting.userId))
    .where(where)
    .orderBy(asc(meeting.startsAt), asc(meeting.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** A numbered page from {@link upcomingPageQuery}'s rows (the total read from the first row; 0 without rows). */
function numberedUpcomingPage(
  rows: Awaited<ReturnType<typeof upcomingPageQuery>>,
  page: number,
  pageSize: number,
): NumberedPage<AdminMeetingRow> {
  const total = rows[0]?.total ?? 0;
  return {
    items: rows.map(({ total: _, ...row }) => isoRow(row)),
    page,
    pageSize,
    total,
    pageCount: pageCountOf(total, pageSize),
  };
}

/** The requests awaiting an answer (pending, still ahead), soonest first: the first page of {@link listUpcomingMeetings} `pending`. */
export function listPendingMeetingRequests(db: Queryable, actor: Actor): Promise<NumberedPage<AdminMeetingRow>> {
  return listUpcomingMeetings(db, actor, "pending");
}

/** Which meetings {@link listMeetingRequests} lists: past ones, or declined and cancelled ones still ahead. */
export type MeetingArchive = "past" | "closed";

const byStart = { sort: meeting.startsAt, id: meeting.id };

/**
 * Lists past meetings (start passed, any status) or declined and cancelled ones still ahead, latest
 * start first, paginated (docs/product.md#meetings-admin); upcoming ones are listed by
 * {@link listUpcomingMeetings}. A stored date that is not a real instant (e.g. `infinity`) comes
 * back as `startsAt: null`, which the page shows as "Invalid Date" (docs/product.md#form-messages).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listMeetingRequests(
  db: Queryable,
  actor: Actor,
  page: PageRequest,
  archive: MeetingArchive = "past",
): Promise<Page<AdminMeetingRow>> {
  assertRole(actor, "admin");
  const where =
    archive === "past"
      ? sql`(${meeting.startsAt} <= now() or ${meeting.startsAt} = 'infinity'::timestamptz)`
      : sql`${meeting.status} in ('declined', 'cancelled') and ${meeting.startsAt} > now() and ${meeting.startsAt} <> 'infinity'::timestamptz`;
  const result = await keysetPage(db, { order: byStart, request: page, table: meeting, where }, (keyset) =>
    db
      .select({ ...rowSelect(), cursorKey: cursorKeySql(byStart) })
      .from(meeting)
      .innerJoin(user, eq(user.id, meeting.userId))
      .where(keyset.where)
      .orderBy(...keyset.orderBy)
      .limit(keyset.limit),
  );
  return { ...result, items: result.items.map(isoRow) };
}

function isoRow<T extends { startsAt: Date; endsAt: Date; createdAt: Date }>(row: T) {
  return { ...row, startsAt: toIsoOrNull(row.startsAt), endsAt: toIsoOrNull(row.endsAt), createdAt: toIsoOrNull(row.createdAt) };
}

/** The content type of the invite attached to the acceptance mail. */
export const MEETING_ICS_CONTENT_TYPE = "text/calendar; method=PUBLISH; charset=utf-8";

/** Refuses an answer to a meeting that is not pending or whose time has passed. */
function assertAnswerable(current: { status: MeetingStatus; startsAt: Date }): void {
  const start = toValidDate(current.startsAt);
  if (current.status !== "pending" || !start || start.getTime() <= Date.now()) {
    throw new AppError("CONFLICT", MEETING_ADMIN_MESSAGES.notAnswerable);
  }
}

/**
 * Answers a meeting request with `answer`, in one transaction: the row locked, nothing when it has
 * that status already, 409 unless it is answerable, then the status, its audit event (action = the
 * answer, status before/after) and the client's mail (`notify`).
 *
 * @returns whether the status changed.
 */
async function answerMeeting(
  db: Database,
  actor: Actor,
  meetingId: number,
  answer: "accepted" | "declined",
  notify: (tx: Queryable, current: typeof meeting.$inferSelect) => Promise<void>,
): Promise<{ changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(meeting).where(eq(meeting.id, meetingId)).for("update");
    if (!current) throw notFound("Meeting not found");
    if (current.status === answer) return { changed: false };
    assertAnswerable(current);
    await tx.update(meeting).set({ status: answer }).where(eq(meeting.id, meetingId));
    await recordAudit(tx, actor, {
      entity: "meeting",
      entityId: meetingId,
      action: answer,
      proposalId: current.proposalId,
      before: { status: current.status },
      after: { status: answer },
    });
    await notify(tx, current);
    return { changed: true };
  });
}

/**
 * Accepts a meeting request (docs/product.md#meetings-admin: pending and still ahead → accepted).
 * In the same transaction: one audit event `accepted` (status
 * before/after) and a non-essential mail to the client with the meeting's `.ics` attached
 * (`meeting-<id>.ics`). Accepting an accepted meeting changes nothing: no audit, no mail.
 *
 * @returns whether the status changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting; 409 when it is
 *   declined or its time has passed.
 */
export async function acceptMeeting(db: Database, actor: Actor, meetingId: number): Promise<{ changed: boolean }> {
  return answerMeeting(db, actor, meetingId, "accepted", async (tx, current) => {
    const start = toValidDate(current.startsAt);
    const valid = start !== null;
    const when = start ? formatMailTime(start, current.timeZone) : "the requested time";
    await queueUserUpdate(tx, current.userId, {
      subject: "Your meeting is confirmed",
      lines: [
        `Your meeting request for ${when} was accepted.`,
        ...(await meetingPlaceLines(tx)),
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
  });
}

/**
 * Declines a meeting request (docs/product.md#meetings-admin: pending and still ahead → declined).
 * In the same transaction one audit event `declined` (status before/after) and a non-essential
 * mail to the client. Declining a declined meeting changes nothing.
 *
 * @returns whether the status changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting; 409 when it is
 *   accepted or its time has passed.
 */
export async function declineMeeting(db: Database, actor: Actor, meetingId: number): Promise<{ changed: boolean }> {
  return answerMeeting(db, actor, meetingId, "declined", async (tx, current) => {
    await queueUserUpdate(tx, current.userId, {
      subject: "Your meeting request was declined",
      lines: [
        `Your meeting request for ${formatMailTime(current.startsAt, current.timeZone)} was declined. Please pick another time from your dashboard.`,
      ],
      link: { label: "Open your dashboard", path: "/client-dashboard" },
    });
  });
}

/**
 * Deletes a meeting request (docs/product.md#meetings-scheduling; the page asks for confirmation first). In
 * the same transaction one audit event `deleted` with the meeting as it was.
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
 * @returns the number of meeting requests, and of those still pending (docs/product.md#admin-dashboard).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function countMeetings(db: Queryable, actor: Actor): Promise<{ total: number; pending: number }> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({ total: count(), pending: sql<number>`count(*) filter (where ${meeting.status} = 'pending')`.mapWith(Number) })
    .from(meeting);
  return { total: row!.total, pending: row!.pending };
}

/**
 * The admin's meeting actions as form intents, shared by `/admin` and `/admin/meetings`
 * (docs/product.md#meetings-admin): `accept-meeting`, `decline-meeting`, `cancel-meeting` and
 * `delete-meeting`, each posting `meetingId`.
 */
export function adminMeetingIntents(db: Database, actor: Actor): Record<string, IntentHandler> {
  return {
    "accept-meeting": async (form) => {
      await acceptMeeting(db, actor, formId(form, "meetingId"));
      return "Meeting accepted.";
    },
    "decline-meeting": async (form) => {
      await declineMeeting(db, actor, formId(form, "meetingId"));
      return "Meeting declined.";
    },
    "cancel-meeting": async (form) => {
      await cancelMeeting(db, actor, formId(form, "meetingId"));
      return "Meeting cancelled. The client has been told.";
    },
    "delete-meeting": async (form) => {
      await deleteMeeting(db, actor, formId(form, "meetingId"));
      return "Meeting deleted.";
    },
  };
}

/**
 * One meeting for the admin's reschedule page.
 *
 * @returns the client's name, the start (ISO) and whether it can still change (pending or accepted, ahead).
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown meeting.
 */
export async function getMeetingForAdmin(
  db: Queryable,
  actor: Actor,
  meetingId: number,
): Promise<{ id: number; clientName: string; startsAt: string | null; changeable: boolean }> {
  assertRole(actor, "admin");
  const [row] = await db.select(rowSelect()).from(meeting).innerJoin(user, eq(user.id, meeting.userId)).where(eq(meeting.id, meetingId));
  if (!row) throw notFound("Meeting not found");
  return {
    id: row.id,
    clientName: row.clientName,
    startsAt: toIsoOrNull(row.startsAt),
    changeable: clientChangeState(row, 0) === "changeable",
  };
}
