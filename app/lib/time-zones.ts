/**
 * The IANA time zones this runtime knows, for the time zone pickers (the agency's zone in
 * Settings, the client's zone on the booking page). Server-side: the list is sent with the page so
 * the server and the browser render the same options.
 */

let known: readonly string[] | undefined;

/**
 * @returns every zone name, sorted, "UTC" included — computed once per process (the runtime's list
 *   does not change while it runs; the booking page asks on every request).
 */
export function timeZoneNames(): readonly string[] {
  if (!known) {
    const names = new Set(Intl.supportedValuesOf("timeZone"));
    names.add("UTC");
    known = Object.freeze([...names].sort());
  }
  return known;
}
