/**
 * "The database is down" told apart from a bug (issue #36): while the PostgreSQL server cannot
 * be reached (or PGlite is closed), a request that needs it is answered 503 with `Retry-After`
 * — as `/healthz` answers — instead of a 500. Only connection failures count: a query error
 * (syntax, constraint, a missing column …) stays a 500, it is a bug.
 */

/** Seconds a client is asked to wait before trying again while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The message a form shows while the database is unavailable. */
export const DATABASE_UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Nothing was saved; please try again in a moment.";

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL error codes of an unavailable server: class 08 (connection exception), 57P01–57P03
 * (the server is shutting down, crashed, or not yet accepting connections), 53300 (too many connections).
 */
const SERVER_CODES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Messages of node-postgres and PGlite for a lost, refused or closed connection (they carry no code). */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
  /^Client was closed and is not queryable/,
  /^PGlite is closed/,
];

/**
 * @param error - anything thrown; its `cause` chain (drizzle wraps the driver's error) is followed.
 * @returns whether it says the database could not be reached (PostgreSQL or PGlite), not that a query failed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
    if (typeof message === "string" && MESSAGES.some((pattern) => pattern.test(message))) return true;
    // An AggregateError (several addresses refused, e.g. localhost's ::1 and 127.0.0.1).
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}

/** The headers of a 503 "database unavailable" answer. */
export function databaseUnavailableHeaders(): Record<string, string> {
  return { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
}
