/**
 * E-mail replies that land in the conversation (docs/product.md#email-replies). One function,
 * {@link receiveInboundMail}, used by both ways mail reaches the app — the SMTP listener
 * (smtp-listener.server.ts) and `POST /webhooks/inbound-mail` (webhook.server.ts):
 *
 * 1. the raw RFC 822 message is parsed with `mailparser`;
 * 2. its reply address `reply+<token>@INBOUND_DOMAIN` (the envelope recipient, else To / Cc /
 *    Delivered-To) is checked: a forged or expired token, a deactivated user, a user who no longer
 *    takes part in the conversation, or a `From` that is not the user's current address is
 *    refused — nothing is written, it is logged, and the sender is told in one automatic answer
 *    (`Auto-Submitted: auto-replied`) at most once per hour, only when the `From` address is an
 *    active user's (no backscatter to forged senders), at most 100 such answers an hour in all;
 * 3. automatic mail (out-of-office answers, bounces, lists) is ignored, never answered;
 * 4. the same Message-ID is posted once: a delivery claims it first (a claim that was never
 *    posted may be taken again after 10 minutes);
 * 5. the new text (quotes and signature removed) and the attachments are posted to the thread as
 *    the token's user, "via e-mail", through the conversation's own use-case (issue #23's
 *    `postMessage`, which applies the portal's file rules); a refusal there is told to the sender too.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { AddressObject, ParsedMail } from "mailparser";
import type { Database } from "#app/db/client.server";
import { inboundMail, user } from "#app/db/schema";
import { proposalAudience } from "#app/features/live/live-events.server";
import { queueNotification } from "#app/features/mail/notifications.server";
import { roleOf, type Actor } from "#app/features/users/actor";
import { AppError } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { hitRateLimit, peekRateLimit } from "#app/lib/rate-limit.server";
import { INBOUND_MESSAGES } from "./inbound.messages";
import { extractReply, htmlToText } from "./reply-text.server";
import { tokenOfAddress, verifyReplyToken } from "./reply-token.server";

/** Largest inbound message (raw bytes): 25 MB. */
export const INBOUND_MAX_BYTES = 25 * 1024 * 1024;
/** A sender is told of refused replies at most once per hour. */
export const REFUSAL_NOTICE_WINDOW_MS = 3600 * 1000;
/** Refusal notices sent per hour in all, whoever they go to (issue #36: a cap on automatic answers). */
export const REFUSAL_NOTICE_GLOBAL_LIMIT = 100;
const GLOBAL_NOTICE_KEY = "inbound-refusal:*";
/** A Message-ID claimed but never posted may be claimed again after this long. */
const CLAIM_STALE_MS = 10 * 60 * 1000;

/** One message to post to a conversation (the shape of issue #23's `postMessage` input). */
export interface ThreadPostInput {
  author: Actor;
  proposalId: number;
  text: string;
  attachments: { name: string; content: Uint8Array }[];
  via: "email";
  /** The mail's Message-ID. */
  inboundMessageId: string;
}

/**
 * Posts a message to a conversation (issue #23's use-case).
 *
 * @returns the posted message's id.
 * @throws {AppError} when the conversation refuses it (its text or file rules, no access).
 */
export type ThreadPoster = (input: ThreadPostInput) => Promise<{ id: number }>;

export interface InboundDeps {
  db: Database;
  /** The server's secret (reply tokens are signed with a key derived from it). */
  secret: string;
  /** INBOUND_DOMAIN. */
  domain: string;
  post: ThreadPoster;
  now?: () => Date;
}

/** Why a reply was refused. */
export type RefusalReason = "forged" | "expired" | "not-allowed" | "wrong-sender" | "empty" | "refused-content" | "no-sender";

/** What became of an inbound message. */
export type InboundOutcome =
  | { status: "posted"; messageId: number; proposalId: number }
  | { status: "duplicate" }
  | { status: "refused"; reason: RefusalReason; told: boolean }
  | { status: "ignored"; reason: "no-reply-address" | "automatic" };

/** The reply addresses of `domain` among the recipients (envelope first, else the headers). */
function replyTokens(mail: ParsedMail, domain: string, envelopeTo: string[] | undefined): string[] {
  const headerAddresses = (field: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ""));
  const extra = ["delivered-to", "x-original-to", "envelope-to"].flatMap((name) => {
    const value = mail.headers.get(name);
    return typeof value === "string" ? [value] : [];
  });
  const candidates = envelopeTo?.length ? envelopeTo : [...headerAddresses(mail.to), ...headerAddresses(mail.cc), ...extra];
  return candidates.map((address) => tokenOfAddress(address.trim().replace(/^<|>$/g, ""), domain)).filter((t): t is string => t !== null);
}

/** RFC 3834: answers, bounces and list mail are never posted nor answered. */
function isAutomatic(mail: ParsedMail): boolean {
  const header = (name: string) => {
    const value = mail.headers.get(name);
    return typeof value === "string" ? value.toLowerCase() : value ? JSON.stringify(value).toLowerCase() : "";
  };
  const autoSubmitted = header("auto-submitted");
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (/\b(bulk|junk|list|auto_reply)\b/.test(header("precedence"))) return true;
  if (mail.headers.has("list-id") || mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond")) return true;
  return /^(mailer-daemon|postmaster)@/i.test(mail.from?.value[0]?.address ?? "");
}

/**
 * Handles one inbound message.
 *
 * @param raw - the message as received (at most {@link INBOUND_MAX_BYTES}; the callers enforce it).
 * @param envelope.to - the SMTP envelope's recipients (the webhook has none: the headers are read).
 * @returns what became of it. Refusals and ignored mail write nothing (but the refusal notice).
 * @throws on a failure that may pass (the database is down): the caller answers "try again later".
 */
export async function receiveInboundMail(deps: InboundDeps, raw: Buffer, envelope: { to?: string[] } = {}): Promise<InboundOutcome> {
  const now = deps.now?.() ?? new Date();
  const mail = await parseInboundMail(raw);
  const sender = mail.from?.value[0]?.address?.trim().toLowerCase() ?? "";
  const [token] = replyTokens(mail, deps.domain, envelope.to);
  if (!token) {
    logger.info({ messageId: mail.messageId }, "inbound mail: no reply address of ours; ignored");
    return { status: "ignored", reason: "no-reply-address" };
  }
  if (isAutomatic(mail)) {
    logger.info({ messageId: mail.messageId }, "inbound mail: automatic message (auto-reply, bounce or list); ignored");
    return { status: "ignored", reason: "automatic" };
  }
  const refuse = async (reason: RefusalReason, context: Record<string, unknown> = {}, detail?: string): Promise<InboundOutcome> => {
    logger.warn({ reason, messageId: mail.messageId, ...context }, "inbound mail: reply refused");
    const told = sender ? await tellSender(deps.db, sender, noticeText(reason, detail)) : false;
    return { status: "refused", reason: sender ? reason : "no-sender", told };
  };

  const target = verifyReplyToken(deps.secret, token, now);
  if ("problem" in target) return refuse(target.problem);
  const context = { userId: target.userId, proposalId: target.proposalId };
  const [account] = await deps.db
    .select({ id: user.id, email: user.email, role: user.role, banned: user.banned })
    .from(user)
    .where(eq(user.id, target.userId));
  if (!account || account.banned) return refuse("not-allowed", context);
  if (!sender || sender !== account.email.toLowerCase()) return refuse("wrong-sender", context);
  const author: Actor = { id: account.id, email: account.email, role: roleOf(account.role) };
  const audience = await proposalAudience(deps.db, target.proposalId);
  const takesPart = audience !== null && (author.role === "admin" || (author.role === "client" && audience.clientIds.includes(author.id)));
  if (!takesPart) return refuse("not-allowed", context);

  const attachments = mail.attachments
    .filter((a) => !a.related)
    .map((a) => ({
      name: a.filename || "attachment",
      content: new Uint8Array(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    }));
  const body = replyBody(mail);
  if (!body && attachments.length === 0) return refuse("empty", context);

  // One post per Message-ID (a mail without one is named by its content's hash).
  const messageId = (mail.messageId ?? `<sha256-${createHash("sha256").update(raw).digest("hex")}>`).slice(0, 500);
  if (!(await claim(deps.db, messageId, context))) {
    logger.info({ messageId, ...context }, "inbound mail: already posted; ignored");
    return { status: "duplicate" };
  }
  let posted: { id: number };
  try {
    posted = await deps.post({
      author,
      proposalId: target.proposalId,
      text: body || INBOUND_MESSAGES.filesOnly,
      attachments,
      via: "email",
      inboundMessageId: messageId,
    });
  } catch (error) {
    await release(deps.db, messageId);
    if (error instanceof AppError) {
      if (error.code === "CONFLICT" && /already/i.test(error.message)) return { status: "duplicate" };
      return refuse(error.code === "NOT_FOUND" ? "not-allowed" : "refused-content", context, error.message);
    }
    throw error;
  }
  await deps.db.update(inboundMail).set({ postedMessageId: posted.id }).where(eq(inboundMail.messageId, messageId));
  logger.info({ messageId, ...context, threadMessageId: posted.id, files: attachments.length }, "inbound mail: reply posted");
  return { status: "posted", messageId: posted.id, proposalId: target.proposalId };
}

/**
 * Parses a raw message (mailparser, streaming through its MIME parts, fed in 256 KB slices so that
 * the process answers other requests meanwhile; attachments decoded as they arrive). mailparser's own HTML-to-text conversion is skipped (4 s a megabyte): {@link replyBody}
 * reads a bounded head of the HTML instead. Issue #36: linear in the message's size
 * (bench/inbound-large.ts). mailparser is loaded on the first message, not at each start of a
 * server (issue #42).
 */
export async function parseInboundMail(raw: Buffer): Promise<ParsedMail> {
  const { simpleParser } = await import("mailparser");
  return simpleParser(Readable.from(slices(raw)), {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipHtmlToText: true,
  });
}

/** Bytes handed to the parser at a time: given all at once, a 24 MB message held the process for seconds. */
const PARSE_SLICE_BYTES = 256 * 1024;

/** `raw` in slices, yielding to the event loop between them (other requests are answered meanwhile). */
async function* slices(raw: Buffer): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < raw.length; offset += PARSE_SLICE_BYTES) {
    yield raw.subarray(offset, offset + PARSE_SLICE_BYTES);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The new text of a parsed reply: its plain text, else its HTML read as text; quotes and signature removed (bounded work). */
export function replyBody(mail: ParsedMail): string {
  return extractReply(mail.text?.trim() ? mail.text : typeof mail.html === "string" ? htmlToText(mail.html) : "");
}

/** Claims a Message-ID for posting. @returns false when it was posted already or is being posted now. */
async function claim(db: Database, messageId: string, context: { userId: string; proposalId: number }): Promise<boolean> {
  const rows = await db
    .insert(inboundMail)
    .values({ messageId, ...context })
    .onConflictDoUpdate({
      target: inboundMail.messageId,
      set: { receivedAt: sql`now()` },
      setWhere: and(
        isNull(inboundMail.postedMessageId),
        lt(inboundMail.receivedAt, sql`now() - (${CLAIM_STALE_MS} * interval '1 millisecond')`),
      ),
    })
    .returning({ messageId: inboundMail.messageId });
  return rows.length > 0;
}

/** Drops a claim whose post was refused or failed (a later delivery may post it). */
async function release(db: Database, messageId: string): Promise<void> {
  await db.delete(inboundMail).where(and(eq(inboundMail.messageId, messageId), isNull(inboundMail.postedMessageId)));
}

function noticeText(reason: RefusalReason, detail?: string): string {
  switch (reason) {
    case "forged":
      return INBOUND_MESSAGES.forged;
    case "expired":
      return INBOUND_MESSAGES.expired;
    case "wrong-sender":
      return INBOUND_MESSAGES.wrongSender;
    case "empty":
      return INBOUND_MESSAGES.empty;
    case "refused-content":
      return INBOUND_MESSAGES.refused(detail ?? "");
    default:
      return INBOUND_MESSAGES.notAllowed;
  }
}

/**
 * Tells the sender of a refused reply why, in one automatic answer per address per hour
 * (`Auto-Submitted: auto-replied`, so that their mail system does not answer it in turn) — only
 * when the `From` address is an active user's own: a `From` can be forged, so answering anyone
 * would mail third parties on an attacker's behalf (backscatter, issue #36). At most
 * {@link REFUSAL_NOTICE_GLOBAL_LIMIT} notices an hour in all.
 *
 * @returns whether a notice was queued.
 */
async function tellSender(db: Database, address: string, text: string): Promise<boolean> {
  const [known] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, address), sql`${user.banned} is not true`, isNull(user.closedAt)));
  if (!known) {
    logger.info("inbound mail: refusal not told (the sender is not a user of the portal)");
    return false;
  }
  // The global cap first (read only), so that a capped answer does not use up the sender's hour.
  if ((await peekRateLimit(db, GLOBAL_NOTICE_KEY, REFUSAL_NOTICE_WINDOW_MS)).count >= REFUSAL_NOTICE_GLOBAL_LIMIT) return false;
  const window = await hitRateLimit(db, `inbound-refusal:${address}`, { limit: 1, windowMs: REFUSAL_NOTICE_WINDOW_MS });
  if (!window.allowed) return false;
  const all = await hitRateLimit(db, GLOBAL_NOTICE_KEY, { limit: REFUSAL_NOTICE_GLOBAL_LIMIT, windowMs: REFUSAL_NOTICE_WINDOW_MS });
  if (!all.allowed) return false;
  await queueNotification(db, {
    to: address,
    subject: INBOUND_MESSAGES.subject,
    lines: [text],
    link: { label: "Open the portal", path: "/login" },
    headers: { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" },
  });
  return true;
}
