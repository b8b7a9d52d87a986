/**
 * Dates and times as people read them (docs/product.md#dates), written by the vocabulary module
 * (app/lib/vocabulary.ts) in the viewer's time zone.
 *
 * The viewer's zone comes from the `tz` cookie the browser sets once the page has loaded (read by
 * the root loader, see `viewerTimeZoneFrom`), so the server renders the very text the browser
 * renders: no flash of another zone at hydration. Before the first page load has set the cookie,
 * the stated fallback zone is used (a meeting's own zone, else UTC), labelled with its zone name.
 */
import { useRouteLoaderData } from "react-router";
import { INVALID_DATE } from "#app/lib/dates";
import { formatDate, formatTime } from "#app/lib/vocabulary";

/** @returns the viewer's IANA time zone (from the root loader), or null when not known yet. */
export function useViewerTimeZone(): string | null {
  const root = useRouteLoaderData("root") as { timeZone?: string | null } | undefined;
  return root?.timeZone ?? null;
}

type Style = "date" | "datetime";

/**
 * An instant, e.g. "Nov 2, 2026, 2:30 PM EST" (or "Nov 2, 2026" with `style="date"`).
 *
 * @param value - a UTC instant (Date or ISO string).
 * @param timeZone - the zone used when the viewer's is not known yet (default UTC), e.g. the meeting's zone.
 * @param fixedZone - always this zone (e.g. "the client's time"), whatever the viewer's.
 */
export function LocalDateTime({
  value,
  timeZone = "UTC",
  fixedZone,
  style = "datetime",
}: {
  value: Date | string;
  timeZone?: string;
  fixedZone?: string;
  style?: Style;
}) {
  const viewer = useViewerTimeZone();
  const zone = fixedZone ?? viewer ?? timeZone;
  const date = value instanceof Date ? value : new Date(value);
  const text = style === "date" ? formatDate(date, zone) : formatTime(date, zone);
  return Number.isFinite(date.getTime()) ? <time dateTime={date.toISOString()}>{text}</time> : <span>{INVALID_DATE}</span>;
}

/** A calendar date without time (`YYYY-MM-DD`, e.g. a due date): "Nov 2, 2026", the same day for every viewer. */
export function LocalDate({ value }: { value: string }) {
  return <time dateTime={value}>{formatDate(value)}</time>;
}

/**
 * An instant with its zone, e.g. "Nov 2, 2026, 2:30 PM EST" (admin tables); "Invalid Date" when
 * it is not a real instant.
 *
 * @param value - ISO string (UTC) or null.
 * @param timeZone - a fixed zone instead of the viewer's (e.g. the zone a client picked).
 * @param fallback - text shown when `value` is null.
 */
export function LocalTime({ value, timeZone, fallback }: { value: string | null; timeZone?: string; fallback?: string }) {
  const viewer = useViewerTimeZone();
  if (!value && fallback) return <span>{fallback}</span>;
  const text = formatTime(value, timeZone ?? viewer ?? "UTC");
  return value && text !== INVALID_DATE ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
