/**
 * Route parameters that hold serial ids (`:proposalId`, `:invoiceId`).
 */

/** Largest value of a PostgreSQL `integer` / `serial`. */
const MAX_SERIAL = 2_147_483_647;

/**
 * @param value - a route parameter or form field, e.g. `"42"`.
 * @returns the id as a positive integer, or null for anything else ("abc", "0", "1e3",
 *   "99999999999") — callers answer null with their "not found" message.
 */
export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 && value <= MAX_SERIAL ? value : null;
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= MAX_SERIAL ? n : null;
}
