/**
 * iCalendar text helpers (RFC 5545): unfold, fold at 75 octets, and
 * replace text inside a folded file — used to put the outbox's origin token into a
 * meeting invite and to resolve it when the mail is sent.
 */

/** @returns the text with folded lines joined (CRLF or LF followed by one space or tab removed). */
export function unfoldIcs(text: string): string {
  return text.replace(/\r?\n[ \t]/g, "");
}

/** @returns the text with every content line folded to at most 75 octets (UTF-8), CRLF line ends. */
export function foldIcs(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (Buffer.byteLength(line, "utf8") <= 75) return line;
      const parts: string[] = [];
      let current = "";
      let bytes = 0;
      for (const char of line) {
        const size = Buffer.byteLength(char, "utf8");
        const limit = parts.length === 0 ? 75 : 74; // continuation lines start with a space
        if (bytes + size > limit) {
          parts.push(current);
          current = "";
          bytes = 0;
        }
        current += char;
        bytes += size;
      }
      parts.push(current);
      return parts.join("\r\n ");
    })
    .join("\r\n");
}

/**
 * Replaces every `search` in an iCalendar file, even where a fold splits it.
 *
 * @returns the refolded file.
 */
export function replaceInIcs(text: string, search: string, replacement: string): string {
  return foldIcs(unfoldIcs(text).replaceAll(search, replacement));
}
