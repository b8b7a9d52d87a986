/**
 * What a form needs in the browser, without zod or conform (docs/architecture.md#forms, ADR 010):
 * the HTML constraints of its fields with the messages the server's schema gives for each kind
 * of invalid value ({@link FormConstraints}, made on the server by `formConstraints` in
 * `form-constraints.server.ts`), and the shape of an action's reply ({@link FormResult}).
 * Imports nothing: it is shared by the server and the browser.
 */

/** The browser's kinds of invalid value (`ValidityState` keys) we give messages for. */
export type ValidityKey =
  "valueMissing" | "typeMismatch" | "patternMismatch" | "tooShort" | "tooLong" | "rangeUnderflow" | "rangeOverflow" | "stepMismatch";

/** The order in which a field's problems are reported (one message per field). */
const VALIDITY_ORDER: readonly ValidityKey[] = [
  "valueMissing",
  "typeMismatch",
  "patternMismatch",
  "tooShort",
  "tooLong",
  "rangeUnderflow",
  "rangeOverflow",
  "stepMismatch",
];

/** One field's HTML constraint attributes, and the schema's message for each way of breaking them. */
export interface FieldConstraint {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  step?: number | string;
  /** A regular expression the whole value must match (HTML `pattern`). */
  pattern?: string;
  multiple?: boolean;
  /**
   * The server's message per kind of invalid value (e.g. `valueMissing: "Email is required."`);
   * `whitespace`: for a value of spaces only, which the browser's `required` lets through but the
   * server trims (e.g. "Name is required.").
   */
  messages?: Partial<Record<ValidityKey | "whitespace", string>>;
}

/**
 * A form's constraints by field name. List items are named with `[]` (`items[].amount`), so one
 * entry serves every row.
 */
export type FormConstraints<Name extends string = string> = { [K in Name]?: FieldConstraint };

/** A posted value as a reply echoes it (JSON). */
export type FormValue = string | number | boolean | null | FormValue[] | FormValues;
/** Posted values by field name, nested as conform parses them (`{ items: [{ amount: "5" }] }`). */
export type FormValues = { [name: string]: FormValue };

/**
 * What a schema form's action answers about the form (`FormReply.result`), for `useAppForm`'s
 * `lastResult`: the same keys as conform's reply, which the server builds it from.
 */
export interface FormResult {
  /** "success" or "error"; absent for a list change (add / remove a row) without JavaScript. */
  status?: "success" | "error";
  /**
   * The posted values to show again (nested: `{ items: [{ amount }] }`), or null when the form
   * was saved and is to be cleared. Passwords are never echoed.
   */
  initialValue?: FormValues | null;
  /** Messages per field name; `""` holds the messages about the whole form. */
  error?: Record<string, string[] | null>;
}

/** The constraint key of a field name: list indexes dropped (`items[2].amount` → `items[].amount`). */
export function constraintKey(name: string): string {
  return name.replace(/\[\d+\]/g, "[]");
}

/**
 * The value at a field name in nested values (`items[1].amount`), or undefined.
 */
export function valueAt(values: unknown, name: string): unknown {
  let current: unknown = values;
  for (const part of name.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== "")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A form control the browser validates. */
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * The message for a control the browser finds invalid: the schema's message for the first broken
 * constraint, else the browser's own message (e.g. a number field holding letters). A value of
 * spaces only gets the schema's message for it, if it has one.
 *
 * @returns null when the control is valid or not validated (disabled, hidden, a button).
 */
export function constraintMessage(control: Control, constraint: FieldConstraint | undefined): string | null {
  if (!control.willValidate) return null;
  const whitespace = constraint?.messages?.whitespace;
  if (whitespace && control.value !== "" && control.value.trim() === "") return whitespace;
  if (control.validity.valid) return null;
  for (const key of VALIDITY_ORDER) {
    if (control.validity[key]) return constraint?.messages?.[key] ?? control.validationMessage;
  }
  return control.validationMessage || null;
}

/** True for a named form control the browser validates (inputs, selects, textareas). */
export function isControl(element: Element | null | undefined): element is Control {
  return (
    (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) &&
    element.name !== ""
  );
}
