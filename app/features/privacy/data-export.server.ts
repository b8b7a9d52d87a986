/**
 * "Download my data" (docs/product.md#download-my-data): one ZIP (fflate) holding `my-data.json` —
 * every section of {@link EXPORT_SECTIONS} — and a README. A small export is built at once and
 * downloaded from the resource route `POST /account/my-data` ({@link exportResponse}); a large one is a job of the `data-export` queue ({@link buildQueuedExport}, retried with
 * back-off, marked failed by {@link markExportFailed} after its last attempt) and mailed as a link to
 * `/account/my-data/<token>`, valid 24 hours for the signed-in owner only, then purged
 * ({@link purgeExpiredExports}, hourly).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, lte, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import type { Database, Queryable } from "#app/db/client.server";
import { dataExport } from "#app/db/schema";
import { enqueueJob, type JobRun } from "#app/features/jobs/jobs.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, rateLimited } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { hitRateLimit, undoRateLimitHit } from "#app/lib/rate-limit.server";
import { EXPORT_SECTIONS } from "./export-sections.server";
import { PRIVACY_MESSAGES } from "./privacy.messages";

/** Above this many rows the export is built in the background and mailed. */
export const INLINE_EXPORT_MAX_ROWS = 2_000;
/** How long the mailed link works. */
export const EXPORT_LINK_HOURS = 24;
/** Export requests per user per hour. */
export const EXPORT_REQUEST_LIMIT = { limit: 3, windowMs: 60 * 60_000 } as const;

/** A ZIP to send: its bytes and file name. */
export interface ExportFile {
  fileName: string;
  bytes: Uint8Array;
}

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

/** The ZIP of everything the portal holds about `userId`. */
export async function buildExport(q: Queryable, userId: string, now: Date = new Date()): Promise<ExportFile> {
  const data: Record<string, unknown> = { exportedAt: now.toISOString() };
  for (const section of EXPORT_SECTIONS) data[section.key] = await section.collect(q, userId);
  const company = companyNameOf(await getSettings(q));
  const readme = [
    `What ${company} holds about you, exported ${now.toISOString()} (times in UTC, amounts in cents).`,
    "",
    "my-data.json has one section per kind of record:",
    ...EXPORT_SECTIONS.map((s) => `- ${s.key}: ${s.description}`),
    "",
    "Passwords, sign-in tokens, two-factor secrets, backup codes and passkey keys are never exported.",
  ].join("\n");
  const bytes = zipSync(
    { "my-data.json": strToU8(JSON.stringify(data, null, 2)), "README.txt": strToU8(readme) },
    { level: 6, mtime: now },
  );
  return { fileName: `my-data-${now.toISOString().slice(0, 10)}.zip`, bytes };
}

/** @returns roughly how many rows the export of `userId` holds. */
export async function exportSize(q: Queryable, userId: string): Promise<number> {
  let total = 0;
  for (const section of EXPORT_SECTIONS) total += await section.count(q, userId);
  return total;
}

/**
 * "Download my data" (the resource route `POST /account/my-data`): the file now when it is small,
 * else a background job that mails a link. Only the signed-in user's own data. The hourly budget
 * counts only what is delivered — a file built or an export queued: a refusal (one is being
 * prepared already) or a build that fails takes its hit back (issue #36).
 *
 * @param options.inlineMaxRows - above this many rows, the background (default {@link INLINE_EXPORT_MAX_ROWS}).
 * @returns the file, or `{ queued: true }` when it will be mailed.
 * @throws {AppError} 429 over {@link EXPORT_REQUEST_LIMIT}; 409 one is being prepared already.
 */
export async function requestDataExport(
  db: Database,
  actor: Actor,
  options: { inlineMaxRows?: number; now?: Date } = {},
): Promise<ExportFile | { queued: true }> {
  const key = `data-export:${actor.id}`;
  const allowed = await hitRateLimit(db, key, EXPORT_REQUEST_LIMIT);
  if (!allowed.allowed) throw rateLimited(PRIVACY_MESSAGES.exportLimit, allowed.retryAfterSeconds);
  try {
    return await buildOrQueue(db, actor, options);
  } catch (error) {
    await undoRateLimitHit(db, key);
    throw error;
  }
}

async function buildOrQueue(db: Database, actor: Actor, options: { inlineMaxRows?: number; now?: Date }) {
  if ((await exportSize(db, actor.id)) <= (options.inlineMaxRows ?? INLINE_EXPORT_MAX_ROWS)) {
    return db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read`);
      return buildExport(tx, actor.id, options.now);
    });
  }
  const [pending] = await db
    .select({ id: dataExport.id })
    .from(dataExport)
    .where(and(eq(dataExport.userId, actor.id), eq(dataExport.status, "pending")));
  if (pending) throw new AppError("CONFLICT", PRIVACY_MESSAGES.exportPending);
  // The token is only known once the file is ready (the mail carries it); a placeholder hash until then.
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(dataExport)
      .values({ userId: actor.id, tokenHash: sha256(randomBytes(32).toString("hex")) })
      .returning({ id: dataExport.id });
    await enqueueJob(tx, "data-export", { exportId: row!.id } satisfies DataExportJobData);
  });
  return { queued: true } as const;
}

/** The data of a `data-export` job. */
export interface DataExportJobData {
  exportId: number;
}

/**
 * The `data-export` job's handler: builds one pending export (in a repeatable-read snapshot), stores
 * it with a new link token and mails the owner the link — in one transaction, so the link is mailed
 * only with the file. A failure rolls that back and is recorded (attempts, last error) in a
 * statement of its own; the queue retries the job with back-off, and after the last attempt
 * {@link markExportFailed} marks it failed. One export failing never holds up another (each is
 * its own job).
 *
 * @param options.now - the build time (tests).
 * @returns "built", or "skipped" when the export is no longer pending (built, failed or deleted).
 * @throws what the build threw (the job is retried).
 */
export async function buildQueuedExport(
  db: Database,
  job: Pick<JobRun<DataExportJobData>, "data">,
  options: { now?: Date } = {},
): Promise<"built" | "skipped"> {
  const now = options.now ?? new Date();
  const [pending] = await db
    .select({ id: dataExport.id, userId: dataExport.userId })
    .from(dataExport)
    .where(and(eq(dataExport.id, job.data.exportId), eq(dataExport.status, "pending")));
  if (!pending) return "skipped";
  try {
    const file = await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read`);
      return buildExport(tx, pending.userId, now);
    });
    const token = randomBytes(32).toString("base64url");
    await db.transaction(async (tx) => {
      const [stored] = await tx
        .update(dataExport)
        .set({
          status: "ready",
          archive: file.bytes,
          sizeBytes: file.bytes.length,
          tokenHash: sha256(token),
          readyAt: now,
          expiresAt: new Date(now.getTime() + EXPORT_LINK_HOURS * 3_600_000),
          attempts: sql`${dataExport.attempts} + 1`,
          lastError: null,
        })
        .where(and(eq(dataExport.id, pending.id), eq(dataExport.status, "pending")))
        .returning({ id: dataExport.id });
      if (!stored) return;
      await queueUserNotice(tx, pending.userId, {
        subject: "Your data is ready to download",
        lines: [
          "The file with everything we hold about you is ready.",
          `The link works for ${EXPORT_LINK_HOURS} hours, when you are signed in to your account.`,
        ],
        link: { label: "Download my data", path: `/account/my-data/${token}` },
      });
    });
    return "built";
  } catch (error) {
    logger.error({ err: error, exportId: pending.id }, "data export: build failed");
    await db
      .update(dataExport)
      .set({ attempts: sql`${dataExport.attempts} + 1`, lastError: String(error).slice(0, 500) })
      .where(eq(dataExport.id, pending.id));
    throw error;
  }
}

/**
 * The `data-export-failed` job's handler (the `data-export` queue's dead letter): the export's last
 * attempt failed, so it is marked failed — the user may ask for a new one (docs/product.md#download-my-data).
 */
export async function markExportFailed(db: Database, job: Pick<JobRun<DataExportJobData>, "data">): Promise<void> {
  const [row] = await db
    .update(dataExport)
    .set({ status: "failed" })
    .where(and(eq(dataExport.id, job.data.exportId), eq(dataExport.status, "pending")))
    .returning({ id: dataExport.id, attempts: dataExport.attempts });
  if (row) logger.error({ exportId: row.id, attempts: row.attempts }, "data export: failed for good, attempts exhausted");
}

/**
 * Deletes the exports whose link expired (part of the hourly `purge` job).
 *
 * @returns how many were deleted.
 */
export async function purgeExpiredExports(db: Database, now: Date = new Date()): Promise<number> {
  const purged = await db.delete(dataExport).where(lte(dataExport.expiresAt, now)).returning({ id: dataExport.id });
  return purged.length;
}

/**
 * The file of a mailed link, for its owner.
 *
 * @throws {AppError} 404 unknown, expired, not ready or another user's.
 */
export async function downloadDataExport(db: Database, actor: Actor, token: string, now: Date = new Date()): Promise<ExportFile> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError("NOT_FOUND", PRIVACY_MESSAGES.exportGone);
  const [row] = await db
    .select()
    .from(dataExport)
    .where(eq(dataExport.tokenHash, sha256(token)));
  if (!row || row.userId !== actor.id || row.status !== "ready" || !row.archive || !row.expiresAt || row.expiresAt <= now) {
    throw new AppError("NOT_FOUND", PRIVACY_MESSAGES.exportGone);
  }
  return { fileName: `my-data-${(row.readyAt ?? now).toISOString().slice(0, 10)}.zip`, bytes: new Uint8Array(row.archive) };
}

/** A ZIP download response (never cached). */
export function exportResponse(file: ExportFile): Response {
  return new Response(Buffer.from(file.bytes), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Content-Length": String(file.bytes.length),
      "Cache-Control": "no-store",
    },
  });
}
