/**
 * Contact use-case (docs/product.md#contact "Contact form" "Contact send"): store the
 * message, then queue the owner's e-mail in the same transaction, so an SMTP outage
 * loses nothing.
 */
import type { Database, Transaction } from "#app/db/client.server";
import { contactMessage } from "#app/db/schema";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { queueNotification } from "#app/features/mail/notifications.server";
import { rateLimited } from "#app/lib/errors";
import { publishLive } from "#app/features/live/live-events.server";
import { type ContactInput } from "./contact.schema";
import { CONTACT_MESSAGES } from "./contact.messages";
import { claimSubmission, priorSubmission } from "#app/features/submissions/submission-key.server";

/** Contact messages accepted per IP per window. */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60_000 } as const;

/**
 * Stores a validated contact message and queues an e-mail to the owner.
 *
 * @param db - database handle.
 * @param input - validated fields (see `contactSchema`).
 * @param ctx.ownerEmail - recipient of the notification.
 * @param ctx.ip - sender's IP, the rate-limit key (5 messages / 10 minutes).
 * @param ctx.submissionKey - the form's key (issue #36): a repeat answers the first post's id and writes nothing.
 * @returns the stored message's id.
 * @throws {AppError} RATE_LIMITED (with the seconds until the window resets) when the IP sent
 *   its 5 messages already: nothing is written but the counter.
 */
export async function submitContactMessage(
  db: Database,
  input: ContactInput,
  ctx: { ownerEmail: string; ip: string; submissionKey?: string },
): Promise<{ id: number }> {
  // Issue #36: a repeat of a post already saved (same form key) answers it, writing nothing.
  const prior = await priorSubmission<{ id: number }>(db, "contact", ctx.submissionKey);
  if (prior) return prior;
  const limit = await hitRateLimit(db, `contact:${ctx.ip}`, CONTACT_RATE_LIMIT);
  if (!limit.allowed) throw rateLimited(CONTACT_MESSAGES.rateLimited, limit.retryAfterSeconds);

  const phone = input.user_phone?.trim() || null;
  return db.transaction(async (tx) => {
    const { result } = await claimSubmission(tx, "contact", ctx.submissionKey, () => storeMessage(tx, input, phone, ctx));
    return result;
  });
}

/** The message's row, the owner's mail and the live event, in `tx`. */
async function storeMessage(tx: Transaction, input: ContactInput, phone: string | null, ctx: { ownerEmail: string; ip: string }) {
  const [row] = await tx
    .insert(contactMessage)
    .values({ userName: input.user_name, userEmail: input.user_email, userPhone: phone, message: input.message, ip: ctx.ip })
    .returning({ id: contactMessage.id });
  await queueNotification(tx, {
    to: ctx.ownerEmail,
    replyTo: input.user_email,
    subject: `New contact message from ${input.user_name}`,
    lines: [
      "New message from the portfolio contact form.",
      `Name: ${input.user_name}`,
      `Email: ${input.user_email}`,
      `Phone: ${phone ?? "—"}`,
      input.message,
    ],
    link: { label: "Open it in the inbox", path: `/admin/messages/${row!.id}` },
  });
  await publishLive(tx, { kind: "contact.received", entityId: row!.id, admins: true });
  return { id: row!.id };
}
