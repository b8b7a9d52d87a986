/**
 * Action helpers for conform + zod forms: a 400 with field errors for invalid input, the
 * use-case's {@link AppError} as a 4xx with its message next to the field (or above the
 * form), and anything unexpected rethrown (logged, 500 page).
 */
import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import { AppError } from "./errors";

/** Fields never echoed back to the browser in a reply. */
const SECRET_FIELDS = ["password", "confirmPassword", "newPassword"];

/** 400 with the schema's field errors. */
export function invalid<T>(submission: Submission<T>) {
  return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), ok: false as const }, 400);
}

/**
 * Turns an {@link AppError} into a form reply with its status; rethrows anything else.
 *
 * @param headers - extra headers (e.g. Retry-After).
 */
export function refusal<T>(submission: Submission<T>, error: unknown) {
  if (!(error instanceof AppError)) throw error;
  const reply = error.fieldErrors
    ? submission.reply({ fieldErrors: error.fieldErrors, hideFields: SECRET_FIELDS })
    : submission.reply({ formErrors: [error.message], hideFields: SECRET_FIELDS });
  return data({ result: reply, ok: false as const }, error.status);
}
