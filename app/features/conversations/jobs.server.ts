/**
 * The conversations' background work, in every app instance (each step is safe to run from
 * several at once): mail the conversations whose 10-minute window ended, and sweep files (stale
 * pending uploads, bytes of deleted files).
 */
import type { Database } from "#app/db/client.server";
import type { FileStore } from "#app/features/files/file-store";
import { sweepFiles } from "#app/features/files/uploads.server";
import { logger } from "#app/lib/logger.server";
import { flushDueMessageMails } from "./message-mail.server";

/** How often the jobs run. */
export const CONVERSATION_JOBS_INTERVAL_MS = 30_000;

/** Starts the jobs; `stop()` waits for a running pass to finish. */
export function startConversationJobs(
  s: { db: Database; files: FileStore },
  intervalMs = CONVERSATION_JOBS_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const pass = async () => {
    try {
      await flushDueMessageMails(s.db);
      await sweepFiles(s);
    } catch (error) {
      logger.error({ err: error }, "conversation jobs failed; retrying at the next pass");
    }
  };
  const timer = setInterval(() => {
    if (!running) running = pass().finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
