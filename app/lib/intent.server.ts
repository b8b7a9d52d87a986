/**
 * Replies of actions that serve several small forms on one page (design: one action, an
 * `intent` field). Every reply has the same shape, so a component can show the message
 * next to the form that was sent (`intent` + `targetId`) or at the top of the page.
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
