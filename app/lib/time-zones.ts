/**
 * The IANA time zones this runtime knows, for the time zone pickers (the agency's zone in
 * Settings, the client's zone on the booking page). Server-side: the list is sent with the page so
 * the server and the browser render the same options.
 */

/** @returns every zone name, sorted, "UTC" included. */
export function timeZoneNames(): string[] {
  const names = new Set(Intl.supportedValuesOf("timeZone"));
  names.add("UTC");
  return [...names].sort();
}
