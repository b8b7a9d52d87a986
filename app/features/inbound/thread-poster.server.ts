/**
 * Where inbound replies are posted: the conversation's own use-case (issue #23's `postMessage`,
 * with the portal's text and file rules). This module is the one place that binds the two.
 *
 * Until the conversation (issue #23) is on main there is no thread to post to: every reply is
 * refused with {@link THREAD_UNAVAILABLE} (its sender is told), and nothing is written.
 * At merge: `return (input) => postMessage({ db, files, maxUploadMb }, input)`.
 */
import type { AppServices } from "#app/context";
import { AppError } from "#app/lib/errors";
import type { ThreadPoster } from "./inbound.server";

/** The refusal while conversations are not available. */
export const THREAD_UNAVAILABLE = "conversations are not available on this server yet; please answer in the portal.";

/** @returns the poster of inbound replies for the app's services. */
export function createThreadPoster(_services: Pick<AppServices, "db">): ThreadPoster {
  return async () => {
    throw new AppError("CONFLICT", THREAD_UNAVAILABLE);
  };
}
