/**
 * Ids that name a row, from URLs and forms (docs/architecture.md#ids): one parser per kind,
 * used by every route parameter and form field, so that no malformed or out-of-range id ever
 * reaches the database.
 * - Serial ids (`:proposalId`, `:invoiceId`, `id` fields): 1 … 2,147,483,647 in plain decimal.
 * - User ids (better-auth's text ids): 1–64 letters, digits, `_` or `-`.
 * Imports no zod (pages use it in the browser); the zod field is `idField` in `text-fields.ts`.
 */
import { notFound } from "./errors";

/** Largest value of a PostgreSQL `integer` / `serial`. */
export const MAX_SERIAL = 2_147_483_647;

/**
 * @param value - a route parameter or form field, e.g. `"42"` (or a number).
 * @returns the id as a positive integer, or null for anything else ("abc", "0", "01", "1e3",
 *   "99999999999", a NUL byte).
 */
export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 && value <= MAX_SERIAL ? value : null;
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= MAX_SERIAL ? n : null;
}

/**
 * @param value - a form field or route parameter holding a user id.
 * @returns the id, or null when missing or malformed.
 */
export function parseUserId(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}

/**
 * A serial id from a route parameter.
 *
 * @param message - the page's "not found" sentence.
 * @throws {AppError} NOT_FOUND with `message` when the parameter is not a valid id.
 */
export function paramId(value: string | undefined, message: string): number {
  const id = parseId(value);
  if (id === null) throw notFound(message);
  return id;
}
