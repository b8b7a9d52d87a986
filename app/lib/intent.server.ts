/**
 * Actions with several forms on one page (design: one action, an `intent` field per form).
 * {@link runIntent} dispatches to a handler per intent and answers with an {@link IntentReply}:
 * a handler returns the success message, and refuses by throwing the use-case's
 * {@link AppError} (helpers: {@link parseInput} for input checks, {@link requireConfirmation}
 * for destructive forms, {@link intField} / {@link idField} for ids). Anything else thrown is
 * unexpected and rethrown (logged by the server, friendly 500 page).
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { AppError } from "./errors";

/** What an intent action answers (200 when `ok`, the refusal's 4xx status otherwise). */
export interface IntentReply {
  /** The form's `intent` ("" when missing). */
  intent: string;
  ok: boolean;
  /** Human sentence shown to the user: the success message, or the refusal's message. */
  message: string;
  /**
   * The record the form was about (the value of the form field named by
   * `runIntent`'s `target` option, `id` by default), on success and refusal alike, for
   * per-record feedback. Compare with `String(id)`.
   */
  target?: string;
  /** A refusal's errors per field, for forms that show them next to the field. */
  fieldErrors?: Record<string, string[]>;
  /** The conform reply of a {@link conformIntent} form (for its `lastResult`). */
  result?: SubmissionResult<string[]>;
}

/** The handler of one intent: returns the success message; throws {@link AppError} to refuse. */
export type IntentHandler = (form: FormData) => Promise<string>;

/** A conform form's intent, made by {@link conformIntent}. */
export interface ConformIntent {
  schema: z.ZodType;
  // A method, so that a handler of the schema's own output type fits.
  run(value: unknown): Promise<string>;
}

/**
 * A conform form's handler: {@link runIntent} parses the form with `schema` (conform's
 * parsing: empty fields are missing) and calls `run` with the output. Its reply carries
 * `result` for the form's `lastResult`: the schema's errors (400), the refusal's field
 * errors or message as a form error, or, on success, a reset of the form.
 *
 * @param run - returns the success message; throws {@link AppError} to refuse.
 */
export function conformIntent<Schema extends z.ZodType>(schema: Schema, run: (value: z.output<Schema>) => Promise<string>): ConformIntent {
  return { schema, run: (value) => run(value as z.output<Schema>) };
}

const UNKNOWN_INTENT = "Unknown action. Reload the page and try again.";
/** Longest form value taken as a reply's `target` (ids are shorter). */
const TARGET_MAX = 64;

/**
 * Runs the handler of the form's `intent`.
 *
 * @param handlers - per intent, an {@link IntentHandler} or a {@link conformIntent}.
 * @param options.target - the form field naming the record the form is about: `id` (what
 *   `ConfirmAction` posts) unless given; its value (trimmed, at most 64 characters) becomes
 *   the reply's `target`.
 * @returns 200 `{ ok: true, message }`; for an {@link AppError}, its status with
 *   `{ ok: false, message, fieldErrors }`; 400 "Unknown action…" for an unknown intent.
 * @throws whatever else a handler throws (unexpected: logged, 500 page).
 */
export async function runIntent(
  form: FormData,
  handlers: Record<string, IntentHandler | ConformIntent>,
  { target: targetField = "id" }: { target?: string } = {},
) {
  const intent = formText(form, "intent");
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) return data<IntentReply>({ intent, ok: false, message: UNKNOWN_INTENT }, 400);
  const targetValue = formText(form, targetField).trim();
  const target = targetValue && targetValue.length <= TARGET_MAX ? targetValue : undefined;
  const submission = typeof handler === "function" ? null : parseWithZod(form, { schema: handler.schema });
  try {
    let message: string;
    if (typeof handler === "function") message = await handler(form);
    else if (submission?.status === "success") message = await handler.run(submission.value);
    else throw invalidSubmission(submission?.error);
    return data<IntentReply>({ intent, ok: true, message, target, result: submission?.reply({ resetForm: true }) }, 200);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    let result: SubmissionResult<string[]> | undefined;
    if (submission) {
      if (submission.status !== "success") result = submission.reply();
      else
        result = error.fieldErrors
          ? submission.reply({ fieldErrors: error.fieldErrors })
          : submission.reply({ formErrors: [error.message] });
    }
    return data<IntentReply>({ intent, ok: false, message: error.message, target, fieldErrors: error.fieldErrors, result }, error.status);
  }
}

/** A form field's text ("" when missing or a file). */
function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The 400 of a conform form that does not parse, with its field errors. */
function invalidSubmission(errors: Record<string, string[] | null> | null | undefined): AppError {
  const fieldErrors = Object.fromEntries(
    Object.entries(errors ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)),
  );
  return new AppError(400, Object.values(fieldErrors)[0]?.[0] ?? "Check the form and try again.", fieldErrors);
}

/**
 * Checks input against a zod schema.
 *
 * @returns the schema's output.
 * @throws {AppError} 400 with the first issue's message and every issue's message per
 *   (top-level) field.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field !== undefined) (fieldErrors[String(field)] ??= []).push(issue.message);
  }
  throw new AppError(400, parsed.error.issues[0]?.message ?? "Check the form and try again.", fieldErrors);
}

/**
 * For destructive forms (spec §5: deleting asks for confirmation first): the post must carry
 * `confirm=yes`, sent by the confirmation step's button.
 *
 * @throws {AppError} 400 "Confirm the deletion first." otherwise.
 */
export function requireConfirmation(form: FormData): void {
  if (form.get("confirm") !== "yes") throw new AppError(400, "Confirm the deletion first.");
}

/**
 * For loaders: an {@link AppError} becomes a thrown response with its status and message (the
 * route's ErrorBoundary shows it); anything else is rethrown.
 */
export function throwAsResponse(error: unknown): never {
  if (error instanceof AppError) throw data(error.message, { status: error.status });
  throw error;
}

/**
 * A positive integer id from a form field.
 *
 * @throws {AppError} 400 when missing or malformed.
 */
export function intField(form: FormData, name: string): number {
  const value = Number(form.get(name));
  if (!Number.isSafeInteger(value) || value <= 0) throw new AppError(400, "This request is incomplete. Reload the page and try again.");
  return value;
}

/**
 * A non-empty string id from a form field (at most 64 characters).
 *
 * @throws {AppError} 400 when missing or malformed.
 */
export function idField(form: FormData, name: string): string {
  const value = String(form.get(name) ?? "").trim();
  if (!value || value.length > 64) throw new AppError(400, "This request is incomplete. Reload the page and try again.");
  return value;
}
