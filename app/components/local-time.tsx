/**
 * Dates in the viewer's locale and time zone (design: timestamps are UTC, shown in the
 * viewer's zone). The server cannot know the viewer's zone, so it renders a stated zone
 * (the meeting's own zone, else UTC, always labelled); once hydrated, the browser
 * re-renders with its own locale and zone.
 */
import { formatDateTime } from "#app/lib/dates";
import { dateTimeFormat } from "#app/lib/intl-cache";
import { useHydrated } from "#app/lib/use-hydrated";

type Style = "date" | "datetime";

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "short", day: "numeric" },
  datetime: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
};

function format(date: Date, style: Style, hydrated: boolean, fallbackZone: string): string {
  if (hydrated) return dateTimeFormat(undefined, OPTIONS[style]).format(date);
  return dateTimeFormat("en-US", { ...OPTIONS[style], timeZone: fallbackZone }).format(date);
}

/**
 * An instant, e.g. "May 11, 2026, 9:30 AM EDT".
 *
 * @param value - a UTC instant.
 * @param timeZone - zone used before hydration (default UTC), e.g. the meeting's zone.
 * @param style - "datetime" (default) or "date".
 */
export function LocalDateTime({ value, timeZone = "UTC", style = "datetime" }: { value: Date | string; timeZone?: string; style?: Style }) {
  const hydrated = useHydrated();
  const date = value instanceof Date ? value : new Date(value);
  return <time dateTime={date.toISOString()}>{format(date, style, hydrated, timeZone)}</time>;
}

/**
 * A calendar date without time (`YYYY-MM-DD`, e.g. an invoice's due date): the same day for
 * every viewer, written in their locale.
 */
export function LocalDate({ value }: { value: string }) {
  const hydrated = useHydrated();
  const date = new Date(`${value}T00:00:00Z`);
  const text = dateTimeFormat(hydrated ? undefined : "en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);
  return <time dateTime={value}>{text}</time>;
}

/**
 * An instant with weekday and zone, e.g. "Tue, Mar 3, 2026, 2:00 PM EST" (admin tables).
 * Before hydration it reads in UTC (or `timeZone`), afterwards in the viewer's zone. A value
 * that is not an instant reads "Invalid Date" (spec §8).
 *
 * @param value - ISO string (UTC) or null.
 * @param timeZone - a fixed zone instead of the viewer's (e.g. the zone a client picked).
 * @param fallback - text shown when `value` is null.
 */
export function LocalTime({ value, timeZone, fallback }: { value: string | null; timeZone?: string; fallback?: string }) {
  const hydrated = useHydrated();
  if (!value && fallback) return <span>{fallback}</span>;
  const zone = timeZone ?? (hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC");
  const text = formatDateTime(value, zone);
  return value ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
