/**
 * The admin digest's content (docs/product.md#reminders): what is overdue and what waits for the
 * agency — the same items as the dashboard's "Waiting for you" (docs/product.md#admin-dashboard),
 * each with a count and its first few records.
 */
import { formatMailTime } from "#app/features/mail/mail-dates.server";
import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/features/conversations/unread.server";
import { formatCalendarDate } from "#app/lib/dates";
import { formatCents } from "#app/lib/money";
import type { DigestSection } from "./reminder-mails.server";
import { invoiceHasBalanceDue, localDate } from "./reminder-rules.server";

/** Records listed per section (the count says how many there are). */
export const DIGEST_LINES = 10;

type Counted<T> = T & { total: number };

/**
 * @param now - the clock's instant; "overdue" is a due date before the agency-local today.
 * @returns the non-empty sections (an empty array: nothing waits, no digest).
 */
export async function collectDigest(q: Queryable, now: Date, timeZone: string, currency: string): Promise<DigestSection[]> {
  const today = localDate(now, timeZone);
  const at = now.toISOString();
  // One after the other: the sweep's transaction is one connection.
  const queries: SQL[] = [
    sql`
      select i.number, i.total_cents, i.due_date::text as due_date, coalesce(nullif(u.business_name, ''), u.name, p.client_name, '') as client,
        count(*) over () as total
      from invoice i left join proposal p on p.id = i.proposal_id left join "user" u on u.id = i.client_id
      where ${invoiceHasBalanceDue("i")} and i.due_date < ${today}::date
      order by i.due_date, i.id limit ${DIGEST_LINES}`,
    sql`
      select coalesce(nullif(p.project_name, ''), 'Untitled project') as name, coalesce(p.client_name, '') as client, count(*) over () as total
      from proposal p where p.status = 'pending'
      order by p.created_at desc, p.id desc limit ${DIGEST_LINES}`,
    sql`
      select coalesce(nullif(p.project_name, ''), 'Untitled project') as name, count(*) over () as total
      from proposal p where p.status = 'review' and p.revision_comment is not null and p.revision_comment <> ''
      order by p.updated_at desc, p.id desc limit ${DIGEST_LINES}`,
    sql`
      select m.starts_at, m.time_zone, coalesce(nullif(u.business_name, ''), u.name, '') as client, count(*) over () as total
      from meeting m join "user" u on u.id = m.user_id
      where m.status = 'pending' and m.starts_at > ${at}::timestamptz
      order by m.starts_at, m.id limit ${DIGEST_LINES}`,
    // Conversations whose latest client message no admin has read.
    sql`
      select coalesce(nullif(p.project_name, ''), 'Untitled project') as name, count(*) over () as total
      from proposal_thread t join proposal p on p.id = t.proposal_id
      where t.last_client_message_id > coalesce((
        select max(r.last_read_message_id) from proposal_read r join "user" a on a.id = r.user_id and a.role = 'admin'
        where r.proposal_id = t.proposal_id), 0)
      order by t.last_activity_at desc limit ${DIGEST_LINES}`,
  ];
  const results: unknown[] = [];
  for (const query of queries) results.push(await q.execute(query));
  const [overdue, requests, revisions, meetings, unread] = results;
  const sections: DigestSection[] = [];
  const add = <T>(title: string, path: string, result: unknown, line: (row: Counted<T>) => string) => {
    const rows = rowsOf<Counted<T>>(result);
    if (rows.length) sections.push({ title, path, count: Number(rows[0]!.total), lines: rows.map(line) });
  };
  add<{ number: string; total_cents: number; due_date: string; client: string }>(
    "Overdue invoices",
    "/admin/invoices?status=overdue",
    overdue,
    (r) => `${r.number} · ${r.client || "—"} · ${formatCents(Number(r.total_cents), currency)} · due ${formatCalendarDate(r.due_date)}`,
  );
  add<{ name: string; client: string }>("New proposal requests", "/admin/proposals?status=pending", requests, (r) =>
    r.client ? `${r.name} · ${r.client}` : r.name,
  );
  add<{ name: string }>("Revision requests", "/admin/proposals?status=review", revisions, (r) => r.name);
  add<{ starts_at: string | Date; time_zone: string; client: string }>(
    "Meeting requests",
    "/admin/meetings?show=awaiting",
    meetings,
    (r) => `${r.client || "—"} · ${formatMailTime(new Date(r.starts_at), timeZone)}`,
  );
  add<{ name: string }>("Unread client messages", "/admin/conversations", unread, (r) => r.name);
  return sections;
}
