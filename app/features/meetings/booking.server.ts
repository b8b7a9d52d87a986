/**
 * Booking, rescheduling and cancelling meetings from the agency's availability
 * (docs/product.md#meetings-scheduling, docs/product.md#meeting-changes).
 *
 * - A client books one of the free slots ({@link freeSlots}); the meeting is `pending` and holds
 *   [start, end + buffer) in the agency's calendar. Two bookings of one slot at once: the
 *   database's exclusion constraint `meeting_no_overlap` (migration 0016) lets one insert through;
 *   the other gets {@link BOOKING_MESSAGES.slotGone} (409).
 * - A client reschedules or cancels their pending or accepted upcoming meeting until the cutoff
 *   (settings, default 12 h before); the admin always can. Every change raises the invite's
 *   SEQUENCE and mails the other side an updated `.ics` (same UID; a cancellation is METHOD:CANCEL).
 */
import { inOrganisation, lockMembership, PROJECT_ROLES } from "#app/features/organisations/access.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { and, eq } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { meeting, user } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { notifyAdmin, ORIGIN_TOKEN, queueUserNotice } from "#app/features/mail/notifications.server";
import { listClientProjectNames } from "#app/features/proposals/proposals.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { formatMailTime, rememberTimeZone } from "#app/features/mail/mail-dates.server";
import { freeSlots, getAvailability, meetingPlaceLines } from "./availability.server";
import { type BookingInput } from "./meetings.schema";
import { BOOKING_MESSAGES } from "./meetings.messages";
import { clientChangeState } from "./change-state";
import { inviteFor } from "./meetings.server";

/** The content type of a meeting invite attached to a mail. */
export const ICS_CONTENT_TYPE = {
  PUBLISH: "text/calendar; method=PUBLISH; charset=utf-8",
  CANCEL: "text/calendar; method=CANCEL; charset=utf-8",
};

/** @returns whether `error` (or one of its causes) is PostgreSQL's exclusion violation (23P01). */
function isExclusionViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23P01") return true;
  }
  return false;
}

/** Runs a booking write; the exclusion constraint's refusal becomes {@link BOOKING_MESSAGES.slotGone}. */
async function slotWrite<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AppError) && isExclusionViolation(error)) throw fieldError("slot", BOOKING_MESSAGES.slotGone, "CONFLICT");
    throw error;
  }
}

/** @throws {AppError} 409 on `slot` unless `slot` is one of the free slots. */
async function assertFree(
  q: Queryable,
  slot: Date,
  options: { exceptMeetingId?: number; ignoreNotice?: boolean },
  now: Date,
): Promise<{ endsAt: Date; blockedUntil: Date }> {
  const { availability, slots } = await freeSlots(q, options, now);
  if (!slots.some((s) => s.getTime() === slot.getTime())) throw fieldError("slot", BOOKING_MESSAGES.slotGone, "CONFLICT");
  const endsAt = new Date(slot.getTime() + availability.meetingMinutes * 60_000);
  return { endsAt, blockedUntil: new Date(endsAt.getTime() + availability.meetingBufferMinutes * 60_000) };
}

/** "Blue Cafe (owner@bluecafe.example)" for the admin's mails. */
async function clientLabel(q: Queryable, userId: string): Promise<string> {
  const [row] = await q
    .select({ name: user.name, businessName: user.businessName, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  return row ? `${row.businessName || row.name} (${row.email})` : "A client";
}

/**
 * Books a meeting in one of the free slots (docs/product.md#meetings-scheduling): status pending —
 * or accepted at once when Settings say "Confirm bookings at once" (issue #41) — the length and
 * buffer in force, the client's zone, optional notes and project. The admin is mailed "New meeting
 * request" (or "New meeting booked") with the invite; a booking confirmed at once also mails the
 * client "Your meeting is confirmed" with it; the request is audited (`requested`, with the status).
 *
 * @param input - validated `bookingSchema` output (`slot` an ISO instant).
 * @param now - the current instant (tests pass a fixed one).
 * @returns the new meeting's id and start.
 * @throws {AppError} 403 unless a client; 400 on `proposalId` when it is not one of the client's
 *   projects; 409 on `slot` when the time is not (or no longer) free.
 */
export async function bookMeeting(
  db: Database,
  actor: Actor,
  input: BookingInput,
  now: Date = new Date(),
): Promise<{ id: number; startsAt: Date; status: "pending" | "accepted" }> {
  assertRole(actor, "client");
  const slot = new Date(input.slot);
  if (!Number.isFinite(slot.getTime())) throw fieldError("slot", BOOKING_MESSAGES.pickSlot);
  if (input.proposalId !== null && (await listClientProjectNames(db, actor, input.proposalId)).length === 0) {
    throw fieldError("proposalId", BOOKING_MESSAGES.proposalUnknown);
  }
  return slotWrite(() =>
    db.transaction(async (tx) => {
      const organisationId = await lockMembership(tx, actor, PROJECT_ROLES, ORGANISATION_MESSAGES.notMember);
      const times = await assertFree(tx, slot, {}, now);
      const { instantBooking } = await getAvailability(tx);
      const status = instantBooking ? "accepted" : "pending";
      const [row] = await tx
        .insert(meeting)
        .values({
          userId: actor.id,
          organisationId,
          startsAt: slot,
          ...times,
          timeZone: input.timeZone,
          notes: input.notes,
          status,
          proposalId: input.proposalId,
        })
        .returning();
      await recordAudit(tx, actor, {
        entity: "meeting",
        entityId: row!.id,
        action: "requested",
        proposalId: input.proposalId,
        before: null,
        after: { startsAt: slot.toISOString(), proposalId: input.proposalId, status },
      });
      // Times in each reader's zone and words (issue #41): the agency's for the admin, the client's own.
      await rememberTimeZone(tx, actor.id, input.timeZone);
      const agencyZone = (await getAvailability(tx)).timeZone;
      const clientWhen = formatMailTime(slot, input.timeZone);
      const agencyWhen = formatMailTime(slot, agencyZone);
      const when = agencyWhen === clientWhen ? agencyWhen : `${agencyWhen} (${clientWhen} for them)`;
      const place = await meetingPlaceLines(tx);
      await notifyAdmin(tx, {
        subject: instantBooking ? "New meeting booked" : "New meeting request",
        lines: [
          instantBooking
            ? `${await clientLabel(tx, actor.id)} booked a meeting on ${when}. It is confirmed (Settings: confirm bookings at once).`
            : `${await clientLabel(tx, actor.id)} asked for a meeting on ${when}.`,
          ...place,
          ...(input.notes ? [input.notes] : []),
        ],
        link: { label: instantBooking ? "Open meetings" : "Open meeting requests", path: "/admin/meetings" },
        attachments: [await inviteAttachment(tx, row!, "/admin/meetings")],
      });
      if (instantBooking) {
        await queueUserNotice(tx, actor.id, {
          subject: "Your meeting is confirmed",
          lines: [`Your meeting on ${clientWhen} is confirmed.`, ...place, "The calendar invite is attached."],
          link: { label: "Open your meetings", path: "/meetings" },
          attachments: [await inviteAttachment(tx, row!, "/meetings")],
        });
      }
      return { id: row!.id, startsAt: slot, status };
    }),
  );
}

/** The meeting's invite as a mail attachment (METHOD:CANCEL when cancelled). */
async function inviteAttachment(q: Queryable, row: typeof meeting.$inferSelect, path: string) {
  const cancelled = row.status === "cancelled";
  return {
    filename: `meeting-${row.id}.ics`,
    contentType: cancelled ? ICS_CONTENT_TYPE.CANCEL : ICS_CONTENT_TYPE.PUBLISH,
    content: await inviteFor(q, row, `${ORIGIN_TOKEN}${path}`),
  };
}

/**
 * Locks a meeting the actor may change: a client's own (404 otherwise), any for the admin; 409
 * unless pending or accepted and still ahead; for a client, 409 inside the cutoff.
 */
async function lockChangeable(q: Queryable, actor: Actor, meetingId: number, now: Date): Promise<typeof meeting.$inferSelect> {
  assertRole(actor, "client", "admin");
  // A client: a meeting of their organisation, for its owners and members (docs/product.md#organisations).
  const own = actor.role === "client" ? inOrganisation(meeting.organisationId, actor, PROJECT_ROLES) : undefined;
  const [row] = await q
    .select()
    .from(meeting)
    .where(and(eq(meeting.id, meetingId), own))
    .for("update");
  if (!row) throw notFound(BOOKING_MESSAGES.notFound);
  const { changeCutoffHours } = await getAvailability(q);
  const state = clientChangeState(row, actor.role === "admin" ? 0 : changeCutoffHours, now);
  if (state === "closed") throw new AppError("CONFLICT", BOOKING_MESSAGES.notChangeable);
  if (state === "past-cutoff") throw new AppError("CONFLICT", BOOKING_MESSAGES.pastCutoff);
  return row;
}

/**
 * Moves a meeting to another free slot (docs/product.md#meeting-changes): the client until the
 * cutoff, the admin always (the minimum notice does not bind the admin). The status stays; the
 * invite's SEQUENCE rises by one; the other side is mailed the updated `.ics` (same UID); audited
 * (`rescheduled`, start before/after).
 *
 * @param input.slot - ISO instant of the new start; `input.timeZone` the client's zone (a client's
 *   move also records it).
 * @returns the new start.
 * @throws {AppError} 403 unless a client or admin; 404 for an unknown meeting or another client's;
 *   409 when it cannot change (past, declined, cancelled; inside the cutoff for a client) or on
 *   `slot` when the time is not free.
 */
export async function rescheduleMeeting(
  db: Database,
  actor: Actor,
  meetingId: number,
  input: { slot: string; timeZone: string },
  now: Date = new Date(),
): Promise<{ startsAt: Date }> {
  const slot = new Date(input.slot);
  if (!Number.isFinite(slot.getTime())) throw fieldError("slot", BOOKING_MESSAGES.pickSlot);
  return slotWrite(() =>
    db.transaction(async (tx) => {
      const current = await lockChangeable(tx, actor, meetingId, now);
      const times = await assertFree(tx, slot, { exceptMeetingId: meetingId, ignoreNotice: actor.role === "admin" }, now);
      const [row] = await tx
        .update(meeting)
        .set({
          startsAt: slot,
          ...times,
          timeZone: actor.role === "client" ? input.timeZone : current.timeZone,
          sequence: current.sequence + 1,
          updatedAt: now,
        })
        .where(eq(meeting.id, meetingId))
        .returning();
      await recordAudit(tx, actor, {
        entity: "meeting",
        entityId: meetingId,
        action: "rescheduled",
        proposalId: current.proposalId,
        before: { startsAt: current.startsAt.toISOString() },
        after: { startsAt: slot.toISOString() },
      });
      const agencyZone = (await getAvailability(tx)).timeZone;
      const reader = actor.role === "client" ? agencyZone : row!.timeZone;
      const from = formatMailTime(current.startsAt, reader);
      const to = formatMailTime(slot, reader);
      if (actor.role === "client") {
        await notifyAdmin(tx, {
          subject: "Meeting moved",
          lines: [
            `${await clientLabel(tx, row!.userId)} moved their meeting from ${from} to ${to}.`,
            ...(await meetingPlaceLines(tx)),
            "The updated calendar invite is attached.",
          ],
          link: { label: "Open meetings", path: "/admin/meetings" },
          attachments: [await inviteAttachment(tx, row!, "/admin/meetings")],
        });
      } else {
        await queueUserNotice(tx, row!.userId, {
          subject: "Your meeting was moved",
          lines: [
            `The agency moved your meeting from ${from} to ${to}.`,
            ...(await meetingPlaceLines(tx)),
            "The updated calendar invite is attached.",
          ],
          link: { label: "Open your meetings", path: "/meetings" },
          attachments: [await inviteAttachment(tx, row!, "/meetings")],
        });
      }
      return { startsAt: slot };
    }),
  );
}

/**
 * Cancels a meeting (docs/product.md#meeting-changes): the client until the cutoff, the admin
 * always. Status `cancelled` (its time is free again), SEQUENCE + 1, the other side mailed a
 * METHOD:CANCEL `.ics` (same UID); audited (`cancelled`, status before/after).
 *
 * @throws {AppError} 403 unless a client or admin; 404 for an unknown meeting or another client's;
 *   409 when it cannot change (past, declined, cancelled; inside the cutoff for a client).
 */
export async function cancelMeeting(db: Database, actor: Actor, meetingId: number, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockChangeable(tx, actor, meetingId, now);
    const [row] = await tx
      .update(meeting)
      .set({ status: "cancelled", sequence: current.sequence + 1, updatedAt: now })
      .where(eq(meeting.id, meetingId))
      .returning();
    await recordAudit(tx, actor, {
      entity: "meeting",
      entityId: meetingId,
      action: "cancelled",
      proposalId: current.proposalId,
      before: { status: current.status },
      after: { status: "cancelled" },
    });
    const when = formatMailTime(current.startsAt, actor.role === "client" ? (await getAvailability(tx)).timeZone : current.timeZone);
    if (actor.role === "client") {
      await notifyAdmin(tx, {
        subject: "Meeting cancelled",
        lines: [`${await clientLabel(tx, current.userId)} cancelled their meeting on ${when}.`],
        link: { label: "Open meetings", path: "/admin/meetings" },
        attachments: [await inviteAttachment(tx, row!, "/admin/meetings")],
      });
    } else {
      await queueUserNotice(tx, current.userId, {
        subject: "Your meeting was cancelled",
        lines: [`The agency cancelled your meeting on ${when}.`, "You can book another time from your meetings page."],
        link: { label: "Book another time", path: "/meetings/book" },
        attachments: [await inviteAttachment(tx, row!, "/meetings")],
      });
    }
  });
}
