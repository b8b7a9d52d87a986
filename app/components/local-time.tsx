/**
 * Dates in the viewer's locale and time zone (design: timestamps are UTC, shown in the
 * viewer's zone). The server cannot know the viewer's zone, so it renders a stated zone
 * (the meeting's own zone, else UTC, always labelled); once hydrated, the browser
 * re-renders with its own locale and zone.
 */
import { useHydrated } from "#app/lib/use-hydrated";

type Style = "date" | "datetime";

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "short", day: "numeric" },
  datetime: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
};

function format(date: Date, style: Style, hydrated: boolean, fallbackZone: string): string {
  if (hydrated) return new Intl.DateTimeFormat(undefined, OPTIONS[style]).format(date);
  return new Intl.DateTimeFormat("en-US", { ...OPTIONS[style], timeZone: fallbackZone }).format(date);
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
  const text = new Intl.DateTimeFormat(hydrated ? undefined : "en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);
  return <time dateTime={value}>{text}</time>;
}
