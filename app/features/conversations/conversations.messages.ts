/**
 * The conversation's limits and words (docs/product.md#conversations), zod-free so that the
 * browser's components can import them (docs/architecture.md#forms); the schema module re-exports them.
 */

/** Longest message, in characters after trimming. */
export const MAX_MESSAGE_LENGTH = 10_000;
/** An author may edit or delete their message this long after posting it. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** At most one message mail per conversation and recipient in this window. */
export const MAIL_WINDOW_MS = 10 * 60 * 1000;

/** Everything the conversation says to the user. */
export const CONVERSATION_MESSAGES = {
  /** Followed by "Try again in N minutes." (`rateLimitedFor`). */
  tooManyMessages: "You have sent many messages in the last hour.",
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
  muted: "Conversation muted: you get no more e-mails about its messages.",
  unmuted: "Conversation unmuted: you get e-mails about its new messages again.",
  deleted: "Message deleted.",
  personNotFound: "Person not found: only the organisation's billing people can be added to a conversation.",
  billingAdded: "Added to this conversation: they can read and write in it and get its e-mails.",
  billingRemoved: "Removed from this conversation.",
  failed: "The message could not be sent. Your text is still here; try again.",
} as const;
