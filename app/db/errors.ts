/** PostgreSQL errors the use-cases tell apart (both drivers expose SQLSTATE as `code`, possibly wrapped as a `cause`). */

/** @returns whether `error`, or any error it wraps (`cause`), is PostgreSQL's unique violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
