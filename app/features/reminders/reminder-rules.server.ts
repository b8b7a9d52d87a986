/**
 * When a reminder is moot (docs/product.md#reminders): one definition per record kind, as SQL
 * conditions, used by the sweep (in its indexed queries) and by "Send reminder now" alike.
 *
 * {@link invoiceHasBalanceDue} is THE predicate "an invoice still has a balance due": the stored
 * status `unpaid`, which the payments keep in step with the derived balance in the transaction of
 * every payment, refund and total change (`syncInvoiceStatus`, docs/product.md#payments, ADR 013), so
 * the sweep reads it through the status index; nothing else in the reminders reads the invoice's status.
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { tz } from "@date-fns/tz";
import { sql, type SQL } from "drizzle-orm";
import type { ProposalStatus } from "#app/db/enums";
import { firstValidTimeZone } from "#app/lib/dates";

/**
 * "The invoice `i` still has a balance due" (the ONE predicate, see the merge note above).
 *
 * @param i - the SQL alias of the `invoice` row.
 */
export function invoiceHasBalanceDue(i = "i"): SQL {
  return sql.raw(`${i}.status = 'unpaid'`);
}

/**
 * The statuses in which a proposal may wait for the client's acceptance (docs/product.md#accept-and-sign):
 * `awaiting_acceptance`, set when the agency sends an offer version, and `submitted` once a version
 * exists (an ambassador's proposal has version 1 from its submission). The partial index
 * `proposal_awaiting_client_idx` (migration 0022) covers both.
 */
export const AWAITING_CLIENT_STATUSES: readonly ProposalStatus[] = ["awaiting_acceptance", "submitted"];

const awaitingList = AWAITING_CLIENT_STATUSES.map((s) => `'${s}'`).join(", ");

/**
 * "The proposal `p` waits for the client's acceptance": it has a version to accept, in one of
 * {@link AWAITING_CLIENT_STATUSES}, neither accepted nor declined (a deleted proposal has no row).
 */
export function proposalAwaitsClient(p = "p"): SQL {
  return sql.raw(
    `${p}.status in (${awaitingList}) and ${p}.client_approved_at is null and ${p}.client_declined_at is null and ${p}.client_id is not null` +
      ` and (${p}.status = 'awaiting_acceptance' or exists (select 1 from proposal_version v where v.proposal_id = ${p}.id))`,
  );
}

/** The audit condition "this status change set a waiting status" on audit row `a`. */
export function setAwaitingStatus(a = "a"): SQL {
  return sql.raw(`${a}.after->>'status' in (${awaitingList})`);
}

/**
 * When proposal `p` entered the waiting status: the latest audit event that set it (a status change
 * or an Undo back to it), else its creation (an ambassador's proposal starts `submitted`).
 */
export function proposalAwaitingSince(p = "p"): SQL {
  return sql.raw(`greatest(${p}.created_at, coalesce((
    select max(a.created_at) from audit_event a
    where a.proposal_id = ${p}.id and a.entity = 'proposal' and a.action in ('status-changed', 'status-undone')
      and a.after->>'status' in (${awaitingList})), ${p}.created_at))`);
}

/**
 * "The meeting `m` is a confirmed meeting still ahead" at `now`.
 */
export function meetingIsUpcoming(now: Date, m = "m"): SQL {
  return sql`${sql.raw(`${m}.status`)} = 'accepted' and ${sql.raw(`${m}.starts_at`)} > ${now.toISOString()}::timestamptz`;
}

/**
 * "User `u` may get reminders": a client or ambassador, active (not deactivated, not closed), not
 * paused by an admin, and who did not turn reminders off.
 */
export function recipientTakesReminders(u = "u"): SQL {
  return sql.raw(
    `${u}.role in ('client', 'ambassador') and coalesce(${u}.banned, false) = false and ${u}.closed_at is null and ${u}.reminders_paused = false and ${u}.notify_reminders = true`,
  );
}

// --- Agency-local time ----------------------------------------------------------------------

/** The reminders' hour of day in the agency's zone: invoices at 09:00, the digest at 08:00. */
export const INVOICE_REMINDER_HOUR = 9;
export const DIGEST_HOUR = 8;

/** @returns the agency-local calendar date (`YYYY-MM-DD`) of `instant`. */
export function localDate(instant: Date, timeZone: string): string {
  return format(instant, "yyyy-MM-dd", { in: tz(firstValidTimeZone(timeZone)) });
}

/** @returns the instant of `hour`:00 on the agency-local `date`. */
export function localInstant(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, 0, firstValidTimeZone(timeZone)).getTime());
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic). */
export function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The agency-local dates whose `hour`:00 falls in the window (from, to].
 *
 * @returns the first and last such date, or null when none.
 */
export function datesInWindow(from: Date, to: Date, hour: number, timeZone: string): { first: string; last: string } | null {
  let last = localDate(to, timeZone);
  if (localInstant(last, hour, timeZone) > to) last = plusDays(last, -1);
  let first = localDate(from, timeZone);
  if (localInstant(first, hour, timeZone) <= from) first = plusDays(first, 1);
  return first <= last ? { first, last } : null;
}
