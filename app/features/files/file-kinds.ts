/**
 * What may be shared in a conversation (docs/product.md#files): the allowed kinds, the limits,
 * the refusal messages and the display-name rule. Shared by the server and the browser (no
 * server imports here).
 */

/** Detected MIME type → what the user reads ("PDF"). */
export const ALLOWED_KINDS: Record<string, string> = {
  "application/pdf": "PDF",
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
  "image/gif": "GIF",
  "text/plain": "plain text",
  "text/csv": "CSV",
  "application/zip": "ZIP",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Word (docx)",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "Excel (xlsx)",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PowerPoint (pptx)",
};

/** Types a browser may show inline (with `Content-Security-Policy: sandbox`); everything else downloads. */
export const INLINE_TYPES = new Set(["application/pdf", "image/png", "image/jpeg", "image/webp", "image/gif"]);

/** Images shown as a thumbnail in the conversation (issue #41). */
export const THUMBNAIL_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** A thumbnail's box on the page, in CSS pixels (its width and height attributes: no layout shift). */
export const THUMBNAIL_SIZE = { width: 160, height: 120 } as const;

/** The file input's `accept` hint (the server decides from the content, whatever the browser says). */
export const ACCEPT_ATTRIBUTE = ".pdf,.png,.jpg,.jpeg,.webp,.gif,.txt,.csv,.zip,.docx,.xlsx,.pptx";

/** Most files on one message. */
export const MAX_FILES_PER_MESSAGE = 10;
/** Longest kept display name, in characters. */
export const MAX_FILE_NAME_LENGTH = 200;

const KIND_LIST = "PDF, PNG, JPEG, WebP, GIF, plain text, CSV, ZIP, Word (docx), Excel (xlsx) or PowerPoint (pptx)";

/** Refusals of an upload (docs/product.md#files), each naming the rule. */
export const FILE_MESSAGES = {
  tooLarge: (name: string, maxMb: number) => `"${name}" is larger than ${maxMb} MB, the most one file may be.`,
  empty: (name: string) => `"${name}" is empty (0 bytes).`,
  wrongKind: (name: string) => `"${name}" is not a kind of file we accept. Allowed: ${KIND_LIST}.`,
  tooMany: `Attach at most ${MAX_FILES_PER_MESSAGE} files to one message.`,
  cut: "The upload was interrupted before it finished. Nothing was saved; try again.",
  malformed: "The upload is malformed. Nothing was saved; try again.",
  notFound: "File not found",
} as const;

/**
 * A display name safe to show and to put in a `Content-Disposition` header: the last path part,
 * without control characters, bidi overrides/isolates and other invisible format characters,
 * whitespace folded, at most {@link MAX_FILE_NAME_LENGTH} characters (the extension kept when
 * cut), "file" when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // Cc (controls), Cf (format: bidi overrides U+202A–202E, isolates U+2066–2069, zero-width …), line/paragraph separators.
  let name = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  if ([...name].length > MAX_FILE_NAME_LENGTH) {
    const chars = [...name];
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 && name.length - dot <= 10 ? [...name.slice(dot)] : [];
    name = chars.slice(0, MAX_FILE_NAME_LENGTH - ext.length).join("") + ext.join("");
  }
  return name || "file";
}

/** @returns e.g. "1.2 MB", "830 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
