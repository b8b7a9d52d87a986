/**
 * What a proposal page's loader adds for its conversation (docs/product.md#conversations): the
 * thread as the signed-in reader sees it (opening the page marks it read, a prefetch does not) and
 * the upload limit the composer states, and the composer's idempotency key (issue #36).
 */
import type { RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import { requireUser } from "#app/features/users/session.server";
import { getThread } from "./timeline.server";
import { isPrefetch } from "./thread-route.server";
import type { ThreadView } from "./thread-types";
import { readConversationSettings, type ConversationBillingPerson } from "./participants.server";
import { newSubmissionKey } from "#app/features/submissions/submission-key.server";

/**
 * @param options.billing - also the billing people an owner may add to the conversation (the client's
 *   proposal page; read in the same statement as the reader's mute).
 * @throws {AppError} 404 "Proposal not found" unless the reader takes part.
 */
export async function loadConversation(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  proposalId: number,
  options: { billing?: boolean } = {},
): Promise<{ thread: ThreadView; maxUploadMb: number; muted: boolean; billing: ConversationBillingPerson[]; submissionKey: string }> {
  const { db, env } = args.context.get(servicesContext);
  const actor = requireUser(args.context);
  const thread = await getThread(db, actor, proposalId, { markAsRead: !isPrefetch(args.request) });
  // After the access check above: the client's mute (and, when asked, the billing people) in one statement.
  const settings = actor.role === "client" ? await readConversationSettings(db, actor, proposalId) : null;
  return {
    thread,
    maxUploadMb: env.MAX_UPLOAD_MB,
    muted: settings?.muted ?? false,
    billing: options.billing ? (settings?.billing ?? []) : [],
    // Issue #36: the composer's idempotency key, new for every rendering.
    submissionKey: newSubmissionKey(),
  };
}
