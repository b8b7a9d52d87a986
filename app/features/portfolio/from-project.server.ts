/**
 * "Make a case study draft" from a delivered project (issue #40): the project's name, its offer's
 * scope and line items, and the conversation's image files the admin chose prefill a new draft
 * (each image resized like any screenshot, with a placeholder alt text the admin then edits).
 */
import { and, asc, eq, inArray, isNotNull, like } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { storedFile } from "#app/db/schema";
import type { FileStore } from "#app/features/files/file-store";
import { assertRole, type Actor } from "#app/features/users/actor";
import { createCaseStudy, draftFromDeliveredProject, readDeliveredProject } from "./case-studies.server";
import { addScreenshot, MAX_SCREENSHOT_BYTES } from "./images.server";
import { invalidInput } from "#app/lib/errors";

/** @returns the image files shared in a proposal's conversation (id, name), oldest first. */
export async function projectImageFiles(db: Queryable, actor: Actor, proposalId: number): Promise<{ id: number; name: string }[]> {
  assertRole(actor, "admin");
  return db
    .select({ id: storedFile.id, name: storedFile.name })
    .from(storedFile)
    .where(and(eq(storedFile.proposalId, proposalId), isNotNull(storedFile.messageId), like(storedFile.contentType, "image/%")))
    .orderBy(asc(storedFile.id));
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_SCREENSHOT_BYTES) break;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Creates the draft and copies the chosen images into it.
 *
 * @param fileIds - ids of image files of this proposal's conversation (others are ignored).
 * @returns the new case study's id.
 * @throws {AppError} 400 when the project is not completed; 404 when missing.
 */
export async function draftCaseStudyFromProject(
  db: Database,
  files: FileStore,
  actor: Actor,
  proposalId: number,
  fileIds: number[],
): Promise<number> {
  const source = await readDeliveredProject(db, actor, proposalId);
  if (!source.completed) throw invalidInput("Only a completed project can become a case study.");
  const id = await createCaseStudy(db, actor, {
    title: source.projectName,
    content: draftFromDeliveredProject(source),
    sourceProposalId: proposalId,
  });
  if (fileIds.length === 0) return id;
  const chosen = await db
    .select({ key: storedFile.storageKey, name: storedFile.name })
    .from(storedFile)
    .where(
      and(
        eq(storedFile.proposalId, proposalId),
        inArray(storedFile.id, fileIds.slice(0, 20)),
        isNotNull(storedFile.messageId),
        like(storedFile.contentType, "image/%"),
      ),
    )
    .orderBy(asc(storedFile.id));
  for (const [i, file] of chosen.entries()) {
    const stream = await files.get(file.key);
    if (!stream) continue;
    await addScreenshot(db, files, actor, id, await readAll(stream), `${source.projectName} screenshot ${i + 1}`);
  }
  return id;
}
