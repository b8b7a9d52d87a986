/**
 * Notification e-mails (issue #6): one layout for every message — a plain-text and an HTML
 * part, the company name and support e-mail from settings, and a link into the portal. All
 * go through the outbox, inside the caller's transaction.
 */
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { user } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { enqueueMail, escapeHtml, type OutgoingMail } from "./mail.server";

export interface Notification {
  to: string;
  subject: string;
  /** Paragraphs of the message body (plain text; escaped for HTML). */
  lines: string[];
  /** The link into the portal, e.g. `{ label: "View your project", path: "/project-status" }`. */
  link: { label: string; path: string };
  attachments?: OutgoingMail["attachments"];
}

/** Where admin notifications go: settings.supportEmail, else OWNER_EMAIL / the owner's address. */
export async function adminRecipient(q: Queryable, fallback: string): Promise<string> {
  const settings = await getSettings(q);
  return settings.supportEmail || fallback;
}

/**
 * Queues one notification.
 *
 * @param q - the transaction of the change that causes it.
 * @param origin - the site's public origin, for the absolute link.
 * @returns the outbox id.
 */
export async function queueNotification(q: Queryable, origin: string, n: Notification): Promise<number> {
  const settings = await getSettings(q);
  const company = settings.companyName || "Client Portal";
  const url = `${origin}${n.link.path}`;
  const footer = settings.supportEmail ? `Questions? Write to ${settings.supportEmail}.` : "";
  const text = [...n.lines, "", `${n.link.label}: ${url}`, "", `— ${company}`, footer].filter((l, i, all) => l !== "" || all[i - 1] !== "").join("\n").trim();
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px">
<p style="font-weight:700;font-size:18px">${escapeHtml(company)}</p>
${n.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n")}
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#1d3fa3;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(n.link.label)}</a></p>
${footer ? `<p style="color:#555;font-size:13px">${escapeHtml(footer)}</p>` : ""}
</div>`;
  return enqueueMail(q, { to: n.to, subject: `${n.subject} — ${company}`, text, html, attachments: n.attachments });
}

/**
 * Queues a non-essential notification to a user unless they turned those off.
 *
 * @returns the outbox id, or null when the user opted out or does not exist.
 */
export async function queueUserUpdate(q: Queryable, origin: string, userId: string, n: Omit<Notification, "to">): Promise<number | null> {
  const [row] = await q.select({ email: user.email, notifyUpdates: user.notifyUpdates }).from(user).where(eq(user.id, userId));
  if (!row || !row.notifyUpdates) return null;
  return queueNotification(q, origin, { ...n, to: row.email });
}
