/**
 * Times in e-mails (issue #41): in the reader's time zone and in words — "28 Nov 2026, 23:50 UTC",
 * "29 Nov 2026, 00:50 GMT+1" — never a raw ISO string. Formatted by date-fns in the zone with
 * `@date-fns/tz`; the zone's short name is the runtime's (Intl, en-US: "UTC", "EST", "GMT+1").
 *
 * The reader's zone is the one their browser last stated (`user.time_zone`: recorded at sign-in from
 * the `tz` cookie, when they book a meeting or sign an offer), else the agency's (Settings).
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { user } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { isValidTimeZone } from "#app/lib/dates";
import { dateTimeFormat } from "#app/lib/intl-cache";

/** The zone's short name at `date`, e.g. "UTC", "EST", "GMT+1". */
function zoneName(date: Date, timeZone: string): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  const part = dateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/**
 * @param value - the instant.
 * @param timeZone - the reader's IANA zone; an unknown one falls back to UTC.
 * @returns e.g. "28 Nov 2026, 23:50 UTC" (24-hour clock), or "an unknown time" for an invalid instant.
 */
export function formatMailTime(value: Date, timeZone: string): string {
  if (!Number.isFinite(value.getTime())) return "an unknown time";
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  return `${format(new TZDate(value, zone), "d MMM yyyy, HH:mm")} ${zoneName(value, zone)}`;
}

/**
 * @returns the calendar day of `value` in `timeZone`, e.g. "28 Nov 2026".
 */
export function formatMailDate(value: Date, timeZone: string): string {
  if (!Number.isFinite(value.getTime())) return "an unknown date";
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  return format(new TZDate(value, zone), "d MMM yyyy");
}

/**
 * The zone a person reads their mail in: the one their browser last stated, else the agency's.
 *
 * @param userId - the reader; null (an address without an account) → the agency's zone.
 */
export async function readerTimeZone(q: Queryable, userId: string | null | undefined): Promise<string> {
  if (userId) {
    const [row] = await q.select({ timeZone: user.timeZone }).from(user).where(eq(user.id, userId));
    if (row?.timeZone && isValidTimeZone(row.timeZone)) return row.timeZone;
  }
  const { timeZone } = await getSettings(q);
  return isValidTimeZone(timeZone) ? timeZone : "UTC";
}

/**
 * Records the zone a person's browser stated (sign-in, booking, signing), when it is a real zone and
 * differs from the one held. Never throws for a bad zone: it is ignored.
 */
export async function rememberTimeZone(q: Queryable, userId: string, timeZone: string | null | undefined): Promise<void> {
  if (!timeZone || !isValidTimeZone(timeZone)) return;
  const [row] = await q.select({ timeZone: user.timeZone }).from(user).where(eq(user.id, userId));
  if (!row || row.timeZone === timeZone) return;
  await q.update(user).set({ timeZone }).where(eq(user.id, userId));
}
