/**
 * What a meeting's client may still do with it (docs/product.md#meeting-changes): one pure
 * function shared by booking (which refuses a change past the cutoff) and the pages that list meetings.
 */

/** What a meeting's client may do with it now (docs/product.md#meeting-changes). */
export type ChangeState = "changeable" | "past-cutoff" | "closed";

/**
 * @param row - the meeting's status and start.
 * @param cutoffHours - the settings' change cutoff.
 * @returns `changeable` for a pending or accepted meeting more than the cutoff ahead,
 *   `past-cutoff` inside the cutoff (the client writes to the agency), else `closed`.
 */
export function clientChangeState(row: { status: string; startsAt: Date }, cutoffHours: number, now: Date = new Date()): ChangeState {
  const start = row.startsAt.getTime();
  if (!(row.status === "pending" || row.status === "accepted") || !Number.isFinite(start) || start <= now.getTime()) return "closed";
  return start - now.getTime() > cutoffHours * 3_600_000 ? "changeable" : "past-cutoff";
}
