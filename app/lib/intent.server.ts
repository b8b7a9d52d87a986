/**
 * Actions with several forms on one page (design: one action, an `intent` field per form).
 * Each intent's handler returns the success message; a use-case's {@link AppError} becomes
 * `{ ok: false, message }` with its status; anything else is unexpected and rethrown
 * (logged by the server, friendly 500 page).
 */
import { data } from "react-router";
import { AppError } from "./errors";

/** What an admin page's action answers; the page shows `message`. */
export interface ActionResult {
  ok: boolean;
  message: string;
  intent: string;
  /** The record the form was about (e.g. a proposal id), for per-row feedback. */
  target?: string;
}

type Handler = (form: FormData) => Promise<string | { message: string; target?: string }>;

/**
 * Runs the handler of the form's `intent`.
 *
 * @returns 200 `{ ok: true, message }`, or the refusal's status with `{ ok: false, message }`;
 *   400 for an unknown intent.
 */
export async function runIntent(form: FormData, handlers: Record<string, Handler>) {
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) return data<ActionResult>({ ok: false, message: "Unknown action. Reload the page and try again.", intent }, 400);
  try {
    const result = await handler(form);
    const { message, target } = typeof result === "string" ? { message: result, target: undefined } : result;
    return data<ActionResult>({ ok: true, message, intent, target }, 200);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const fieldMessage = error.fieldErrors ? Object.values(error.fieldErrors).flat()[0] : undefined;
    return data<ActionResult>({ ok: false, message: fieldMessage ?? error.message, intent }, error.status);
  }
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
