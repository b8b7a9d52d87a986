/**
 * The admin's side of reminders (docs/product.md#reminders-admin): the history of one record's
 * reminders (from `reminders_sent` and the outbox), "Send reminder now" (at most one reminder per
 * record per hour), and the per-client pause switch.
 */
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice, mailOutbox, meeting, proposal, remindersSent, user } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { rowsOf } from "#app/features/conversations/unread.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { conflict, notFound, rateLimitedFor } from "#app/lib/errors";
import { currencyOf } from "#app/lib/money";
import { formatDateTime } from "#app/lib/dates";
import { queueInvoiceReminder, queueMeetingReminder, queueProposalReminder } from "./reminder-mails.server";
import { invoiceHasBalanceDue, localDate, meetingIsUpcoming, proposalAwaitsClient, recipientTakesReminders } from "./reminder-rules.server";
import { REMINDER_KIND_LABELS, REMINDER_MESSAGES } from "./reminders.messages";

/** The records an admin can see and send reminders for. */
export const REMINDER_RECORD_KINDS = ["invoice", "proposal", "meeting"] as const;
export type ReminderTargetKind = (typeof REMINDER_RECORD_KINDS)[number];

/** @returns the kind when `value` is one, else null. */
export function reminderTargetKind(value: string | undefined): ReminderTargetKind | null {
  return (REMINDER_RECORD_KINDS as readonly string[]).includes(value ?? "") ? (value as ReminderTargetKind) : null;
}

/** "Send reminder now": at most one reminder (automatic or not) per record per this many ms. */
export const SEND_NOW_INTERVAL_MS = 3_600_000;

/** One line of a record's reminder history. */
export interface ReminderHistoryRow {
  id: number;
  /** e.g. "Payment reminder", "Sent now by an admin". */
  label: string;
  /** e.g. "3 days before the due date"; "" when none. */
  stepLabel: string;
  status: "sent" | "skipped";
  /** When the sweep or the admin handled it (ISO, UTC). */
  at: string;
  /** The mail: `queued`, `sent` (with when), `failed`, or `purged` (the outbox keeps sent mails 30 days). */
  mail: { state: "queued" | "sent" | "failed" | "purged"; sentAt: string | null; to: string | null } | null;
  /** The admin who sent it now (e-mail), or null for the sweep. */
  by: string | null;
}

function stepLabel(kind: string, step: string): string {
  const n = Number(step);
  if (kind === "invoice-due") {
    if (n === 0) return "on the due date";
    const days = `${Math.abs(n)} day${Math.abs(n) === 1 ? "" : "s"}`;
    return n < 0 ? `${days} before the due date` : `${days} after the due date`;
  }
  if (kind === "proposal-waiting") return `${n} day${n === 1 ? "" : "s"} after it started waiting`;
  return "";
}

/**
 * A record's reminders, newest first (docs/product.md#reminders-admin).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listRemindersFor(
  q: Queryable,
  actor: Actor,
  recordKind: ReminderTargetKind,
  recordId: number,
): Promise<ReminderHistoryRow[]> {
  assertRole(actor, "admin");
  const rows = await q
    .select({
      id: remindersSent.id,
      kind: remindersSent.kind,
      step: remindersSent.step,
      status: remindersSent.status,
      at: remindersSent.sentAt,
      outboxId: remindersSent.outboxId,
      by: user.email,
      mailTo: mailOutbox.to,
      mailSentAt: mailOutbox.sentAt,
      mailFailedAt: mailOutbox.failedAt,
    })
    .from(remindersSent)
    .leftJoin(mailOutbox, eq(mailOutbox.id, remindersSent.outboxId))
    .leftJoin(user, eq(user.id, remindersSent.sentById))
    .where(and(eq(remindersSent.recordKind, recordKind), eq(remindersSent.recordId, recordId)))
    .orderBy(desc(remindersSent.sentAt), desc(remindersSent.id))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    label: REMINDER_KIND_LABELS[r.kind] ?? r.kind,
    stepLabel: stepLabel(r.kind, r.step),
    status: r.status,
    at: r.at.toISOString(),
    mail:
      r.outboxId === null
        ? null
        : r.mailTo === null
          ? { state: "purged", sentAt: null, to: null }
          : {
              state: r.mailSentAt ? "sent" : r.mailFailedAt ? "failed" : "queued",
              sentAt: r.mailSentAt?.toISOString() ?? null,
              to: r.mailTo,
            },
    by: r.by ?? null,
  }));
}

/** What the reminder page shows of the record. */
export interface ReminderTarget {
  kind: ReminderTargetKind;
  id: number;
  /** e.g. "Invoice INV-2026-0001", "Proposal Bakery site", "Meeting on …". */
  title: string;
  /** Where the record's own admin page is. */
  href: string;
}

/**
 * The record a reminder page is about.
 *
 * @throws {AppError} 403 unless an admin; 404 "Not found" for an unknown record.
 */
export async function getReminderTarget(q: Queryable, actor: Actor, kind: ReminderTargetKind, id: number): Promise<ReminderTarget> {
  assertRole(actor, "admin");
  if (kind === "invoice") {
    const [row] = await q.select({ number: invoice.number }).from(invoice).where(eq(invoice.id, id));
    if (!row) throw notFound(REMINDER_MESSAGES.notFound);
    return { kind, id, title: `Invoice ${row.number}`, href: `/admin/invoices/edit/${id}` };
  }
  if (kind === "proposal") {
    const [row] = await q.select({ name: proposal.projectName }).from(proposal).where(eq(proposal.id, id));
    if (!row) throw notFound(REMINDER_MESSAGES.notFound);
    return { kind, id, title: `Proposal ${row.name || `#${id}`}`, href: `/admin/proposals/${id}` };
  }
  const [row] = await q.select({ startsAt: meeting.startsAt, timeZone: meeting.timeZone }).from(meeting).where(eq(meeting.id, id));
  if (!row) throw notFound(REMINDER_MESSAGES.notFound);
  return {
    kind,
    id,
    title: `Meeting on ${formatDateTime(row.startsAt, row.timeZone)} (${row.timeZone})`,
    href: `/admin/meetings/${id}/reschedule`,
  };
}

/**
 * "Send reminder now" (docs/product.md#reminders-admin): mails the record's reminder at once,
 * recorded as a `manual` reminder and audited (`reminder-sent`). Refused while another reminder
 * of the record went out less than an hour ago, when the reminder is moot, and when the client
 * takes no reminders (paused, turned off, deactivated).
 *
 * @param clock - the injectable clock.
 * @returns the outbox id of the mail.
 * @throws {AppError} 403 unless an admin; 404 for an unknown record; 409 when moot or the client
 *   takes no reminders; 429 (Retry-After) within the hour.
 */
export async function sendReminderNow(
  db: Database,
  actor: Actor,
  kind: ReminderTargetKind,
  id: number,
  clock: Clock = systemClock,
): Promise<{ outboxId: number }> {
  assertRole(actor, "admin");
  const now = clock.now();
  return db.transaction(async (tx) => {
    // One send per record at a time: the hour check below sees the other's row.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reminder:${kind}:${id}`}))`);
    await getReminderTarget(tx, actor, kind, id);
    const [last] = await tx
      .select({ at: remindersSent.sentAt })
      .from(remindersSent)
      .where(
        and(
          eq(remindersSent.recordKind, kind),
          eq(remindersSent.recordId, id),
          eq(remindersSent.status, "sent"),
          gt(remindersSent.sentAt, new Date(now.getTime() - SEND_NOW_INTERVAL_MS)),
        ),
      )
      .orderBy(desc(remindersSent.sentAt))
      .limit(1);
    if (last) {
      const waitMs = last.at.getTime() + SEND_NOW_INTERVAL_MS - now.getTime();
      throw rateLimitedFor(REMINDER_MESSAGES.tooSoon, Math.ceil(waitMs / 1000));
    }
    const outboxId = await queueNow(tx, kind, id, now);
    await tx.insert(remindersSent).values({
      recordKind: kind,
      recordId: id,
      kind: "manual",
      step: now.toISOString(),
      status: "sent",
      dueAt: now,
      sentAt: now,
      outboxId,
      sentById: actor.id,
    });
    await recordAudit(tx, actor, {
      entity: kind,
      entityId: id,
      action: "reminder-sent",
      before: null,
      after: { reminder: "manual", outboxId },
      proposalId: kind === "proposal" ? id : await proposalOf(tx, kind, id),
    });
    return { outboxId };
  });
}

async function proposalOf(q: Queryable, kind: ReminderTargetKind, id: number): Promise<number | null> {
  if (kind === "invoice") {
    const [row] = await q.select({ p: invoice.proposalId }).from(invoice).where(eq(invoice.id, id));
    return row?.p ?? null;
  }
  if (kind === "meeting") {
    const [row] = await q.select({ p: meeting.proposalId }).from(meeting).where(eq(meeting.id, id));
    return row?.p ?? null;
  }
  return id;
}

/** Checks the record is not moot and its client takes reminders, then queues the mail. */
async function queueNow(q: Queryable, kind: ReminderTargetKind, id: number, now: Date): Promise<number> {
  if (kind === "invoice") {
    const [row] = rowsOf<{ number: string; due_date: string; total_cents: number; email: string | null; ok: boolean | null; due: boolean }>(
      await q.execute(sql`
        select i.number, i.due_date::text as due_date, i.total_cents, u.email, ${recipientTakesReminders("u")} as ok, ${invoiceHasBalanceDue("i")} as due
        from invoice i left join "user" u on u.id = i.client_id where i.id = ${id}`),
    );
    if (!row?.due) throw conflict(REMINDER_MESSAGES.moot.invoice);
    if (!row.email || !row.ok) throw conflict(REMINDER_MESSAGES.noRecipient);
    const settings = await getSettings(q);
    return queueInvoiceReminder(
      q,
      {
        id,
        number: row.number,
        dueDate: row.due_date,
        totalCents: Number(row.total_cents),
        email: row.email,
        currency: currencyOf(settings),
      },
      null,
      localDate(now, settings.timeZone),
    );
  }
  if (kind === "proposal") {
    const [row] = rowsOf<{ project_name: string | null; email: string | null; ok: boolean | null; waits: boolean }>(
      await q.execute(sql`
        select p.project_name, u.email, ${recipientTakesReminders("u")} as ok, ${proposalAwaitsClient("p")} as waits
        from proposal p left join "user" u on u.id = p.client_id where p.id = ${id}`),
    );
    if (!row?.waits) throw conflict(REMINDER_MESSAGES.moot.proposal);
    if (!row.email || !row.ok) throw conflict(REMINDER_MESSAGES.noRecipient);
    return queueProposalReminder(q, { id, projectName: row.project_name, email: row.email });
  }
  const [row] = rowsOf<{ email: string | null; ok: boolean | null; upcoming: boolean }>(
    await q.execute(sql`
      select u.email, ${recipientTakesReminders("u")} as ok, (${meetingIsUpcoming(now, "m")}) as upcoming
      from meeting m left join "user" u on u.id = m.user_id where m.id = ${id}`),
  );
  if (!row?.upcoming) throw conflict(REMINDER_MESSAGES.moot.meeting);
  if (!row.email || !row.ok) throw conflict(REMINDER_MESSAGES.noRecipient);
  return queueMeetingReminder(q, id, row.email);
}

/**
 * Pauses or resumes a client's (or ambassador's) reminders (docs/product.md#reminders-admin), audited
 * (`user` `reminders-paused` / `reminders-resumed`). Setting the current value changes nothing.
 *
 * @returns the user's e-mail and whether it changed.
 * @throws {AppError} 403 unless an admin; 404 for an unknown user or an admin.
 */
export async function setRemindersPaused(
  db: Database,
  actor: Actor,
  userId: string,
  paused: boolean,
): Promise<{ email: string; changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ email: user.email, paused: user.remindersPaused, role: user.role })
      .from(user)
      .where(eq(user.id, userId))
      .for("update");
    if (!row || row.role === "admin") throw notFound("User not found");
    if (row.paused === paused) return { email: row.email, changed: false };
    await tx
      .update(user)
      .set({ remindersPaused: paused, updatedAt: sql`now()` })
      .where(eq(user.id, userId));
    await recordAudit(tx, actor, {
      entity: "user",
      entityId: userId,
      action: paused ? "reminders-paused" : "reminders-resumed",
      before: { remindersPaused: row.paused },
      after: { remindersPaused: paused },
    });
    return { email: row.email, changed: true };
  });
}

/** @returns the ids among `userIds` whose reminders are paused (for the users list). */
export async function pausedUserIds(q: Queryable, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await q
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(user.id, userIds), eq(user.remindersPaused, true)));
  return rows.map((r) => r.id);
}
