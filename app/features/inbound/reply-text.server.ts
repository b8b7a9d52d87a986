/**
 * The new part of an e-mail reply (docs/product.md#email-replies): the quoted history ("> …"
 * lines, "On … wrote:" blocks in several languages), and the signature after "-- " are removed
 * with `email-reply-parser` (Crisp's port of GitHub's parser); an HTML-only mail is read as text
 * first (mailparser's html-to-text). Line breaks are kept.
 */
import EmailReplyParser from "email-reply-parser";
import { MAX_MESSAGE_LENGTH } from "#app/features/conversations/conversations.messages";

/**
 * How much of a mail's text is read for its reply (issue #36): a reply longer than a message's
 * 10,000 characters is refused anyway, and email-reply-parser's cost grows faster than the text
 * (a 2 MB text took 17 s, a 24 MB one minutes, blocking the process). The reply is at the top;
 * what lies past this many characters is quoted history, or too long to post.
 */
export const REPLY_SCAN_CHARS = MAX_MESSAGE_LENGTH * 4;
/** How much of an HTML-only mail is read as text (markup takes room): 256 KB. */
export const HTML_SCAN_CHARS = 256 * 1024;

/** Text after which a mail client's own quoted history starts (Outlook writes no "> " quotes). */
const OUTLOOK_HEADER = /^(?:-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$|^From: .+\n(?:Sent|Date): /im;

/**
 * @param text - the mail's plain-text body (or its HTML read as text); only its first
 *   {@link REPLY_SCAN_CHARS} characters are read (cut at a line's end when there is one).
 * @returns the reply without quotes and signature, trimmed ("" when nothing is left). Linear in
 *   the text's length and bounded: at most {@link REPLY_SCAN_CHARS} characters are parsed.
 */
export function extractReply(text: string): string {
  const normalised = head(text, REPLY_SCAN_CHARS).replace(/\r\n?/g, "\n");
  let reply = new EmailReplyParser().parseReply(normalised);
  const outlook = OUTLOOK_HEADER.exec(reply);
  if (outlook) reply = reply.slice(0, outlook.index);
  return reply.replace(/[ \t]+$/gm, "").trim();
}

/** The first `max` characters of `text`, cut after the last line break within them when there is one. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf("\n", max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * An HTML-only mail's text, read in one pass over its first {@link HTML_SCAN_CHARS} characters:
 * scripts and styles dropped, a line break for `<br>` and at the end of blocks (p, div, li, tr,
 * headings, blockquote), other tags removed, the common entities decoded. (mailparser's own
 * html-to-text conversion is skipped: it took 4 s a megabyte.)
 *
 * @returns plain text for {@link extractReply}.
 */
export function htmlToText(html: string): string {
  return head(html, HTML_SCAN_CHARS)
    .replace(/<(script|style|head)\b[^>]*>[^]*?<\/\1\s*>/gi, "")
    .replace(/<br\s*\/?>|<\/(?:p|div|li|tr|h[1-6]|blockquote|pre|table)\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n");
}
