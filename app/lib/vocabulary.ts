/**
 * The one vocabulary and format module (docs/product.md#vocabulary): every status label, date,
 * time, amount and percentage a person reads — on a page, in an e-mail, in a PDF or in the audit
 * trail — is written by a function of this file, so the same thing has the same name and format
 * on every screen. Pure and shared by the server and the browser (fixed locale en-US, explicit
 * time zone), so server-rendered text and hydrated text are identical.
 */
import type { MeetingStatus, ProposalStatus } from "#app/db/schema";
import { formatCalendarDate, formatDateTime, INVALID_DATE, isValidTimeZone, toValidDate } from "#app/lib/dates";
import { dateTimeFormat } from "#app/lib/intl-cache";
import { DEFAULT_CURRENCY, formatCents } from "#app/lib/money";

// ---------------------------------------------------------------------------------------
// Status words (docs/product.md#status-words)
// ---------------------------------------------------------------------------------------

/** A proposal's status, one label everywhere (the spec's words: pending, planning, in progress, review, completed). */
export const PROPOSAL_STATUS_LABELS: Record<ProposalStatus, string> = {
  submitted: "Submitted",
  pending: "Pending",
  planning: "Planning",
  in_progress: "In progress",
  review: "Review",
  completed: "Completed",
  closed: "Closed",
  awaiting_acceptance: "Awaiting acceptance",
};

/** An invoice as people see it: stored unpaid/paid, overdue derived (docs/product.md#invoice-statuses). */
export type InvoiceStatusWord = "unpaid" | "overdue" | "paid";

/**
 * An invoice's shown status, one label everywhere (the PDF writes it in capitals). `pending` is
 * the list filter's and the derived status's key for "unpaid, not yet due": it reads "Unpaid".
 */
export const INVOICE_STATUS_LABELS: Record<InvoiceStatusWord | "pending" | "partial" | "partial-overdue" | "refunded", string> = {
  unpaid: "Unpaid",
  pending: "Unpaid",
  partial: "Partially paid",
  overdue: "Overdue",
  "partial-overdue": "Partially paid · Overdue",
  paid: "Paid",
  refunded: "Refunded",
};

/** A meeting request's status. */
export const MEETING_STATUS_LABELS: Record<MeetingStatus, string> = {
  pending: "Pending",
  accepted: "Accepted",
  declined: "Declined",
  cancelled: "Cancelled",
};

/** A meeting whose time has passed, whatever its status. */
export const PAST_MEETING_LABEL = "Past";

/** A commission: earned only once the client approved; then unpaid until the admin marks it paid. */
export type CommissionStatusWord = "awaiting-approval" | "unpaid" | "paid";

/** A commission's status, one label everywhere. */
export const COMMISSION_STATUS_LABELS: Record<CommissionStatusWord, string> = {
  "awaiting-approval": "Awaiting client approval",
  unpaid: "Unpaid",
  paid: "Paid",
};

/** @returns the commission's status word from its facts. */
export function commissionStatus(p: { clientApproved: boolean; paid: boolean }): CommissionStatusWord {
  if (p.paid) return "paid";
  return p.clientApproved ? "unpaid" : "awaiting-approval";
}

// ---------------------------------------------------------------------------------------
// Dates and times (docs/product.md#dates)
// ---------------------------------------------------------------------------------------

/**
 * A date, e.g. "Nov 2, 2026".
 *
 * @param value - a calendar date `YYYY-MM-DD` (the same day for everyone), or an instant (Date,
 *   ISO string with a time, epoch ms) read in `timeZone`.
 * @param timeZone - IANA zone for instants (default UTC; an unknown zone falls back to UTC).
 * @returns the text, or "Invalid Date" when the value is not a real date.
 */
export function formatDate(value: Date | string | number | null | undefined, timeZone = "UTC"): string {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatCalendarDate(value);
  const date = toValidDate(value);
  if (!date) return INVALID_DATE;
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  return dateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: zone }).format(date);
}

/**
 * A date with time and zone, e.g. "Nov 2, 2026, 2:30 PM EST".
 *
 * @param value - the instant (Date, ISO string or epoch ms).
 * @param timeZone - IANA zone the time is shown in (the viewer's, or a meeting's own); default UTC.
 * @returns the text, or "Invalid Date" when the value is not a real instant.
 */
export function formatTime(value: Date | string | number | null | undefined, timeZone = "UTC"): string {
  return formatDateTime(value, timeZone);
}

/**
 * A time of day, e.g. "9:00 AM" (a meeting slot in the viewer's zone).
 *
 * @param value - the instant; `timeZone` the zone it is read in.
 */
export function formatClock(value: Date, timeZone = "UTC"): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  return dateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: zone }).format(value);
}

/**
 * A calendar date with its weekday, e.g. "Monday, June 8, 2026" (`short`: "Mon, Jun 8").
 *
 * @param date - `YYYY-MM-DD`.
 */
export function formatDay(date: string, style: "long" | "short" = "long"): string {
  const instant = new Date(`${date}T12:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isFinite(instant.getTime())) return INVALID_DATE;
  return dateTimeFormat(
    "en-US",
    style === "long"
      ? { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }
      : { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" },
  ).format(instant);
}

/**
 * A time zone as people read it: "America/New_York (EDT)", the short name at `at`.
 */
export function formatZone(timeZone: string, at: Date = new Date()): string {
  if (!isValidTimeZone(timeZone)) return "UTC";
  const short = dateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  return short && short !== timeZone ? `${timeZone} (${short})` : timeZone;
}

// ---------------------------------------------------------------------------------------
// Counts (docs/product.md#vocabulary): plural forms through Intl.PluralRules
// ---------------------------------------------------------------------------------------

const pluralRules = new Intl.PluralRules("en-US");

/**
 * A count with its noun in the right plural form, e.g. `countOf(1, "invoice")` → "1 invoice",
 * `countOf(3, "invoice")` → "3 invoices", `countOf(2, "person", "people")` → "2 people".
 *
 * @param n - the count (written with en-US digit grouping).
 * @param one - the singular noun; `other` the plural (default: `one` + "s").
 */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${pluralRules.select(n) === "one" ? one : other}`;
}

/** The largest count a badge or a "n unread" line shows; above it they say "99+". */
export const SHOWN_COUNT_MAX = 99;

/** A badge's count: "99+" above {@link SHOWN_COUNT_MAX}. */
export function cappedCount(n: number): string {
  return n > SHOWN_COUNT_MAX ? `${SHOWN_COUNT_MAX}+` : n.toLocaleString("en-US");
}

/** {@link countOf} with the count capped like a badge ("99+ unread messages"). */
export function cappedCountOf(n: number, one: string, other = `${one}s`): string {
  return n > SHOWN_COUNT_MAX ? `${cappedCount(n)} ${other}` : countOf(n, one, other);
}

/** The noun alone in the form `n` asks for ("invoice" / "invoices"). */
export function nounFor(n: number, one: string, other = `${one}s`): string {
  return pluralRules.select(n) === "one" ? one : other;
}

// ---------------------------------------------------------------------------------------
// Money and percentages (docs/product.md#money)
// ---------------------------------------------------------------------------------------

/**
 * An amount, e.g. "$5,000.50" (en-US currency format), "—" when missing.
 *
 * @param cents - integer cents.
 * @param currency - ISO 4217 code, the settings' currency (default USD).
 */
export function formatMoney(cents: number | null | undefined, currency = DEFAULT_CURRENCY): string {
  return formatCents(cents, currency || DEFAULT_CURRENCY);
}

/**
 * A rate in basis points as a percentage, e.g. 1500 → "15%", 1250 → "12.5%", 1234 → "12.34%".
 *
 * @param bps - basis points (1 % = 100).
 */
export function formatPercent(bps: number): string {
  const whole = Math.floor(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${fraction ? `${whole}.${fraction}` : whole}%`;
}

// ---------------------------------------------------------------------------------------
// Audit values (docs/product.md#audit)
// ---------------------------------------------------------------------------------------

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * One value of an audit event's before/after, written with the vocabulary: instants as
 * "Nov 2, 2026, 2:30 PM EST" (in `timeZone`), calendar dates as "Nov 2, 2026", `…Cents` fields
 * as money, `…Bps` fields as percentages, statuses with their labels, null as "—".
 *
 * @param entity - what the event is about (proposal, invoice, meeting, commission …).
 * @param field - the changed field's name, e.g. `status`, `paidAt`, `totalCents`.
 * @param value - the stored JSON value.
 * @param options.timeZone - zone of instants (the viewer's); options.currency - the settings' currency.
 * @returns the text shown in the audit trail.
 */
export function formatAuditValue(
  entity: string,
  field: string,
  value: unknown,
  options: { timeZone?: string; currency?: string } = {},
): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "number" && /Cents$/.test(field)) return formatMoney(value, options.currency);
  if (typeof value === "number" && /Bps$/.test(field)) return formatPercent(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string") {
    if (ISO_INSTANT.test(value)) return formatTime(value, options.timeZone);
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value);
    if (field === "status") {
      if (entity === "proposal" && value in PROPOSAL_STATUS_LABELS) return PROPOSAL_STATUS_LABELS[value as ProposalStatus];
      if (entity === "invoice" && value in INVOICE_STATUS_LABELS) return INVOICE_STATUS_LABELS[value as InvoiceStatusWord];
      if (entity === "meeting" && value in MEETING_STATUS_LABELS) return MEETING_STATUS_LABELS[value as MeetingStatus];
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => formatAuditValue(entity, field, v, options)).join(", ");
  return JSON.stringify(value);
}
