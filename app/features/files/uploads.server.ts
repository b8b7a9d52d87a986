/**
 * Storing uploads (docs/product.md#files): an upload is streamed into the `FileStore` as a
 * *pending* `file` row (no message yet), its type decided from its first bytes, its size and
 * SHA-256 counted on the way; `postMessage` then attaches pending files to the message it writes.
 * Anything refused — too large, empty, not an allowed kind, cut halfway, or the message itself
 * refused — is discarded at once: the row is deleted and the store's bytes with it
 * ({@link discardFiles}), so nothing of a refused upload stays. Pending rows a crash left behind
 * are swept after an hour ({@link sweepFiles}), and every deleted row's bytes go through the
 * `file_gc` queue its trigger fills (migration 0013).
 */
import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { fileGc, storedFile } from "#app/db/schema";
import { AppError, rateLimitedFor } from "#app/lib/errors";
import { assertRole, type Actor } from "#app/features/users/actor";
import { logger } from "#app/lib/logger.server";
import { detectContentType, SNIFF_BYTES, TextCheck } from "./detect.server";
import { FILE_MESSAGES, formatBytes, sanitizeFileName } from "./file-kinds";
import type { FileStore } from "./file-store";

/** What storing and discarding files need: the database, the store and the size limit. */
export interface FileServices {
  db: Database;
  files: FileStore;
  /** `MAX_UPLOAD_MB`: the largest file, in MB. */
  maxUploadMb: number;
}

/** A stored upload waiting for its message. */
export interface PendingFile {
  id: number;
  name: string;
  size: number;
  contentType: string;
}

/** Uploads per account per hour (#36): beyond it, 429 until the window passes. */
export const UPLOAD_RATE = { limit: 100, windowMs: 60 * 60 * 1000 } as const;

/** Messages of the storage quota and upload rate (#36). */
export const STORAGE_MESSAGES = {
  full: (used: string, quota: string) =>
    `Your files use ${used} of the ${quota} of storage you have with us, so this file cannot be stored. Delete files you no longer need, or ask us for more room.`,
  /** Followed by "Try again in N minutes." (`rateLimitedFor`). */
  tooMany: "You have uploaded many files in the last hour.",
} as const;

/**
 * The storage a proposal's client organisation uses (the files of all its proposals; its client's
 * when the proposal has no organisation) and its quota (Settings, #36).
 *
 * @returns bytes used and bytes allowed.
 */
export async function storageOfProposal(db: Queryable, proposalId: number): Promise<{ usedBytes: number; quotaBytes: number }> {
  const rows = rowsOf<{ used: string | number | null; quota: number | null }>(
    await db.execute(sql`
      select (select coalesce(sum(f.size), 0) from file f join proposal p on p.id = f.proposal_id
                where (t.organisation_id is not null and p.organisation_id = t.organisation_id)
                   or (t.organisation_id is null and p.client_id = t.client_id)) as used,
             (select storage_quota_mb from settings where id = 1) as quota
      from proposal t where t.id = ${proposalId}`),
  );
  const row = rows[0];
  return { usedBytes: Number(row?.used ?? 0), quotaBytes: (row?.quota ?? 2048) * 1024 * 1024 };
}

/** How long a pending upload may wait for its message before it is swept. */
export const PENDING_FILE_TTL_MS = 60 * 60 * 1000;

/** A refusal of one file, shown next to the file field. */
function refuse(message: string): AppError {
  return new AppError("INVALID_INPUT", message, { fieldErrors: { files: [message] } });
}

/**
 * Streams one upload into the store as a pending file of `proposalId`.
 *
 * @param input.name - the name the browser (or mail) gave; kept sanitised for display.
 * @param input.content - the bytes, read once, chunk by chunk.
 * @returns the pending file.
 * @throws {AppError} INVALID_INPUT (on `files`) when empty, larger than `MAX_UPLOAD_MB`, or not an
 *   allowed kind — nothing stays stored; any error of `content` (a cut upload) after discarding.
 */
export async function storePendingFile(
  s: FileServices,
  input: { proposalId: number; uploader: { id: string; name: string }; name: string; content: AsyncIterable<Uint8Array> },
): Promise<PendingFile> {
  const name = sanitizeFileName(input.name);
  // An hourly upload budget per account and the organisation's storage quota (#36), before a byte is stored.
  const rate = await hitRateLimit(s.db, `upload:${input.uploader.id}`, UPLOAD_RATE);
  if (!rate.allowed) throw rateLimitedFor(STORAGE_MESSAGES.tooMany, rate.retryAfterSeconds);
  const storage = await storageOfProposal(s.db, input.proposalId);
  const roomBytes = storage.quotaBytes - storage.usedBytes;
  const fullMessage = STORAGE_MESSAGES.full(formatBytes(storage.usedBytes), formatBytes(storage.quotaBytes));
  const full = () => new AppError("PAYLOAD_TOO_LARGE", fullMessage, { fieldErrors: { files: [fullMessage] } });
  if (roomBytes <= 0) throw full();
  const maxBytes = s.maxUploadMb * 1024 * 1024;
  const iterator = input.content[Symbol.asyncIterator]();

  // The first bytes decide the type before anything is stored.
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const headBuffer = Buffer.concat(head);
  if (headBuffer.length === 0) throw refuse(FILE_MESSAGES.empty(name));
  if (headBuffer.length > maxBytes) throw refuse(FILE_MESSAGES.tooLarge(name, s.maxUploadMb));
  if (headBuffer.length > roomBytes) throw full();
  const contentType = await detectContentType(headBuffer.subarray(0, SNIFF_BYTES), name);
  if (!contentType) throw refuse(FILE_MESSAGES.wrongKind(name));

  const storageKey = randomUUID();
  const [row] = await s.db
    .insert(storedFile)
    .values({
      proposalId: input.proposalId,
      uploadedById: input.uploader.id,
      uploadedByName: input.uploader.name,
      name,
      contentType,
      storageKey,
    })
    .returning({ id: storedFile.id });
  const id = row!.id;

  const hash = createHash("sha256");
  const text = contentType.startsWith("text/") ? new TextCheck() : null;
  let size = 0;
  const check = (piece: Uint8Array, last: boolean) => {
    size += piece.length;
    if (size > maxBytes) throw refuse(FILE_MESSAGES.tooLarge(name, s.maxUploadMb));
    if (size > roomBytes) throw full();
    if (text && !text.push(piece, last)) throw refuse(FILE_MESSAGES.wrongKind(name));
    hash.update(piece);
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    check(headBuffer, done);
    yield headBuffer;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        if (text && !text.push(new Uint8Array(0), true)) throw refuse(FILE_MESSAGES.wrongKind(name));
        return;
      }
      check(next.value, false);
      yield next.value;
    }
  }
  try {
    await s.files.put(storageKey, body(), contentType);
  } catch (error) {
    await discardFiles(s, [id]);
    throw error;
  }
  await s.db
    .update(storedFile)
    .set({ size, sha256: hash.digest("hex") })
    .where(eq(storedFile.id, id));
  return { id, name, size, contentType };
}

/**
 * Deletes files (pending or not) and their bytes now: the rows, then each key the trigger queued.
 * A store failure leaves the key queued for {@link sweepFiles}.
 */
export async function discardFiles(s: Pick<FileServices, "db" | "files">, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const gone = await s.db.delete(storedFile).where(inArray(storedFile.id, ids)).returning({ key: storedFile.storageKey });
  await deleteBytes(
    s,
    gone.map((g) => g.key),
  );
}

/** Deletes the store's bytes of queued keys and unqueues those done. */
async function deleteBytes(s: Pick<FileServices, "db" | "files">, keys: string[]): Promise<number> {
  let deleted = 0;
  for (const key of keys) {
    try {
      await s.files.delete(key);
      await s.db.delete(fileGc).where(eq(fileGc.storageKey, key));
      deleted++;
    } catch (error) {
      logger.warn({ err: error, key }, "file store delete failed; the key stays queued");
    }
  }
  return deleted;
}

/**
 * The files sweep (run every minute by the conversation jobs, and by tests): deletes pending
 * uploads older than {@link PENDING_FILE_TTL_MS}, then the bytes of every queued key (files of
 * deleted messages, proposals and users).
 *
 * @returns how many keys' bytes were deleted.
 */
export async function sweepFiles(s: Pick<FileServices, "db" | "files">, now: Date = new Date()): Promise<number> {
  await s.db
    .delete(storedFile)
    .where(and(isNull(storedFile.messageId), lt(storedFile.createdAt, new Date(now.getTime() - PENDING_FILE_TTL_MS))));
  let total = 0;
  for (;;) {
    const batch = await s.db.select({ key: fileGc.storageKey }).from(fileGc).orderBy(fileGc.queuedAt).limit(100);
    if (batch.length === 0) return total;
    const deleted = await deleteBytes(
      s,
      batch.map((b) => b.key),
    );
    total += deleted;
    if (deleted < batch.length) return total;
  }
}

/**
 * The admin dashboard's storage use (docs/product.md#files).
 *
 * @returns the number and bytes of every shared file (pending uploads excluded).
 * @throws {AppError} 403 unless an admin.
 */
export async function storageUsed(db: Database, actor: Actor): Promise<{ files: number; bytes: number }> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({ files: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(${storedFile.size}), 0)::bigint` })
    .from(storedFile)
    .where(sql`${storedFile.messageId} is not null`);
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}
