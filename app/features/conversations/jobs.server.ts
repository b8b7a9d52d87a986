/**
 * The conversations' background work, the `conversations` job (every minute, ADR 019; each step is
 * safe to run from several processes at once): mail the conversations whose 10-minute window
 * ended, and sweep files (stale pending uploads, bytes of deleted files).
 */
import type { Database } from "#app/db/client.server";
import type { FileStore } from "#app/features/files/file-store";
import { sweepFiles } from "#app/features/files/uploads.server";
import { flushDueMessageMails } from "./message-mail.server";

/**
 * One pass of the conversations' background work.
 *
 * @throws what a step threw (the pass runs again at the next minute).
 */
export async function runConversationJobs(s: { db: Database; files: FileStore }): Promise<void> {
  await flushDueMessageMails(s.db);
  await sweepFiles(s);
}
