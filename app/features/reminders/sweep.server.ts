/**
 * The reminder sweep (docs/product.md#reminders, ADR 018): the `reminders` job, every minute (cron,
 * ADR 019), one transaction that
 * 1. takes `pg_try_advisory_xact_lock` — another instance sweeping now makes this pass a no-op;
 * 2. reads the watermark `reminder_sweep.swept_until` (W) and the clock's now (N): every reminder
 *    moment in (W, N] is handled in this pass, so a pass after downtime covers the whole downtime;
 * 3. per kind, finds with indexed range queries the records that have a moment in (W, N] and are
 *    not moot, takes each record's LATEST due step, records it in `reminders_sent` (unique per
 *    record, kind and step) and queues its mail; earlier steps passed over in the window are
 *    recorded `skipped` — after downtime one reminder per record, never a burst;
 * 4. moves the watermark to N.
 * The mails are written in the same transaction as the ledger rows (the outbox delivers them).
 *
 * Moments: invoices at 09:00 agency-local on due date + day; proposals at awaiting-since + days × 24 h;
 * meetings 24 h before their start; the digest at 08:00 agency-local. The first pass of an
 * installation only sets the watermark (no reminder for moments before the feature existed).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { reminderSweep, remindersSent, type ReminderRecordKind } from "#app/db/schema";
import { rowsOf } from "#app/features/conversations/unread.server";
import { loadMailLayout, type MailLayout } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { logger } from "#app/lib/logger.server";
import { currencyOf } from "#app/lib/money";
import { queueAdminDigest, queueInvoiceReminder, queueMeetingReminder, queueProposalReminder } from "./reminder-mails.server";
import {
  DIGEST_HOUR,
  INVOICE_REMINDER_HOUR,
  datesInWindow,
  invoiceHasBalanceDue,
  localDate,
  localInstant,
  meetingIsUpcoming,
  plusDays,
  proposalAwaitingSince,
  proposalAwaitsClient,
  setAwaitingStatus,
  recipientTakesReminders,
} from "./reminder-rules.server";
import { getReminderSettings } from "./reminder-settings.server";
import { collectDigest } from "./digest.server";

/** Arbitrary constant for the sweep's advisory lock. */
export const REMINDER_SWEEP_LOCK_ID = 727_274_260;

/** What a pass did. */
export interface SweepResult {
  /** False when another process held the sweep (nothing done). */
  ran: boolean;
  sent: number;
  skipped: number;
  from?: Date;
  to?: Date;
}

const DAY_MS = 86_400_000;

/** One ledger row to write. */
interface LedgerRow {
  recordKind: ReminderRecordKind;
  recordId: number;
  kind: string;
  step: string;
  dueAt: Date;
}

/**
 * Writes a ledger row unless it exists.
 *
 * @returns the row id, or null when the (record, kind, step) was already recorded.
 */
async function claim(q: Queryable, row: LedgerRow, status: "sent" | "skipped", now: Date): Promise<number | null> {
  const [inserted] = await q
    .insert(remindersSent)
    .values({ ...row, status, sentAt: now })
    .onConflictDoNothing()
    .returning({ id: remindersSent.id });
  return inserted?.id ?? null;
}

async function layoutOf(ctx: PassContext): Promise<MailLayout> {
  ctx.layout ??= await loadMailLayout(ctx.tx);
  return ctx.layout;
}

async function attachOutbox(q: Queryable, id: number, outboxId: number) {
  await q.update(remindersSent).set({ outboxId }).where(eq(remindersSent.id, id));
}

/** The steps already recorded per record of one kind. */
async function recordedSteps(q: Queryable, recordKind: ReminderRecordKind, kind: string, ids: number[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q
    .select({ recordId: remindersSent.recordId, step: remindersSent.step })
    .from(remindersSent)
    .where(and(eq(remindersSent.recordKind, recordKind), inArray(remindersSent.recordId, ids), eq(remindersSent.kind, kind)));
  return new Set(rows.map((r) => `${r.recordId}:${r.step}`));
}

/**
 * Runs one sweep pass (see the module comment).
 *
 * @param clock - the injectable clock (tests move it).
 * @returns what was sent and skipped; `ran: false` when another process was sweeping.
 */
export async function runReminderSweep(db: Database, clock: Clock = systemClock): Promise<SweepResult> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const lock = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${REMINDER_SWEEP_LOCK_ID}) as locked`));
    if (!lock[0]?.locked) return { ran: false, sent: 0, skipped: 0 };
    const [state] = await tx.select().from(reminderSweep).where(eq(reminderSweep.id, 1));
    // The first pass of an installation starts the watermark: nothing before it is sent.
    const from = state?.sweptUntil ?? now;
    const result: SweepResult = { ran: true, sent: 0, skipped: 0, from, to: now };
    if (from >= now) {
      if (!state) await tx.insert(reminderSweep).values({ id: 1, sweptUntil: now }).onConflictDoNothing();
      return result;
    }
    // Sequential reads: one connection (the transaction) serves them.
    const settings = await getReminderSettings(tx);
    const agency = await getSettings(tx);
    const ctx: PassContext = { tx, from, now, timeZone: agency.timeZone, currency: currencyOf(agency), result, layout: undefined };
    if (settings.invoiceEnabled && settings.invoiceDays.length) await sweepInvoices(ctx, settings.invoiceDays);
    if (settings.proposalEnabled && settings.proposalDays.length) await sweepProposals(ctx, settings.proposalDays);
    if (settings.meetingEnabled) await sweepMeetings(ctx);
    if (settings.digestEnabled) await sweepDigest(ctx);
    await tx
      .insert(reminderSweep)
      .values({ id: 1, sweptUntil: now })
      .onConflictDoUpdate({ target: reminderSweep.id, set: { sweptUntil: now } });
    if (result.sent || result.skipped) logger.info({ sent: result.sent, skipped: result.skipped }, "reminders: sweep");
    return result;
  });
}

interface PassContext {
  tx: Queryable;
  /** The mail layout's settings and brand, read once per pass (at the first mail). */
  layout: MailLayout | undefined;
  from: Date;
  now: Date;
  timeZone: string;
  currency: string;
  result: SweepResult;
}

/**
 * Invoices: step d is due at 09:00 agency-local on due date + d. The dates whose 09:00 fell in
 * (W, N] give, per step, a due-date range: one index range on `invoice_unpaid_due_idx` each.
 */
async function sweepInvoices(ctx: PassContext, days: number[]): Promise<void> {
  const window = datesInWindow(ctx.from, ctx.now, INVOICE_REMINDER_HOUR, ctx.timeZone);
  if (!window) return;
  const ranges = sql.join(
    days.map((d) => sql`(i.due_date between ${plusDays(window.first, -d)}::date and ${plusDays(window.last, -d)}::date)`),
    sql` or `,
  );
  const candidates = rowsOf<{ id: number; number: string; due_date: string; total_cents: number; email: string }>(
    await ctx.tx.execute(sql`
      select i.id, i.number, i.due_date::text as due_date, i.total_cents, u.email
      from invoice i join "user" u on u.id = i.client_id
      where ${invoiceHasBalanceDue("i")} and (${ranges}) and ${recipientTakesReminders("u")}`),
  );
  const done = await recordedSteps(
    ctx.tx,
    "invoice",
    "invoice-due",
    candidates.map((c) => c.id),
  );
  for (const c of candidates) {
    const due = days.filter((d) => plusDays(c.due_date, d) <= window.last);
    const latest = due.at(-1);
    if (latest === undefined || done.has(`${c.id}:${latest}`)) continue;
    const moment = (d: number) => localInstant(plusDays(c.due_date, d), INVOICE_REMINDER_HOUR, ctx.timeZone);
    const id = await claim(
      ctx.tx,
      { recordKind: "invoice", recordId: c.id, kind: "invoice-due", step: String(latest), dueAt: moment(latest) },
      "sent",
      ctx.now,
    );
    if (id === null) continue;
    const outboxId = await queueInvoiceReminder(
      ctx.tx,
      { id: c.id, number: c.number, dueDate: c.due_date, totalCents: Number(c.total_cents), email: c.email, currency: ctx.currency },
      latest,
      localDate(ctx.now, ctx.timeZone),
      await layoutOf(ctx),
    );
    await attachOutbox(ctx.tx, id, outboxId);
    ctx.result.sent++;
    for (const d of due.slice(0, -1)) {
      if (done.has(`${c.id}:${d}`) || plusDays(c.due_date, d) < window.first) continue;
      if (
        await claim(
          ctx.tx,
          { recordKind: "invoice", recordId: c.id, kind: "invoice-due", step: String(d), dueAt: moment(d) },
          "skipped",
          ctx.now,
        )
      )
        ctx.result.skipped++;
    }
  }
}

/**
 * Proposals waiting for the client: step d is due at awaiting-since + d days. Candidates: those
 * created in the window ranges (partial index `proposal_awaiting_client_idx`) or set back to the
 * waiting status then (audit index `audit_event_entity_created_idx`).
 */
async function sweepProposals(ctx: PassContext, days: number[]): Promise<void> {
  // Per step d, the moment since + d is in (W, N] when `since` is in (W − d, N − d].
  const range = (column: string) =>
    sql.join(
      days.map(
        (d) =>
          sql`(${sql.raw(column)} > ${new Date(ctx.from.getTime() - d * DAY_MS).toISOString()}::timestamptz and ${sql.raw(column)} <= ${new Date(ctx.now.getTime() - d * DAY_MS).toISOString()}::timestamptz)`,
      ),
      sql` or `,
    );
  // Two index range sets (the partial index on created_at, the audit trail by time), united by id:
  // an OR across them would make the planner read the whole partial index.
  const candidates = rowsOf<{ id: number; project_name: string | null; email: string; since: string | Date }>(
    await ctx.tx.execute(sql`
      with ids as (
        select p.id from proposal p where ${proposalAwaitsClient("p")} and (${range("p.created_at")})
        union
        select a.proposal_id from audit_event a
        where a.entity = 'proposal' and a.action in ('status-changed', 'status-undone') and (${range("a.created_at")})
          and ${setAwaitingStatus("a")} and a.proposal_id is not null)
      select p.id, p.project_name, u.email, ${proposalAwaitingSince("p")} as since
      from ids join proposal p on p.id = ids.id join "user" u on u.id = p.client_id
      where ${proposalAwaitsClient("p")} and ${recipientTakesReminders("u")}`),
  );
  const done = await recordedSteps(
    ctx.tx,
    "proposal",
    "proposal-waiting",
    candidates.map((c) => c.id),
  );
  for (const c of candidates) {
    const since = new Date(c.since).getTime();
    const moment = (d: number) => new Date(since + d * DAY_MS);
    const due = days.filter((d) => moment(d) <= ctx.now);
    const latest = due.at(-1);
    if (latest === undefined || moment(latest) <= ctx.from || done.has(`${c.id}:${latest}`)) continue;
    const id = await claim(
      ctx.tx,
      { recordKind: "proposal", recordId: c.id, kind: "proposal-waiting", step: String(latest), dueAt: moment(latest) },
      "sent",
      ctx.now,
    );
    if (id === null) continue;
    await attachOutbox(
      ctx.tx,
      id,
      await queueProposalReminder(ctx.tx, { id: c.id, projectName: c.project_name, email: c.email }, await layoutOf(ctx)),
    );
    ctx.result.sent++;
    for (const d of due.slice(0, -1)) {
      if (done.has(`${c.id}:${d}`) || moment(d) <= ctx.from) continue;
      if (
        await claim(
          ctx.tx,
          { recordKind: "proposal", recordId: c.id, kind: "proposal-waiting", step: String(d), dueAt: moment(d) },
          "skipped",
          ctx.now,
        )
      )
        ctx.result.skipped++;
    }
  }
}

/**
 * Meetings: 24 h before a confirmed meeting still ahead (`meeting_active_starts_idx`). The step
 * names the invite's SEQUENCE, so a moved meeting is reminded of its new time once.
 */
async function sweepMeetings(ctx: PassContext): Promise<void> {
  const lo = new Date(ctx.from.getTime() + DAY_MS).toISOString();
  const hi = new Date(ctx.now.getTime() + DAY_MS).toISOString();
  const candidates = rowsOf<{ id: number; sequence: number; starts_at: string | Date; email: string }>(
    await ctx.tx.execute(sql`
      select m.id, m.sequence, m.starts_at, u.email
      from meeting m join "user" u on u.id = m.user_id
      where m.status in ('pending', 'accepted') and ${meetingIsUpcoming(ctx.now, "m")}
        and m.starts_at > ${lo}::timestamptz and m.starts_at <= ${hi}::timestamptz
        and ${recipientTakesReminders("u")}`),
  );
  for (const c of candidates) {
    const step = `24h-s${c.sequence}`;
    const dueAt = new Date(new Date(c.starts_at).getTime() - DAY_MS);
    const id = await claim(ctx.tx, { recordKind: "meeting", recordId: c.id, kind: "meeting-24h", step, dueAt }, "sent", ctx.now);
    if (id === null) continue;
    await attachOutbox(ctx.tx, id, await queueMeetingReminder(ctx.tx, c.id, c.email, await layoutOf(ctx)));
    ctx.result.sent++;
  }
}

/**
 * The admin digest: at 08:00 agency-local, once per agency-local day (the latest such moment in
 * the window), sent only when something waits; an empty day is recorded `skipped`.
 */
async function sweepDigest(ctx: PassContext): Promise<void> {
  const window = datesInWindow(ctx.from, ctx.now, DIGEST_HOUR, ctx.timeZone);
  if (!window) return;
  const date = window.last;
  const row: LedgerRow = {
    recordKind: "agency",
    recordId: 1,
    kind: "admin-digest",
    step: date,
    dueAt: localInstant(date, DIGEST_HOUR, ctx.timeZone),
  };
  const sections = await collectDigest(ctx.tx, ctx.now, ctx.timeZone, ctx.currency);
  const id = await claim(ctx.tx, row, sections.length ? "sent" : "skipped", ctx.now);
  if (id === null) return;
  if (!sections.length) {
    ctx.result.skipped++;
    return;
  }
  await attachOutbox(ctx.tx, id, await queueAdminDigest(ctx.tx, date, sections));
  ctx.result.sent++;
}
