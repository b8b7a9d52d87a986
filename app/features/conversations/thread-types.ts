/** The shapes of a conversation as the pages receive them (no server code: components import these). */

/** A file as the conversation lists it. */
export interface ThreadFile {
  id: number;
  name: string;
  size: number;
  contentType: string;
  url: string;
  uploadedByName: string;
  /** ISO instant (UTC). */
  createdAt: string;
  /** Attached to an internal note (admins only ever get these). */
  internal: boolean;
}

/** One entry of the timeline. Instants are ISO strings (UTC). */
export type TimelineEntry =
  | {
      kind: "message";
      key: string;
      id: number;
      authorName: string;
      role: "Agency" | "Client";
      body: string;
      internal: boolean;
      createdAt: string;
      edited: boolean;
      deleted: boolean;
      via: "web" | "email";
      /** Until when the reader may edit or delete it (their own message), else null. */
      editableUntil: string | null;
      files: ThreadFile[];
    }
  | { kind: "event"; key: string; id: number; authorName: string; text: string; detail?: string; createdAt: string };

/** A conversation as its reader sees it. */
export interface ThreadView {
  proposalId: number;
  label: string;
  side: "client" | "agency";
  entries: TimelineEntry[];
  /** The first message the reader had not read (the "New" divider goes before it), or null. */
  firstUnreadId: number | null;
  fileCount: number;
}
