/**
 * The reminder mails (docs/product.md#reminders), each in the one notification layout and queued
 * through the outbox in the caller's transaction. The recipient was checked by the caller
 * ({@link recipientTakesReminders}); these functions only write the mail.
 */
import { formatMailTime } from "#app/features/mail/mail-dates.server";
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { meeting } from "#app/db/schema";
import { ADMIN_RECIPIENT, ORIGIN_TOKEN, queueNotification, type MailLayout } from "#app/features/mail/notifications.server";
import { MEETING_ICS_CONTENT_TYPE } from "#app/features/meetings/meetings.admin.server";
import { inviteFor } from "#app/features/meetings/meetings.server";
import { formatCalendarDate } from "#app/lib/dates";
import { formatCents } from "#app/lib/money";

/** The line every reminder to a client or ambassador ends with. */
export const REMINDER_OPT_OUT_LINE = "You can turn these reminders off on your account page (Notifications).";

/** An invoice reminder's facts. */
export interface InvoiceReminderFacts {
  id: number;
  number: string;
  dueDate: string;
  totalCents: number;
  email: string;
  currency: string;
}

/**
 * Queues an invoice reminder.
 *
 * @param step - days from the due date (negative: before it), or null for "Send reminder now".
 * @returns the outbox id.
 */
export function queueInvoiceReminder(
  q: Queryable,
  f: InvoiceReminderFacts,
  step: number | null,
  today: string,
  layout?: MailLayout,
): Promise<number> {
  const amount = formatCents(f.totalCents, f.currency);
  const due = formatCalendarDate(f.dueDate);
  const dueIn = step ?? daysBetween(today, f.dueDate) * -1;
  const subject =
    dueIn < 0
      ? `Reminder: invoice ${f.number} is due on ${due}`
      : dueIn === 0
        ? `Invoice ${f.number} is due today`
        : `Invoice ${f.number} is overdue`;
  const first =
    dueIn < 0
      ? `This is a friendly reminder that invoice ${f.number} (${amount}) is due on ${due}.`
      : dueIn === 0
        ? `Invoice ${f.number} (${amount}) is due today, ${due}.`
        : `Invoice ${f.number} (${amount}) was due on ${due} and still has a balance due.`;
  return queueNotification(
    q,
    {
      to: f.email,
      subject,
      lines: [first, "If you have already paid, thank you — please ignore this reminder.", REMINDER_OPT_OUT_LINE],
      link: { label: "View the invoice", path: `/view-invoice/${f.id}` },
    },
    layout,
  );
}

/** Days from `a` to `b` (`YYYY-MM-DD`). */
function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Queues a reminder that a proposal waits for the client's answer. @returns the outbox id. */
export function queueProposalReminder(
  q: Queryable,
  f: { id: number; projectName: string | null; email: string },
  layout?: MailLayout,
): Promise<number> {
  const name = f.projectName || "Your proposal";
  return queueNotification(
    q,
    {
      to: f.email,
      subject: `${name} is waiting for your answer`,
      lines: [`The proposal "${name}" is waiting for you to accept or decline it.`, REMINDER_OPT_OUT_LINE],
      link: { label: "Open the proposal", path: `/proposals/${f.id}` },
    },
    layout,
  );
}

/** Queues the reminder of a confirmed meeting, with its `.ics`. @returns the outbox id. */
export async function queueMeetingReminder(q: Queryable, meetingId: number, email: string, layout?: MailLayout): Promise<number> {
  const [row] = await q.select().from(meeting).where(eq(meeting.id, meetingId));
  if (!row) throw new Error(`meeting ${meetingId} vanished`);
  const when = formatMailTime(row.startsAt, row.timeZone);
  return queueNotification(
    q,
    {
      to: email,
      subject: "Reminder: your meeting is coming up",
      lines: [`Your meeting is on ${when}.`, "The calendar invite is attached.", REMINDER_OPT_OUT_LINE],
      link: { label: "Your meetings", path: "/meetings" },
      attachments: [
        {
          filename: `meeting-${row.id}.ics`,
          contentType: MEETING_ICS_CONTENT_TYPE,
          content: await inviteFor(q, row, `${ORIGIN_TOKEN}/meetings`),
        },
      ],
    },
    layout,
  );
}

/** One section of the admin digest. */
export interface DigestSection {
  title: string;
  /** Total (the lines may show only the first few). */
  count: number;
  lines: string[];
  path: string;
}

/** Queues the admin digest (to the support e-mail, else OWNER_EMAIL). @returns the outbox id. */
export function queueAdminDigest(q: Queryable, date: string, sections: DigestSection[]): Promise<number> {
  const total = sections.reduce((n, s) => n + s.count, 0);
  const lines: string[] = [`What waits for you on ${formatCalendarDate(date)}:`];
  for (const s of sections) {
    const more =
      s.count > s.lines.length ? [`  … and ${s.count - s.lines.length} more: ${ORIGIN_TOKEN}${s.path}`] : [`  ${ORIGIN_TOKEN}${s.path}`];
    lines.push(`${s.title} (${s.count}):\n${[...s.lines.map((l) => `  • ${l}`), ...more].join("\n")}`);
  }
  return queueNotification(q, {
    to: ADMIN_RECIPIENT,
    subject: `Daily digest: ${total} item${total === 1 ? "" : "s"} waiting`,
    lines,
    link: { label: "Open the admin console", path: "/admin" },
  });
}
