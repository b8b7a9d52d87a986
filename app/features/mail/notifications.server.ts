/**
 * Notification e-mails (docs/product.md#notifications): one layout for every message — a
 * plain-text and an HTML part, the company name and support e-mail from settings, the logo
 * (a hosted image on the site's origin) and accent colour in the HTML part, and a link into
 * the portal. All go through the outbox, inside the caller's transaction.
 *
 * Use-cases only know relative paths and "the admin": the outbox worker resolves
 * {@link ORIGIN_TOKEN} to the site's origin and {@link ADMIN_RECIPIENT} to settings.supportEmail
 * (else OWNER_EMAIL) when it sends, so use-cases need nothing but their transaction.
 */
import { and, desc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { mailOutbox, user } from "#app/db/schema";
import { companyNameOf, getBrand, getSettings } from "#app/features/settings/settings.server";
import { enqueueMail, escapeHtml, insertOutboxRow, type OutgoingMail } from "./mail.server";

/** Replaced by the site's public origin when the mail is sent. */
export const ORIGIN_TOKEN = "{{origin}}";
/** A recipient resolved when sent: settings.supportEmail, else OWNER_EMAIL / the owner's address. */
export const ADMIN_RECIPIENT = "@admin";
/**
 * Replaced when sent by the sentence that says how to answer a conversation's mail
 * (docs/product.md#email-replies): reply to the mail when INBOUND_DOMAIN is set, else in the portal.
 */
export const REPLY_HINT_TOKEN = "{{reply-hint}}";

/**
 * The `replyTo` stored for a mail about a conversation: resolved when sent to the recipient's own
 * reply address `reply+<token>@INBOUND_DOMAIN` (none without INBOUND_DOMAIN). See
 * app/features/inbound/reply-token.server.ts.
 */
export function replyThreadMarker(target: { proposalId: number; userId: string }): string {
  return `{{reply:${target.proposalId}:${target.userId}}}`;
}

/** @returns the proposal and user of a {@link replyThreadMarker}, or null for any other value. */
export function parseReplyThreadMarker(value: string | null | undefined): { proposalId: number; userId: string } | null {
  const match = /^\{\{reply:(\d+):([^{}]+)\}\}$/.exec(value ?? "");
  return match ? { proposalId: Number(match[1]), userId: match[2]! } : null;
}

export interface Notification {
  /** An e-mail address, or {@link ADMIN_RECIPIENT}. */
  to: string;
  subject: string;
  /** Paragraphs of the message body (plain text; escaped for HTML). */
  lines: string[];
  /** The link into the portal, e.g. `{ label: "View your project", path: "/project-status" }`. */
  link: { label: string; path: string };
  attachments?: OutgoingMail["attachments"];
  /**
   * The conversation the mail is about and its recipient (a user): the mail gets the recipient's
   * reply address for it and says how to answer (docs/product.md#email-replies).
   */
  replyThread?: { proposalId: number; userId: string };
  /** Extra header fields (e.g. `Auto-Submitted` on an automatic answer). */
  headers?: Record<string, string>;
  /** Where a reply goes (e.g. the visitor who wrote through the contact form); `replyThread` wins. */
  replyTo?: string;
}

/**
 * Queues one notification.
 *
 * @param q - the transaction of the change that causes it.
 * @returns the outbox id.
 */
export async function queueNotification(q: Queryable, n: Notification, layout?: MailLayout): Promise<number> {
  return enqueueMail(q, await renderNotification(q, n, layout));
}

/** What the layout reads from settings: pass it to {@link queueNotification} when queueing many mails at once (e.g. reminders). */
export interface MailLayout {
  settings: Awaited<ReturnType<typeof getSettings>>;
  brand: Awaited<ReturnType<typeof getBrand>>;
}

/** @returns the settings and brand the layout reads (two small queries). */
export async function loadMailLayout(q: Queryable): Promise<MailLayout> {
  const settings = await getSettings(q);
  return { settings, brand: await getBrand(q) };
}

/** A notification in the one layout: subject with the company name, plain text, HTML. */
async function renderNotification(q: Queryable, n: Notification, layout?: MailLayout): Promise<OutgoingMail> {
  const { settings, brand } = layout ?? (await loadMailLayout(q));
  const company = companyNameOf(settings);
  const url = `${ORIGIN_TOKEN}${n.link.path}`;
  const footer = settings.supportEmail ? `Questions? Write to ${settings.supportEmail}.` : "";
  const lines = n.replyThread ? [...n.lines, REPLY_HINT_TOKEN] : n.lines;
  const text = [...lines, "", `${n.link.label}: ${url}`, "", `— ${company}`, footer].join("\n").trim();
  const accent = settings.accentColor || DEFAULT_ACCENT;
  const heading = brand.logoPath
    ? `<p><img src="${escapeHtml(`${ORIGIN_TOKEN}${brand.logoPath}`)}" alt="${escapeHtml(company)}" height="40" style="height:40px;width:auto;border:0"></p>`
    : `<p style="font-weight:700;font-size:18px;color:${accent}">${escapeHtml(company)}</p>`;
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px;border-top:4px solid ${accent};padding-top:8px">
${heading}
${lines.map((l) => `<p style="white-space:pre-line">${escapeHtml(l)}</p>`).join("\n")}
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:${accent};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(n.link.label)}</a></p>
${footer ? `<p style="color:#555;font-size:13px">${escapeHtml(footer)}</p>` : ""}
</div>`;
  return {
    to: n.to,
    subject: `${n.subject} — ${company}`,
    text,
    html,
    attachments: n.attachments,
    replyTo: n.replyThread ? replyThreadMarker(n.replyThread) : n.replyTo,
    headers: n.headers,
  };
}

/** Notifications of one kind that the admin gets at most once per window, gathered into one mail. */
export interface CoalescedNotice {
  /** The kind, e.g. `new-proposal-requests`. */
  key: string;
  /** At most one mail of this kind per this many milliseconds. */
  windowMs: number;
  /** The subject for `count` gathered notifications. */
  subject: (count: number) => string;
  /** This notification's line (plain text). */
  line: string;
  link: Notification["link"];
}

/**
 * Queues a notification to the admin that is gathered with the others of its kind
 * (docs/product.md#notifications): while a mail of that kind waits unsent, this one is added to
 * it; otherwise a new mail is scheduled no earlier than one window after the previous one. So a
 * flood of requests makes at most one mail per window, listing them all.
 *
 * @param q - the transaction of the change that causes it.
 * @returns the outbox id of the mail that carries it.
 */
export async function notifyAdminCoalesced(q: Queryable, n: CoalescedNotice): Promise<number> {
  // One writer per kind at a time (released with the transaction): no two mails start together.
  await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`coalesce:${n.key}`}))`);
  const [waiting] = await q
    .select({ id: mailOutbox.id, lines: mailOutbox.coalescedLines })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.coalesceKey, n.key),
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        // Not while the worker holds it: what it is sending must not change under it.
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
        eq(mailOutbox.attempts, 0),
      ),
    )
    .orderBy(desc(mailOutbox.nextAttemptAt))
    .limit(1)
    .for("update");
  const lines = [...(waiting?.lines ?? []), n.line];
  const mail = await renderNotification(q, {
    to: ADMIN_RECIPIENT,
    subject: n.subject(lines.length),
    lines,
    link: n.link,
  });
  if (waiting) {
    await q
      .update(mailOutbox)
      .set({ subject: mail.subject, text: mail.text, html: mail.html, coalescedLines: lines })
      .where(eq(mailOutbox.id, waiting.id));
    return waiting.id;
  }
  const [previous] = await q
    .select({ at: mailOutbox.nextAttemptAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.coalesceKey, n.key))
    .orderBy(desc(mailOutbox.nextAttemptAt))
    .limit(1);
  return insertOutboxRow(q, {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    coalesceKey: n.key,
    coalescedLines: lines,
    nextAttemptAt: previous
      ? sql`greatest(now(), ${previous.at.toISOString()}::timestamptz + (${n.windowMs} * interval '1 millisecond'))`
      : sql`now()`,
  });
}

/** The mail button's colour when Settings hold no accent colour. */
const DEFAULT_ACCENT = "#1d3fa3";

/** Queues a notification to the admin (new requests, approvals, revisions). */
export function notifyAdmin(q: Queryable, n: Omit<Notification, "to">): Promise<number> {
  return queueNotification(q, { ...n, to: ADMIN_RECIPIENT });
}

/** A notification to a user; `thread` names the proposal whose conversation it is about (reply address). */
export type UserNotification = Omit<Notification, "to" | "replyThread"> & { thread?: number };

/**
 * Queues a non-essential notification to a user unless they turned those off (account settings).
 *
 * @returns the outbox id, or null when the user opted out or does not exist.
 */
export async function queueUserUpdate(q: Queryable, userId: string, n: UserNotification): Promise<number | null> {
  const [row] = await q.select({ email: user.email, notifyUpdates: user.notifyUpdates }).from(user).where(eq(user.id, userId));
  if (!row || !row.notifyUpdates) return null;
  return queueNotification(q, toUser(row.email, userId, n));
}

/** Queues an essential notification to a user (sent whatever their preference, e.g. invoices). */
export async function queueUserNotice(q: Queryable, userId: string, n: UserNotification): Promise<number | null> {
  const [row] = await q.select({ email: user.email }).from(user).where(eq(user.id, userId));
  if (!row) return null;
  return queueNotification(q, toUser(row.email, userId, n));
}

function toUser(email: string, userId: string, { thread, ...n }: UserNotification): Notification {
  return { ...n, to: email, replyThread: thread === undefined ? undefined : { proposalId: thread, userId } };
}
