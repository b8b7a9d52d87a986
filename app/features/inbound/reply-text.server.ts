/**
 * The new part of an e-mail reply (docs/product.md#email-replies): the quoted history ("> …"
 * lines, "On … wrote:" blocks in several languages), and the signature after "-- " are removed
 * with `email-reply-parser` (Crisp's port of GitHub's parser); an HTML-only mail is read as text
 * first (mailparser's html-to-text). Line breaks are kept.
 */
import EmailReplyParser from "email-reply-parser";

/** Text after which a mail client's own quoted history starts (Outlook writes no "> " quotes). */
const OUTLOOK_HEADER = /^(?:-{2,}\s*Original Message\s*-{2,}|_{10,})\s*$|^From: .+\n(?:Sent|Date): /im;

/**
 * @param text - the mail's plain-text body (or its HTML read as text).
 * @returns the reply without quotes and signature, trimmed ("" when nothing is left).
 */
export function extractReply(text: string): string {
  const normalised = text.replace(/\r\n?/g, "\n");
  let reply = new EmailReplyParser().parseReply(normalised);
  const outlook = OUTLOOK_HEADER.exec(reply);
  if (outlook) reply = reply.slice(0, outlook.index);
  return reply.replace(/[ \t]+$/gm, "").trim();
}
