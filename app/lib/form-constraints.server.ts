/**
 * The browser-side checks of a form, derived on the server from the form's zod schema
 * (docs/architecture.md#forms, ADR 010): the HTML constraint attributes of each field
 * (`required`, `minLength`, `maxLength`, `min`, `max`, `pattern`), read from the schema's JSON
 * Schema (zod's `toJSONSchema`, input side), and for each one the message the schema itself
 * gives when it is broken — found by parsing a value that breaks it — so that the browser shows,
 * word for word, what the server would answer. A route's loader returns
 * `formConstraints(schema)`; `useAppForm` renders and checks them. zod and conform never reach
 * the browser.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import type { FieldConstraint, FormConstraints } from "./forms";

/** The field names of a form schema's input (list rows come as `items[].amount` keys). */
export type FieldName<S extends z.ZodType> = z.input<S> extends Record<string, unknown> ? Extract<keyof z.input<S>, string> : string;

/** The part of a JSON Schema we read. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
}

/** A field (or list) of a form schema: its name and its JSON Schema, and whether it is required. */
interface SchemaField {
  json: JsonSchema;
  required: boolean;
  /** A list (`items`) or a list's row (`items[]`): no control of its own. */
  list: boolean;
}

const fieldCache = new WeakMap<z.ZodType, Record<string, SchemaField>>();

/** `anyOf` of optional and nullable fields: the branch that says what the value is. */
function unwrap(json: JsonSchema): JsonSchema {
  return json.anyOf?.find((branch) => branch.type !== "null") ?? json;
}

function collect(json: JsonSchema, prefix: string, out: Record<string, SchemaField>) {
  for (const [key, raw] of Object.entries(json.properties ?? {})) {
    const prop = unwrap(raw);
    const name = prefix ? `${prefix}.${key}` : key;
    const required = json.required?.includes(key) ?? false;
    if (prop.type === "array") {
      out[name] = { json: prop, required, list: true };
      const row = unwrap(prop.items ?? {});
      if (row.type === "object") {
        out[`${name}[]`] = { json: row, required: true, list: true };
        collect(row, `${name}[]`, out);
      } else {
        out[`${name}[]`] = { json: row, required: true, list: false };
      }
    } else if (prop.type === "object") {
      collect(prop, name, out);
    } else {
      out[name] = { json: prop, required, list: false };
    }
  }
}

/**
 * The fields of a form schema by name (`items`, `items[]`, `items[].amount` for a list of rows),
 * from its JSON Schema (input side: what the form posts). Also used to cut a reply's echo to the
 * schema's fields and their lengths (`form-action.server.ts`).
 */
export function schemaFields(schema: z.ZodType): Record<string, SchemaField> {
  let fields = fieldCache.get(schema);
  if (!fields) {
    fields = {};
    collect(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema, "", fields);
    fieldCache.set(schema, fields);
  }
  return fields;
}

/**
 * A JSON Schema pattern as an HTML `pattern`, which the browser anchors itself and reads with the
 * `v` flag: the anchors go, and a `-` at either end of a character class (`[A-Za-z0-9_-]`, fine in
 * zod's `u` mode) is escaped, as `v` requires.
 */
function htmlPattern(pattern: string, field: string): string {
  const bare = pattern
    .replace(/^\^/, "")
    .replace(/(?<!\\)\$$/, "")
    .replace(/(?<!\\)\[-/g, "[\\-")
    .replace(/(?<!\\)-\]/g, "\\-]");
  try {
    new RegExp(`^(?:${bare})$`, "v");
  } catch {
    // The browser would ignore it (and log an error): escape the character the `v` flag refuses (e.g. `\-` in a class).
    throw new Error(`The pattern of form field ${field} (${pattern}) is not valid in an HTML pattern attribute (RegExp v flag).`);
  }
  return bare;
}

/** Values that break a `pattern` for most patterns (the first one the pattern refuses is used). */
const PATTERN_BREAKERS = ["!", "~", "a b", "<", "é", "a", "0", "-", "A"];

/**
 * The message `schema` gives when the field `name` holds `value` (the other fields empty), or
 * undefined when it accepts it.
 */
function messageFor(schema: z.ZodType, name: string, value: string): string | undefined {
  const form = new FormData();
  form.set(name, value);
  const submission = parseWithZod(form, { schema });
  return submission.status === "error" ? (submission.error?.[name]?.[0] ?? undefined) : undefined;
}

/** One field's constraint with the schema's messages. */
function fieldConstraint(schema: z.ZodType, key: string, { json, required }: SchemaField): FieldConstraint {
  // A list row's field is probed as the first row's.
  const name = key.replace(/\[\]/g, "[0]");
  const probe = (value: string) => messageFor(schema, name, value);
  const constraint: FieldConstraint = {};
  const messages: NonNullable<FieldConstraint["messages"]> = {};
  if (required && json.type !== "boolean") {
    constraint.required = true;
    messages.valueMissing = probe("");
  }
  if (json.minLength !== undefined && json.minLength > 1) {
    constraint.minLength = json.minLength;
    messages.tooShort = probe("a".repeat(json.minLength - 1));
  }
  if (json.maxLength !== undefined) {
    constraint.maxLength = json.maxLength;
    messages.tooLong = probe("a".repeat(json.maxLength + 1));
  }
  if (json.minimum !== undefined) {
    constraint.min = json.minimum;
    messages.rangeUnderflow = probe(String(json.minimum - 1));
  }
  if (json.maximum !== undefined) {
    constraint.max = json.maximum;
    messages.rangeOverflow = probe(String(json.maximum + 1));
  }
  if (json.pattern !== undefined) {
    const pattern = htmlPattern(json.pattern, key);
    constraint.pattern = pattern;
    const whole = new RegExp(`^(?:${pattern})$`, "v");
    const breaker = PATTERN_BREAKERS.map((b) => b.repeat(Math.max(1, json.minLength ?? 1))).find((b) => !whole.test(b));
    if (breaker !== undefined) messages.patternMismatch = probe(breaker);
  } else if (json.type === "string") {
    // A field the schema takes as an e-mail address or a web address (rendered `type="email"` /
    // `type="url"`): "x" is refused where a well-formed one is not — its format message.
    const refused = probe("x");
    if (refused && (!probe("name@example.com") || !probe("https://example.com/"))) messages.typeMismatch = refused;
  }
  if (json.type === "string" || json.type === undefined) {
    // Spaces only: trimmed away by most fields ("… is required."), refused by some (passwords).
    const whitespace = probe(" ".repeat(Math.max(1, json.minLength ?? 1)));
    if (whitespace) messages.whitespace = whitespace;
  }
  const found = Object.fromEntries(Object.entries(messages).filter(([, m]) => m !== undefined));
  if (Object.keys(found).length) constraint.messages = found;
  return constraint;
}

const cache = new WeakMap<z.ZodType, FormConstraints>();

/**
 * The browser-side checks of the form `schema` validates: per field, its HTML constraint
 * attributes and the schema's message for each one broken. Computed once per schema object
 * (memoize schemas built from settings, such as one with the password length).
 *
 * @param schema - the form's zod object schema (whole-form refinements allowed), as the action parses it.
 * @returns by field name (`items[].amount` for list rows); the route's loader returns it and the
 *   component passes it to `useAppForm({ constraint })`.
 * @throws {Error} when a field's pattern is not valid in an HTML `pattern` attribute (a programming error).
 */
export function formConstraints<S extends z.ZodType>(schema: S): FormConstraints<FieldName<S>> {
  let constraints = cache.get(schema);
  if (!constraints) {
    constraints = {};
    for (const [key, field] of Object.entries(schemaFields(schema))) {
      if (!field.list) constraints[key] = fieldConstraint(schema, key, field);
    }
    cache.set(schema, constraints);
  }
  return constraints as FormConstraints<FieldName<S>>;
}
