/**
 * The server's password rules beyond the form's (docs/product.md#passwords): besides the
 * configurable minimum length and the 128-character maximum (checked by the form schemas),
 * a password may not be one of the most common passwords. The list is zxcvbn-ts's common
 * password dictionary (about 49,000 passwords from public breach corpora), compared without
 * case and surrounding spaces. It stays on the server (the browser never downloads it).
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { fieldError } from "#app/lib/errors";
import { PASSWORD_MESSAGES } from "./accounts.messages";

let common: Set<string> | undefined;

/** The common-password set, built on first use (a few milliseconds, once per process). */
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return common;
}

/**
 * @param password - the password as typed.
 * @returns true when the password (without case, spaces around it removed) is on the common list.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/**
 * Refuses a password that is only whitespace or on the common list.
 *
 * @param password - the new password (registration, reset, admin creation).
 * @param field - the form field to put the message next to (default `password`).
 * @throws {AppError} INVALID_INPUT (400) with {@link PASSWORD_MESSAGES} on `field`.
 */
export function assertPasswordAllowed(password: string, field = "password"): void {
  if (password.trim() === "") throw fieldError(field, PASSWORD_MESSAGES.blank);
  if (isCommonPassword(password)) throw fieldError(field, PASSWORD_MESSAGES.common);
}
