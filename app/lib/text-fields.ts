/**
 * The zod fields every form is built from (docs/product.md#validation), so that one rule
 * holds everywhere: text is trimmed and bounded, and control characters are refused with a
 * message next to the field — NUL and the other C0/C1 controls always, line breaks and tabs
 * too in single-line fields. Used by the actions (and, through `formConstraints`, the
 * browser's constraint checks); imports nothing
 * server-only.
 */
import { z } from "zod";
import { parseId } from "./ids";

/** C0 and C1 control characters (and DEL). */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, without tab, line feed and carriage return (allowed in multi-line text). */
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Options of a text field. */
export interface TextOptions {
  /** Multi-line text (a textarea): tabs and line breaks allowed. */
  multiline?: boolean;
}

/** The message of a value with control characters. */
export const controlCharsMessage = (label: string) => `${label} contains characters that are not allowed.`;

/** True when `value` has no control character that `options` forbids. */
export function hasNoControlChars(value: string, options: TextOptions = {}): boolean {
  return !(options.multiline ? CONTROL_BUT_LINES : CONTROL).test(value);
}

const maxMessage = (label: string, max: number) => `${label} must be at most ${max.toLocaleString("en-US")} characters.`;

/**
 * A required text field: trimmed, non-empty, at most `max` characters, no control characters.
 *
 * @param message - the "missing" message (default "<label> is required.").
 */
export function requiredText(label: string, max: number, options: TextOptions & { message?: string } = {}) {
  const message = options.message ?? `${label} is required.`;
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: maxMessage(label, max), abort: true })
    .refine((value) => hasNoControlChars(value, options), controlCharsMessage(label));
}

/**
 * An optional text field: trimmed, at most `max` characters, no control characters.
 *
 * @returns the text, or null when empty or missing.
 */
export function optionalText(label: string, max: number, options: TextOptions = {}) {
  return z
    .string()
    .trim()
    .max(max, { error: maxMessage(label, max), abort: true })
    .refine((value) => hasNoControlChars(value, options), controlCharsMessage(label))
    .optional()
    .transform((value) => value || null);
}

/** An e-mail address (at most 254 characters), lowercased. */
const emailAddress = z
  .string()
  .trim()
  .max(254, { error: "Email must be at most 254 characters.", abort: true })
  .pipe(z.email("Enter a valid email address."))
  .transform((value) => value.toLowerCase());

/**
 * A required e-mail address, lowercased.
 *
 * @param message - the "missing" message, e.g. "Email is required.".
 */
export function requiredEmail(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true }).pipe(emailAddress);
}

/** An optional e-mail address, lowercased; empty → null. */
export function optionalEmail() {
  return z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(emailAddress.optional())
    .transform((value) => value ?? null);
}

/**
 * An optional whole number typed in decimal digits only (no "0x10", "1e3", "-1", "2.5").
 *
 * @returns the number, or null when empty.
 */
export function optionalWholeNumber(label: string, { min, max }: { min: number; max: number }) {
  const message = `${label} must be a whole number.`;
  const range = `${label} must be between ${min.toLocaleString("en-US")} and ${max.toLocaleString("en-US")}.`;
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      if (!/^\d{1,9}$/.test(value)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      const n = Number(value);
      if (n < min || n > max) ctx.addIssue({ code: "custom", message: range });
      return n;
    });
}

/** Optional http(s) URL (at most 2,048 characters); empty → null. */
export function optionalUrl(label: string) {
  return z
    .string()
    .trim()
    .max(2048, { error: `${label} must be at most 2048 characters.`, abort: true })
    .refine(
      (value) => !value || (/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value) && hasNoControlChars(value)),
      `${label} must be a full address starting with http:// or https://`,
    )
    .optional()
    .transform((value) => value || null);
}

/** A serial id as a zod field (forms and query strings): plain decimal, 1 … 2,147,483,647 (`parseId`). */
export const idSchema = z.string().transform((value, ctx) => {
  const id = parseId(value.trim());
  if (id === null) {
    ctx.addIssue({ code: "custom", message: "This request is incomplete. Reload the page and try again." });
    return z.NEVER;
  }
  return id;
});

/**
 * A schema factory that builds one schema per combination of setting values (e.g. the password
 * length, whether a phone is required) and reuses it, so that what is derived from a schema
 * (`formConstraints`) is computed once per combination.
 */
export function schemaPerSetting<A extends (string | number | boolean | undefined)[], S>(
  build: (...settings: A) => S,
): (...settings: A) => S {
  const built = new Map<string, S>();
  return (...settings) => {
    const key = JSON.stringify(settings);
    let schema = built.get(key);
    if (!schema) {
      schema = build(...settings);
      built.set(key, schema);
    }
    return schema;
  };
}
