/**
 * The canonical form of a version's terms (docs/product.md#canonical-form): a stable JSON
 * serialisation — object keys sorted by UTF-16 code units at every level, arrays in their order,
 * no whitespace, strings escaped as `JSON.stringify` does (`"`, `\`, control characters), integers
 * only — encoded as UTF-8. For the values a version holds (strings, integers, null, arrays, objects)
 * this equals RFC 8785 (JCS). The SHA-256 of these bytes, in lowercase hex, is the version's hash.
 */

/** A JSON value of a version's terms (integers only: money in cents). */
export type CanonicalValue = string | number | boolean | null | CanonicalValue[] | { [key: string]: CanonicalValue };

/**
 * @returns the canonical JSON text of `value`.
 * @throws {TypeError} for a non-integer number or a value JSON cannot hold.
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError("The canonical form holds integers only.");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`).join(",")}}`;
  }
  throw new TypeError("Not a JSON value.");
}
