/**
 * Idempotent posts (issue #36): a composer form (a conversation message, a proposal request, a
 * contact message, an ambassador's proposal) carries a hidden `submissionKey` generated when the
 * form is rendered ({@link newSubmissionKey}). The use-case claims the key inside the
 * transaction that writes the post ({@link claimSubmission}); a repeat with the same key — a
 * retry after the connection dropped while the first post was being saved — finds it and gets the
 * first post's result, and nothing is written twice. The primary key `(scope, key)` of
 * `form_submission` holds under concurrency: a second claim waits for the first transaction and
 * then sees its row (or takes the key if the first one rolled back).
 */
import { randomUUID } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { formSubmission } from "#app/db/schema";

export { SUBMISSION_KEY_FIELD } from "./submission-key";

/** How long a key is remembered: 7 days. */
export const SUBMISSION_KEY_RETENTION_MS = 7 * 24 * 60 * 60_000;

const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** @returns a fresh key for a form being rendered (a UUID). */
export function newSubmissionKey(): string {
  return randomUUID();
}

/**
 * @param value - the posted field (anything).
 * @returns the key when well-formed (16–64 letters, digits, `-`, `_`), else undefined (the post
 *   is then not deduplicated: a form without a key, or a forged value).
 */
export function parseSubmissionKey(value: unknown): string | undefined {
  return typeof value === "string" && KEY.test(value) ? value : undefined;
}

/**
 * Runs `write` once per `(scope, key)`.
 *
 * @param tx - the transaction that writes the post (the claim commits or rolls back with it).
 * @param scope - whose key it is, e.g. `user:<id>`.
 * @param key - from {@link parseSubmissionKey}; undefined → `write` runs, nothing is claimed.
 * @param write - the post's writes in `tx`; returns a JSON-serialisable result (e.g. `{ id }`).
 * @returns `{ result, repeat }`: the result of this write, or of the first post when the key was
 *   claimed already (`repeat: true`; nothing was written).
 */
export async function claimSubmission<T extends Record<string, unknown>>(
  tx: Queryable,
  scope: string,
  key: string | undefined,
  write: () => Promise<T>,
): Promise<{ result: T; repeat: boolean }> {
  if (!key) return { result: await write(), repeat: false };
  const claimed = await tx.insert(formSubmission).values({ scope, key }).onConflictDoNothing().returning({ key: formSubmission.key });
  if (!claimed.length) {
    const [first] = await tx
      .select({ result: formSubmission.result })
      .from(formSubmission)
      .where(sql`${formSubmission.scope} = ${scope} and ${formSubmission.key} = ${key}`);
    return { result: (first?.result ?? {}) as T, repeat: true };
  }
  const result = await write();
  await tx
    .update(formSubmission)
    .set({ result })
    .where(sql`${formSubmission.scope} = ${scope} and ${formSubmission.key} = ${key}`);
  return { result, repeat: false };
}

/**
 * The result of a post already saved under this key, looked up before anything else (a repeat is
 * then neither rate-limited nor written).
 *
 * @returns the first post's result, or undefined (no key, or not posted yet).
 */
export async function priorSubmission<T extends Record<string, unknown>>(
  q: Queryable,
  scope: string,
  key: string | undefined,
): Promise<T | undefined> {
  if (!key) return undefined;
  const [first] = await q
    .select({ result: formSubmission.result })
    .from(formSubmission)
    .where(sql`${formSubmission.scope} = ${scope} and ${formSubmission.key} = ${key}`);
  return first ? (first.result as T) : undefined;
}

/**
 * Forgets keys older than {@link SUBMISSION_KEY_RETENTION_MS} (the purge job).
 *
 * @returns how many were deleted.
 */
export async function purgeSubmissionKeys(q: Queryable, now = new Date()): Promise<number> {
  const deleted = await q
    .delete(formSubmission)
    .where(lt(formSubmission.createdAt, new Date(now.getTime() - SUBMISSION_KEY_RETENTION_MS)))
    .returning({ key: formSubmission.key });
  return deleted.length;
}
