/**
 * The hash of a version's terms (docs/product.md#canonical-form): SHA-256 over the UTF-8 bytes of
 * {@link canonicalJson}, lowercase hex.
 */
import { createHash } from "node:crypto";
import { canonicalJson, type CanonicalValue } from "./canonical";

/** @returns the 64-character lowercase hex SHA-256 of the canonical form of `terms`. */
export function termsHash(terms: CanonicalValue): string {
  return createHash("sha256").update(canonicalJson(terms), "utf8").digest("hex");
}
