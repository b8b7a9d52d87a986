/**
 * The one way an action reads a form and answers it (docs/architecture.md#forms).
 *
 * - {@link formAction}: a page with one form. Parses the posted form with its zod schema
 *   (conform's parsing: empty fields are missing), runs the use-case, and answers a
 *   {@link FormReply}: 200 with the success message (the form reset), 400 with the schema's
 *   field errors, or the status of the {@link AppError} the use-case threw, with its message
 *   above the form or next to its fields.
 * - {@link runIntent}: a page with several forms posting to one action, each with an
 *   `intent` field; a handler per intent returns the success message or throws an AppError.
 *
 * Both answer an unexpected error (anything but an AppError) themselves: it is logged once,
 * with the request id, and the form gets a 500 reply with the form's failure message, the
 * user's input kept. Replies never echo more than the fields the schema defines, each cut to
 * its length limit, and never a password.
 *
 * Field helpers for intent handlers: {@link formId} (a row id), {@link formUserId},
 * {@link parseInput} (a zod check of some fields), {@link requireConfirmation}.
 */
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { requestInfoContext } from "./request-info";
import type { z } from "zod";
import { AppError, invalidInput } from "./errors";
import { schemaFields } from "./form-constraints.server";
import type { FormResult, FormValues } from "./forms";
import { parseId, parseUserId } from "./ids";
import { logger } from "./logger.server";
import { redactPath } from "./redact-path";
import { DATABASE_UNAVAILABLE_MESSAGE, databaseUnavailableHeaders, isDatabaseUnavailable } from "./database-unavailable.server";

export type { FormResult };

/** What a form action answers (200 when `ok`, a 4xx/500 status otherwise). */
export interface FormReply {
  ok: boolean;
  /** Human sentence: the success message, or the refusal's message ("" when none). */
  message: string;
  /** The form's values and messages, for `useAppForm`'s `lastResult` (schema forms only). */
  result?: FormResult;
  /** A refusal's errors per field, for forms that show them next to the field. */
  fieldErrors?: Record<string, string[]>;
  /** {@link runIntent}: the form's `intent` ("" when missing). */
  intent?: string;
  /**
   * {@link runIntent}: the record the form was about (the value of the form field named by
   * the `target` option, `id` by default), for per-record feedback. Compare with `String(id)`.
   */
  target?: string;
  /** {@link runIntent}: a reverse action the page offers for a few seconds ("Undo", docs/product.md#proposals-admin-status). */
  undo?: UndoOffer;
}

/** A reverse action offered after a change: the form the page's Undo button posts. */
export interface UndoOffer {
  intent: string;
  fields: Record<string, string>;
}

/** What an intent handler answers: the success message, optionally with an {@link UndoOffer}. */
export type IntentOutcome = string | { message: string; undo?: UndoOffer };

/** Message of a form that could not be read or does not match the page. */
export const INCOMPLETE_REQUEST = "This request is incomplete. Reload the page and try again.";
/** Default message of an unexpected failure. */
export const UNEXPECTED_FAILURE = "Something went wrong on our side. Nothing was saved; please try again.";
const UNKNOWN_INTENT = "Unknown action. Reload the page and try again.";
/** Longest form value taken as a reply's `target` (ids are shorter). */
const TARGET_MAX = 64;
/** Longest text echoed back in a reply for a field whose schema declares no maximum. */
const ECHO_MAX = 5_000;
/** Fields never echoed back to the browser. */
const SECRET_FIELDS = ["password", "confirmPassword", "newPassword", "currentPassword", "code", "backupCode"];

/** The action's arguments this module needs: the request, and the context (request id). */
export interface RequestRef {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** The request id of the context (also sent as the X-Request-Id response header), if any. */
function requestIdOf(context: Readonly<RouterContextProvider>): string | undefined {
  try {
    return context.get(requestInfoContext).requestId;
  } catch {
    return undefined;
  }
}

/**
 * Reads the posted form.
 *
 * @throws {AppError} INVALID_INPUT when the body is not a form (the server's body guard
 *   already refused oversized and malformed bodies).
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw invalidInput(INCOMPLETE_REQUEST);
  }
}

/**
 * conform's parse, safe against forged conform fields: a `__intent__` or `__state__` that is
 * not conform's JSON is dropped instead of failing the request.
 */
export function parseSubmission<Schema extends z.ZodType>(
  form: FormData,
  schema: Schema,
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  try {
    return parseWithZod(form, { schema });
  } catch {
    const clean = new FormData();
    for (const [name, value] of form) if (name !== "__intent__" && name !== "__state__") clean.append(name, value);
    return parseWithZod(clean, { schema });
  }
}

const constraintCache = new WeakMap<z.ZodType, Record<string, { maxLength?: number }>>();

/** The schema's field names (`items[].amount` style) with their declared length limits. */
function fieldsOf(schema: z.ZodType): Record<string, { maxLength?: number }> {
  let fields = constraintCache.get(schema);
  if (!fields) {
    fields = Object.fromEntries(Object.entries(schemaFields(schema)).map(([name, field]) => [name, { maxLength: field.json.maxLength }]));
    constraintCache.set(schema, fields);
  }
  return fields;
}

/** The echo of `value` at `path` kept to the schema's shape (undefined: not a field). */
function keepFields(value: unknown, path: string, fields: Record<string, { maxLength?: number }>): unknown {
  if (Array.isArray(value)) {
    if (!fields[path] && !fields[`${path}[]`]) return undefined;
    return value.map((item) => keepFields(item, `${path}[]`, fields));
  }
  if (value !== null && typeof value === "object") {
    const kept: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const innerPath = path ? `${path}.${key}` : key;
      if (SECRET_FIELDS.includes(key)) continue;
      const keep = keepFields(inner, innerPath, fields);
      if (keep !== undefined) kept[key] = keep;
    }
    return kept;
  }
  if (!(path in fields)) return undefined;
  if (typeof value !== "string") return value;
  return value.slice(0, fields[path]?.maxLength ?? ECHO_MAX);
}

/**
 * The form's {@link FormResult} from conform's reply, echoing only the schema's fields (cut to
 * their length limits) and no password.
 *
 * @param options - conform's reply options (`resetForm`, `formErrors`, `fieldErrors`).
 */
export function safeReply(
  submission: Submission<unknown>,
  schema: z.ZodType,
  options: { resetForm?: boolean; formErrors?: string[]; fieldErrors?: Record<string, string[]> } = {},
): FormResult {
  const { status, initialValue, error } = submission.reply({ ...options, hideFields: SECRET_FIELDS });
  const result: FormResult = {
    initialValue: initialValue ? (keepFields(initialValue, "", fieldsOf(schema)) as FormValues) : initialValue,
  };
  if (status) result.status = status;
  // A list change (add / remove a row without JavaScript) is not a submit: its values come back,
  // not the checks of fields the user has not filled in yet.
  if (error && (status || options.formErrors || options.fieldErrors)) result.error = error;
  return result;
}

/** Logs an unexpected failure once, with the request's method, path and id (a database outage at warn: no bug). */
function logUnexpected(error: unknown, ref: RequestRef) {
  if (ref.request.signal.aborted) return;
  const fields = {
    err: error,
    requestId: requestIdOf(ref.context),
    method: ref.request.method,
    path: redactPath(new URL(ref.request.url).pathname),
  };
  if (isDatabaseUnavailable(error)) logger.warn(fields, "action failed: database unavailable");
  else logger.error(fields, "action failed");
}

/**
 * The status, headers and message of an unexpected failure: 503 with Retry-After while the
 * database cannot be reached (issue #36), else 500 with `failureMessage`.
 */
function unexpectedFailure(
  error: unknown,
  failureMessage: string,
): { status: 500 | 503; headers?: Record<string, string>; message: string } {
  return isDatabaseUnavailable(error)
    ? { status: 503, headers: databaseUnavailableHeaders(), message: DATABASE_UNAVAILABLE_MESSAGE }
    : { status: 500, message: failureMessage };
}

/** The reply of a refusal or failure, for a schema form. */
function failureReply(submission: Submission<unknown>, schema: z.ZodType, error: unknown, failureMessage: string, ref: RequestRef) {
  if (error instanceof AppError) {
    const result = error.fieldErrors
      ? safeReply(submission, schema, { fieldErrors: error.fieldErrors })
      : safeReply(submission, schema, { formErrors: [error.message] });
    return data<FormReply>(
      { ok: false, message: error.message, result, fieldErrors: error.fieldErrors },
      { status: error.status, headers: error.headers() },
    );
  }
  logUnexpected(error, ref);
  const failure = unexpectedFailure(error, failureMessage);
  return data<FormReply>(
    { ok: false, message: failure.message, result: safeReply(submission, schema, { formErrors: [failure.message] }) },
    { status: failure.status, headers: failure.headers },
  );
}

/**
 * Runs a one-form action.
 *
 * @param ref - the request (its form is read here) and its id for the log.
 * @param schema - the form's zod schema (shared with the page).
 * @param run - the use-case call: gets the parsed value and the raw form; returns the
 *   success message, or a Response (a redirect) to answer instead; throws {@link AppError}
 *   to refuse.
 * @param options.failureMessage - shown when something unexpected fails (default
 *   {@link UNEXPECTED_FAILURE}).
 * @returns a Response from `run`, or a {@link FormReply}: 200, 400, the AppError's status
 *   (and headers), or 500.
 */
export async function formAction<Schema extends z.ZodType>(
  ref: RequestRef,
  schema: Schema,
  run: (value: z.output<Schema>, form: FormData) => Promise<string | Response>,
  options: { failureMessage?: string } = {},
) {
  const form = await readForm(ref.request);
  const submission = parseSubmission(form, schema);
  if (submission.status !== "success") {
    const errors = Object.values(submission.error ?? {}).flatMap((messages) => messages ?? []);
    // A conform list intent (add/remove an item without JavaScript) is not an error.
    const status = submission.status === "error" ? 400 : 200;
    return data<FormReply>(
      { ok: false, message: status === 400 ? (errors[0] ?? INCOMPLETE_REQUEST) : "", result: safeReply(submission, schema) },
      status,
    );
  }
  try {
    const outcome = await run(submission.value, form);
    if (outcome instanceof Response) return outcome;
    return data<FormReply>({ ok: true, message: outcome, result: safeReply(submission, schema, { resetForm: true }) }, 200);
  } catch (error) {
    return failureReply(submission, schema, error, options.failureMessage ?? UNEXPECTED_FAILURE, ref);
  }
}

/**
 * The handler of one intent: returns the success message (or an {@link IntentOutcome} with an
 * Undo offer), or a Response (a redirect, e.g. one that sets a renewed session cookie) to answer
 * instead; throws {@link AppError} to refuse.
 */
export type IntentHandler = (form: FormData) => Promise<IntentOutcome | Response>;

/** A schema form's intent, made by {@link conformIntent}. */
export interface ConformIntent {
  schema: z.ZodType;
  // A method, so that a handler of the schema's own output type fits.
  run(value: unknown): Promise<string | Response>;
}

/**
 * A schema form among several on a page: {@link runIntent} parses the form with `schema` and
 * calls `run` with the output; the reply carries `result` for the form's `lastResult`.
 *
 * @param run - returns the success message or a Response; throws {@link AppError} to refuse.
 */
export function conformIntent<Schema extends z.ZodType>(
  schema: Schema,
  run: (value: z.output<Schema>) => Promise<string | Response>,
): ConformIntent {
  return { schema, run: (value) => run(value as z.output<Schema>) };
}

/** A form field's text ("" when missing or a file), e.g. a UUID the use-case checks itself. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Runs the handler of the posted form's `intent`.
 *
 * @param ref - the request (its form is read here) and its id for the log.
 * @param handlers - per intent, an {@link IntentHandler} or a {@link conformIntent}.
 * @param options.target - the form field naming the record the form is about (`id` unless
 *   given); its value (trimmed, at most 64 characters) becomes the reply's `target`.
 * @returns a handler's Response as it is, or a {@link FormReply} with `intent` and `target`: 200 with the message; the
 *   AppError's status, message and field errors; 400 for an unknown intent; 500 (logged) for
 *   anything unexpected.
 */
export async function runIntent(
  ref: RequestRef,
  handlers: Record<string, IntentHandler | ConformIntent>,
  options: { target?: string } = {},
) {
  const form = await readForm(ref.request);
  const intent = formText(form, "intent").slice(0, TARGET_MAX);
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) return data<FormReply>({ intent, ok: false, message: UNKNOWN_INTENT }, 400);
  const targetValue = formText(form, options.target ?? "id").trim();
  const target = targetValue && targetValue.length <= TARGET_MAX ? targetValue : undefined;

  if (typeof handler !== "function") {
    const submission = parseSubmission(form, handler.schema);
    if (submission.status !== "success") {
      const fieldErrors = Object.fromEntries(
        Object.entries(submission.error ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)),
      );
      const message = Object.values(fieldErrors)[0]?.[0] ?? INCOMPLETE_REQUEST;
      return data<FormReply>({ intent, ok: false, message, target, fieldErrors, result: safeReply(submission, handler.schema) }, 400);
    }
    try {
      const message = await handler.run(submission.value);
      if (message instanceof Response) return message;
      return data<FormReply>(
        { intent, ok: true, message, target, result: safeReply(submission, handler.schema, { resetForm: true }) },
        200,
      );
    } catch (error) {
      const reply = failureReply(submission, handler.schema, error, UNEXPECTED_FAILURE, ref);
      return data<FormReply>({ ...reply.data, intent, target }, reply.init ?? undefined);
    }
  }

  try {
    const outcome = await handler(form);
    if (outcome instanceof Response) return outcome;
    const reply = typeof outcome === "string" ? { message: outcome } : outcome;
    return data<FormReply>({ intent, ok: true, target, ...reply }, 200);
  } catch (error) {
    if (error instanceof AppError) {
      return data<FormReply>(
        { intent, ok: false, message: error.message, target, fieldErrors: error.fieldErrors },
        { status: error.status, headers: error.headers() },
      );
    }
    logUnexpected(error, ref);
    const failure = unexpectedFailure(error, UNEXPECTED_FAILURE);
    return data<FormReply>({ intent, ok: false, message: failure.message, target }, { status: failure.status, headers: failure.headers });
  }
}

/**
 * Checks input against a zod schema (for intent handlers that read a few fields).
 *
 * @returns the schema's output.
 * @throws {AppError} INVALID_INPUT with the first issue's message and every issue's message
 *   per (top-level) field.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field !== undefined) (fieldErrors[String(field)] ??= []).push(issue.message);
  }
  throw new AppError("INVALID_INPUT", parsed.error.issues[0]?.message ?? "Check the form and try again.", { fieldErrors });
}

/**
 * For destructive forms (docs/product.md#confirmations): the post must carry `confirm=yes`,
 * sent by the confirmation step's button.
 *
 * @throws {AppError} INVALID_INPUT "Confirm the deletion first." otherwise.
 */
export function requireConfirmation(form: FormData, message = "Confirm the deletion first."): void {
  if (form.get("confirm") !== "yes") throw invalidInput(message);
}

/**
 * A row id (serial) from a form field.
 *
 * @returns a positive integer that fits PostgreSQL's `integer`.
 * @throws {AppError} INVALID_INPUT when missing or malformed ("0", "1e3", "99999999999").
 */
export function formId(form: FormData, name = "id"): number {
  const id = parseId(form.get(name));
  if (id === null) throw invalidInput(INCOMPLETE_REQUEST);
  return id;
}

/**
 * A user id (better-auth's text ids) from a form field.
 *
 * @throws {AppError} INVALID_INPUT when missing or malformed.
 */
export function formUserId(form: FormData, name = "userId"): string {
  const id = parseUserId(form.get(name));
  if (id === null) throw invalidInput(INCOMPLETE_REQUEST);
  return id;
}

/**
 * A route's `headers` export that keeps a refused action's `Retry-After` (docs/product.md#throttling):
 * React Router keeps only the cookies of an action's headers on a page response unless the
 * route says otherwise. Use it on every page whose action can answer RATE_LIMITED:
 * `export const headers = retryAfterHeaders;`.
 *
 * @returns the parent's headers, plus the action's (or its error's) `Retry-After` when present.
 */
export function retryAfterHeaders({
  parentHeaders,
  actionHeaders,
  errorHeaders,
}: {
  parentHeaders: Headers;
  actionHeaders: Headers;
  errorHeaders?: Headers;
}): Headers {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After") ?? errorHeaders?.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
