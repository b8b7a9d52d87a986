/** Bearer tokens of machine endpoints (/metrics, the inbound-mail webhook). */
import { timingSafeEqual } from "node:crypto";

/** Compares `Authorization: Bearer <token>` with the expected token in constant time. */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
