/**
 * Content-type detection of uploads (docs/product.md#files): from the bytes (the `file-type`
 * library's signatures, which also tell Office documents from plain ZIPs), never from the name or
 * the browser's Content-Type. Text has no signature: a file is text when it is valid UTF-8 without
 * NUL or other control characters (tab, line breaks and form feed allowed) — checked over the
 * whole file as it streams by {@link TextCheck}; the name's `.csv` ending then picks CSV over
 * plain text.
 */
import { fileTypeFromBuffer } from "file-type";
import { ALLOWED_KINDS } from "./file-kinds";

/** Bytes read before deciding the type (enough for Office documents' first ZIP entries). */
export const SNIFF_BYTES = 64 * 1024;

/**
 * @param head - the first bytes of the file (up to {@link SNIFF_BYTES}; all of it when shorter).
 * @param name - the sanitised display name (only its `.csv` ending is read, for text).
 * @returns the allowed MIME type, or null when the content is not an allowed kind.
 */
export async function detectContentType(head: Uint8Array, name: string): Promise<string | null> {
  const found = await fileTypeFromBuffer(head);
  if (found) return ALLOWED_KINDS[found.mime] ? found.mime : null;
  if (!new TextCheck().push(head, false)) return null;
  return /\.csv$/i.test(name) ? "text/csv" : "text/plain";
}

/** Incremental check that a byte stream is UTF-8 text without control characters. */
export class TextCheck {
  private decoder = new TextDecoder("utf-8", { fatal: true });

  /**
   * @param last - true for the final piece (an incomplete character at the end then fails).
   * @returns false as soon as the bytes are not acceptable text.
   */
  push(piece: Uint8Array, last: boolean): boolean {
    let text: string;
    try {
      text = this.decoder.decode(piece, { stream: !last });
    } catch {
      return false;
    }
    return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
  }
}
