/**
 * The conversation's rules and words shared by the server and the browser
 * (docs/product.md#conversations): message length, the edit window, and every message the user reads.
 */
import { z } from "zod";

/** Longest message, in characters after trimming. */
export const MAX_MESSAGE_LENGTH = 10_000;
/** An author may edit or delete their message this long after posting it. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** At most one message mail per conversation and recipient in this window. */
export const MAIL_WINDOW_MS = 10 * 60 * 1000;

/** Everything the conversation says to the user. */
export const CONVERSATION_MESSAGES = {
  empty: "Write a message before sending.",
  tooLong: `A message may be at most ${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters.`,
  notFound: "Proposal not found",
  messageNotFound: "Message not found",
  notesAdminsOnly: "Only the agency can write internal notes.",
  editWindowOver: "A message can be edited or deleted only within 15 minutes of posting it.",
  notYours: "You can edit or delete only your own messages.",
  alreadyDeleted: "This message was deleted.",
  duplicateMail: "This e-mail was already posted to the conversation.",
  posted: "Message sent.",
  notePosted: "Internal note saved.",
  edited: "Message updated.",
  deleted: "Message deleted.",
  failed: "The message could not be sent. Your text is still here; try again.",
} as const;

/** A message's text: trimmed, 1–10,000 characters. */
export const messageText = z
  .string({ error: CONVERSATION_MESSAGES.empty })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(z.string().min(1, CONVERSATION_MESSAGES.empty).max(MAX_MESSAGE_LENGTH, CONVERSATION_MESSAGES.tooLong));

/** Who sees a message: everyone in the conversation, or the agency only (an internal note). */
export const visibilitySchema = z.enum(["shared", "internal"]).catch("shared");
