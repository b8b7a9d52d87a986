import { formatDateTime } from "#app/lib/dates";
import { useHydrated } from "./use-hydrated";

/**
 * An instant shown in the viewer's time zone (design: timestamps shown in the viewer's
 * zone). The server does not know that zone, so it renders UTC; the browser re-renders in
 * local time after hydration. A value that is not an instant reads "Invalid Date".
 *
 * @param value - ISO string (UTC) or null.
 * @param timeZone - a fixed zone instead of the viewer's (e.g. the zone a client picked).
 */
export function LocalTime({ value, timeZone, fallback }: { value: string | null; timeZone?: string; fallback?: string }) {
  const hydrated = useHydrated();
  if (!value && fallback) return <span>{fallback}</span>;
  const zone = timeZone ?? (hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC");
  const text = formatDateTime(value, zone);
  return value ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
