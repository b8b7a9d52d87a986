/**
 * Case-study screenshots (issue #40): an upload is checked to be an image (by its content),
 * resized with sharp to the widths the public pages use for screenshots today (640 and 1280 px,
 * WebP, plus a 1280 px JPEG fallback; 16:10 crop like the seeded ones) and kept in the file store
 * (ADR 011) under `portfolio/<uuid>/…`. Served by `/portfolio/images/<id>/<variant>`.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { caseStudy, caseStudyImage, type CaseStudyImageRef } from "#app/db/schema";
import type { FileStore } from "#app/features/files/file-store";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError, invalidInput, notFound } from "#app/lib/errors";
import { loadSharp } from "#app/lib/sharp.server";
import { altField } from "./case-study.schema";
import { getCaseStudyForAdmin, setDraftImages } from "./case-studies.server";

/** The variants made of each upload: name → width and format. */
export const IMAGE_VARIANTS = {
  "640.webp": { width: 640, format: "webp" },
  "1280.webp": { width: 1280, format: "webp" },
  "1280.jpg": { width: 1280, format: "jpeg" },
} as const;
export type ImageVariant = keyof typeof IMAGE_VARIANTS;

const ASPECT = { width: 1280, height: 800 };
/** Largest upload read (bytes). */
export const MAX_SCREENSHOT_BYTES = 15 * 1024 * 1024;

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** @returns the URL of a variant of an uploaded screenshot. */
export const imageUrl = (imageId: number, variant: ImageVariant) => `/portfolio/images/${imageId}/${variant}`;

/**
 * Adds an uploaded screenshot at the end of the draft's screenshots.
 *
 * @param bytes - the file's content (PNG, JPEG, WebP, AVIF or GIF; at most {@link MAX_SCREENSHOT_BYTES}).
 * @param alt - required alt text.
 * @throws {AppError} 400 on `file` when it is not an image sharp can read; on `alt` when empty.
 */
export async function addScreenshot(
  db: Database,
  files: FileStore,
  actor: Actor,
  caseStudyId: number,
  bytes: Uint8Array,
  alt: string,
): Promise<number> {
  assertRole(actor, "admin");
  const altText = altField.safeParse(alt);
  if (!altText.success) throw fieldError("alt", altText.error.issues[0]!.message);
  if (bytes.byteLength === 0) throw fieldError("file", "Choose an image file.");
  if (bytes.byteLength > MAX_SCREENSHOT_BYTES) throw fieldError("file", "The image must be at most 15 MB.");
  await getCaseStudyForAdmin(db, actor, caseStudyId);
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata()).format;
  } catch {
    throw fieldError("file", "This file is not an image we can read (PNG, JPEG, WebP, AVIF or GIF).");
  }
  if (!["png", "jpeg", "webp", "avif", "heif", "gif"].includes(format ?? "")) {
    throw fieldError("file", "This file is not an image we can read (PNG, JPEG, WebP, AVIF or GIF).");
  }
  const key = `portfolio/${randomUUID()}`;
  const written: string[] = [];
  try {
    for (const [name, { width, format }] of Object.entries(IMAGE_VARIANTS)) {
      const height = Math.round((width * ASPECT.height) / ASPECT.width);
      const pipeline = sharp(bytes, { limitInputPixels: 50_000_000 }).rotate().resize(width, height, { fit: "cover", position: "top" });
      const out = await (format === "webp" ? pipeline.webp({ quality: 80 }) : pipeline.jpeg({ quality: 82, mozjpeg: true })).toBuffer();
      await files.put(`${key}/${name}`, once(new Uint8Array(out)), format === "webp" ? "image/webp" : "image/jpeg");
      written.push(`${key}/${name}`);
    }
    return await db.transaction(async (tx) => {
      const [image] = await tx
        .insert(caseStudyImage)
        .values({ caseStudyId, storageKey: key, width: ASPECT.width, height: ASPECT.height })
        .returning({ id: caseStudyImage.id });
      const [row] = await tx.select({ draft: caseStudy.draft }).from(caseStudy).where(eq(caseStudy.id, caseStudyId)).for("update");
      const images = [...row!.draft.images, { imageId: image!.id, alt: altText.data, width: ASPECT.width, height: ASPECT.height }];
      await setDraftImages(tx, actor, caseStudyId, images, "screenshot-added");
      return image!.id;
    });
  } catch (error) {
    for (const name of written) await files.delete(name).catch(() => {});
    throw error;
  }
}

/**
 * Changes the draft's screenshots: alt text (`alts[i]` for the i-th), removal of one, or a move.
 *
 * @throws {AppError} 400 when an alt text is empty or the index is out of range.
 */
export async function editScreenshots(
  db: Database,
  actor: Actor,
  caseStudyId: number,
  change: { kind: "alts"; alts: string[] } | { kind: "remove"; index: number } | { kind: "move"; index: number; direction: "up" | "down" },
): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ draft: caseStudy.draft }).from(caseStudy).where(eq(caseStudy.id, caseStudyId)).for("update");
    if (!row) throw notFound("Case study not found");
    const images: CaseStudyImageRef[] = row.draft.images.map((image) => ({ ...image }));
    if (change.kind === "alts") {
      if (change.alts.length !== images.length) throw invalidInput("The screenshots changed meanwhile. Reload the page and try again.");
      for (const [i, alt] of change.alts.entries()) {
        const parsed = altField.safeParse(alt);
        if (!parsed.success) throw fieldError(`alt-${i}`, parsed.error.issues[0]!.message);
        images[i]!.alt = parsed.data;
      }
    } else {
      if (!images[change.index]) throw invalidInput("The screenshots changed meanwhile. Reload the page and try again.");
      if (change.kind === "remove") images.splice(change.index, 1);
      else {
        const to = change.direction === "up" ? change.index - 1 : change.index + 1;
        if (!images[to]) return;
        [images[change.index], images[to]] = [images[to]!, images[change.index]!];
      }
    }
    await setDraftImages(tx, actor, caseStudyId, images, `screenshots-${change.kind}`);
  });
}

/**
 * Whether an uploaded screenshot may be shown to this viewer: to anyone once a published case
 * study shows it, else to admins only (a draft's screenshots are not public).
 *
 * @returns its storage key, or null.
 */
export async function screenshotKey(db: Queryable, imageId: number, viewer: Actor | null): Promise<string | null> {
  const [row] = await db
    .select({ key: caseStudyImage.storageKey, published: caseStudy.published })
    .from(caseStudyImage)
    .innerJoin(caseStudy, eq(caseStudy.id, caseStudyImage.caseStudyId))
    .where(and(eq(caseStudyImage.id, imageId)));
  if (!row) return null;
  if (viewer?.role === "admin") return row.key;
  return row.published?.images.some((image) => image.imageId === imageId) ? row.key : null;
}
