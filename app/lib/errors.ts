/**
 * The one way a refusal travels from a use-case to the user (docs/architecture.md#errors).
 *
 * Use-cases throw {@link AppError} with a stable {@link ErrorCode}; nothing else in the app
 * builds error responses:
 * - thrown from a loader, or from an action outside a form helper, React Router answers it
 *   as an error response with the code's status (an AppError has the shape of React Router's
 *   `data(message, { status, headers })`), and the route's ErrorBoundary shows the message;
 * - thrown inside a form action (`formAction`, `runIntent` in app/lib/form-action.server.ts),
 *   it becomes the form's reply: the message above the form or next to its fields, with the
 *   code's status and headers (Retry-After for RATE_LIMITED).
 * Anything else thrown is unexpected: logged once with the request id, answered with the
 * friendly 500 page.
 */

/** Stable error codes, each with its HTTP status. */
export const ERROR_STATUS = {
  /** Input that does not pass validation (field errors when known). */
  INVALID_INPUT: 400,
  /** Not signed in, or the credentials are wrong. */
  UNAUTHORIZED: 401,
  /** Signed in, but not allowed to do this. */
  FORBIDDEN: 403,
  /** The record does not exist, or is not the actor's to see (never reveal which). */
  NOT_FOUND: 404,
  /** The record's state does not allow it (already paid, changed by someone else, taken). */
  CONFLICT: 409,
  /** Too large for what is left (e.g. a client's storage quota). */
  PAYLOAD_TOO_LARGE: 413,
  /** Too many attempts; `retryAfterSeconds` says when to try again. */
  RATE_LIMITED: 429,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

export interface AppErrorOptions {
  /** Messages per form field, shown next to the fields. */
  fieldErrors?: Record<string, string[]>;
  /** RATE_LIMITED: seconds until a new attempt may succeed (sent as Retry-After). */
  retryAfterSeconds?: number;
}

/** A refusal the user should see: a stable code, a human message, optional field errors. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly fieldErrors?: Record<string, string[]>;
  readonly retryAfterSeconds?: number;
  /**
   * React Router's marker for `data(...)` objects: thrown from a loader or action, this error
   * is answered with `init.status` and `init.headers`, and `data` (the message) reaches the
   * ErrorBoundary (tests/e2e/errors.spec.ts checks it end to end).
   */
  readonly type = "DataWithResponseInit";

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The message, as React Router's error response data. */
  get data(): string {
    return this.message;
  }

  /** Status and headers, as React Router's response init. */
  get init(): ResponseInit {
    return { status: this.status, headers: this.headers() };
  }

  /** The response headers this refusal needs (Retry-After for RATE_LIMITED). */
  headers(): Record<string, string> {
    return this.retryAfterSeconds !== undefined ? { "Retry-After": String(Math.max(1, Math.ceil(this.retryAfterSeconds))) } : {};
  }
}

/**
 * For optional lookups (a detail panel chosen by a URL parameter): NOT_FOUND becomes null.
 *
 * @returns the promise's value, or null when it rejects with a NOT_FOUND AppError.
 * @throws whatever else it rejects with.
 */
export async function unlessNotFound<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** FORBIDDEN: the acting user may not do this. */
export const forbidden = (message = "You are not allowed to do that.") => new AppError("FORBIDDEN", message);
/** NOT_FOUND: the record does not exist, or is not the actor's to see (never reveal which). */
export const notFound = (message: string) => new AppError("NOT_FOUND", message);
/** INVALID_INPUT (or CONFLICT) with one field's error. */
export const fieldError = (field: string, message: string, code: "INVALID_INPUT" | "CONFLICT" = "INVALID_INPUT") =>
  new AppError(code, message, { fieldErrors: { [field]: [message] } });
/** INVALID_INPUT without field errors. */
export const invalidInput = (message: string) => new AppError("INVALID_INPUT", message);
/** CONFLICT: the record's state does not allow the change. */
export const conflict = (message: string) => new AppError("CONFLICT", message);
/** RATE_LIMITED with the seconds until the next attempt may succeed. */
export const rateLimited = (message: string, retryAfterSeconds: number) => new AppError("RATE_LIMITED", message, { retryAfterSeconds });

/**
 * "Try again in N minutes." for a wait in seconds: whole minutes, rounded up, at least one.
 *
 * @param retryAfterSeconds - the wait until the next attempt may succeed (seconds).
 */
export function tryAgainIn(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * RATE_LIMITED whose message is `reason` followed by {@link tryAgainIn} (the upload, message and
 * reminder budgets: #36, docs/product.md#reminders-admin).
 *
 * @param reason - the first sentence ("You have uploaded many files in the last hour.").
 * @param retryAfterSeconds - the wait (seconds), also sent as Retry-After.
 */
export const rateLimitedFor = (reason: string, retryAfterSeconds: number) =>
  rateLimited(`${reason} ${tryAgainIn(retryAfterSeconds)}`, retryAfterSeconds);
