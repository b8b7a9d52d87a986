/**
 * The conversation's zod schemas (docs/product.md#conversations), for the server: the browser's
 * components import the limits and words from the zod-free `conversations.messages.ts`.
 */
import { z } from "zod";

import { CONVERSATION_MESSAGES, MAX_MESSAGE_LENGTH } from "./conversations.messages";

export * from "./conversations.messages";

/** A message's text: trimmed, 1–10,000 characters. */
export const messageText = z
  .string({ error: CONVERSATION_MESSAGES.empty })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(z.string().min(1, CONVERSATION_MESSAGES.empty).max(MAX_MESSAGE_LENGTH, CONVERSATION_MESSAGES.tooLong));

/** Who sees a message: everyone in the conversation, or the agency only (an internal note). */
export const visibilitySchema = z.enum(["shared", "internal"]).catch("shared");
