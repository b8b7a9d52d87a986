/**
 * Where inbound replies are posted: the conversation's own use-case (`postMessage`, with the
 * portal's text and file rules, docs/product.md#email-replies). This module is the one place that
 * binds the two.
 */
import { postMessage, type ConversationServices } from "#app/features/conversations/post-message.server";
import type { ThreadPoster } from "./inbound.server";

/** @returns the poster of inbound replies for the app's services (database, file store, upload limit). */
export function createThreadPoster(services: ConversationServices): ThreadPoster {
  return async (input) => {
    const posted = await postMessage(services, { ...input, visibility: "shared" });
    return { id: posted.id };
  };
}
