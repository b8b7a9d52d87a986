/**
 * What a live update carries to the browser (docs/product.md#live-updates): shared by the server
 * (which writes it) and the browser (which reads it). Pure, no server imports.
 *
 * An event names a kind and ids, plus the few labels its recipients may load anyway (a status,
 * a project name, an invoice number, an author's name): never anything else.
 */

/** The SSE event name of every update (`event: live`). */
export const LIVE_EVENT = "live";
/** The SSE event sent once a stream is open (its data: `{ "userId": string }`, the stream's own user). */
export const READY_EVENT = "ready";
/** Sent when the browser missed more than the server keeps: reload what the page shows. */
export const RELOAD_EVENT = "reload";
/**
 * Sent just before the server closes a stream for good: the browser must not reconnect on its
 * own. Its data says why (see {@link StreamEndReason}).
 */
export const END_EVENT = "end";

/**
 * Why a stream ended: the session ended (sign-out, deactivation, password change, expiry), the
 * user opened a seventh tab (the oldest stream is closed), the user's role changed, or a client's
 * organisation or role in it changed (removed from it: the page reloads and is refused).
 */
export type StreamEndReason = "signed-out" | "too-many-streams" | "role-changed" | "membership-changed";

/** One update as sent in `data:` (the SSE `id:` is `id`). */
export interface LiveUpdate {
  id: number;
  /** `<entity>.<action>`, e.g. `proposal.status-changed`, `invoice.marked-paid`, `message.posted`. */
  kind: string;
  entityId: string;
  /** The proposal the event is about (its thread), when there is one. */
  proposalId: number | null;
  data: LiveData;
}

/** The labels an event may carry. */
export interface LiveData {
  status?: string;
  projectName?: string | null;
  number?: string;
  /** Display name of who wrote a message. */
  authorName?: string;
  /** A message's id in its thread (appended by the open thread). */
  messageId?: number;
  /** True for an internal note (sent to admins only). */
  internal?: boolean;
  /** The id of the user whose write it is (a tab does not reload for its own user's fresh write). */
  actorId?: string;
}

/** Kinds that belong to a proposal's conversation (issue #23): the open thread appends them. */
export const THREAD_KINDS = ["message.posted", "message.edited", "message.deleted", "note.posted", "note.edited", "note.deleted"] as const;
