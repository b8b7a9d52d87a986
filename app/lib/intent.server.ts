/**
 * Actions with several forms on one page (design: one action, an `intent` field per form).
 * - {@link runIntent}: dispatches to a handler per intent; the handler returns the success
 *   message. Used by the admin pages.
 * - {@link IntentReply} with {@link intentOk} / {@link intentError} / {@link intentRefusal}:
 *   the same shape built by hand, for pages that also serve a conform form (client pages).
 * A use-case's {@link AppError} becomes `{ ok: false, message }` with its status; anything
 * else is unexpected and rethrown (logged by the server, friendly 500 page).
 */
import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { AppError } from "./errors";

/** What an intent action answers. */
export interface IntentReply {
  intent: string;
  ok: boolean;
  /** Human sentence shown to the user. */
  message: string;
  /** The record the form was about (proposal or meeting id), when there is one. */
  targetId?: number | null;
  fieldErrors?: Record<string, string[]>;
  /** A conform form's reply, for the one conform form of the page. */
  result?: SubmissionResult<string[]>;
}

/** @returns the form's `intent` field ("" when missing). */
export function readIntent(formData: FormData): string {
  const value = formData.get("intent");
  return typeof value === "string" ? value : "";
}

/** 200 with a success message. */
export function intentOk(intent: string, message: string, targetId?: number | null) {
  return data<IntentReply>({ intent, ok: true, message, targetId: targetId ?? null }, 200);
}

/** A refusal without a use-case error (e.g. an unknown intent, invalid input). */
export function intentError(intent: string, status: 400 | 404 | 409, message: string, targetId?: number | null, fieldErrors?: Record<string, string[]>) {
  return data<IntentReply>({ intent, ok: false, message, targetId: targetId ?? null, fieldErrors }, status);
}

/**
 * Turns a use-case's {@link AppError} into a reply with its status and message; rethrows
 * anything else (logged, 500 page).
 */
export function intentRefusal(intent: string, error: unknown, targetId?: number | null) {
  if (!(error instanceof AppError)) throw error;
  return data<IntentReply>({ intent, ok: false, message: error.message, targetId: targetId ?? null, fieldErrors: error.fieldErrors }, error.status);
}

/**
 * For loaders: an {@link AppError} becomes a thrown response with its status and message (the
 * route's ErrorBoundary shows it); anything else is rethrown.
 */
export function throwAsResponse(error: unknown): never {
  if (error instanceof AppError) throw data(error.message, { status: error.status });
  throw error;
}

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
