/**
 * Errors thrown by use-cases and turned into 4xx answers by routes. Anything else that is
 * thrown is unexpected: logged, and answered with the friendly 500 page.
 */

/** A refusal the user should see: status 400–429, a human message, optional field errors. */
export class AppError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429,
    message: string,
    public readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** 403: the acting user may not do this. */
export const forbidden = (message = "You are not allowed to do that.") => new AppError(403, message);
/** 404: the record does not exist, or is not the actor's to see (never reveal which). */
export const notFound = (message: string) => new AppError(404, message);
/** 400 with one field's error. */
export const fieldError = (field: string, message: string, status: 400 | 409 | 422 = 400) =>
  new AppError(status, message, { [field]: [message] });
