/**
 * Card payments kept aside (issue #36, docs/product.md#card-payments): what Stripe reports as paid
 * but cannot go on an invoice's balance — paid in another currency than Settings', paid when nothing
 * was due, or the part above the balance. Each is kept as it was paid (amount and currency as
 * reported), mailed to the admins, and counted on the admin dashboard until an admin marks it
 * resolved (refunded in Stripe, or applied by hand) with a note; the resolution is audited.
 */
import { count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice, unappliedPayment } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { notifyAdmin } from "#app/features/mail/notifications.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { conflict, fieldError, notFound } from "#app/lib/errors";
import { formatCents } from "#app/lib/money";

import { UNAPPLIED_REASON_LABELS, type UnappliedReason } from "./unapplied-labels";

export { UNAPPLIED_REASON_LABELS, type UnappliedReason };

/** Messages of the admin's "Mark resolved". */
export const UNAPPLIED_MESSAGES = {
  notFound: "This card payment does not exist.",
  resolutionRequired: "Say what was done with it (e.g. refunded in Stripe on 2 Dec).",
  alreadyResolved: "This card payment was marked resolved already.",
} as const;

/**
 * Keeps one card payment (or the part of it above the balance) aside, in the caller's transaction
 * under the invoice's lock, and mails the admins.
 *
 * @param input.amountCents - cents in `currency`, > 0, as paid.
 * @param input.currency - ISO 4217 as Stripe reports it (upper case).
 * @returns the row's id.
 */
export async function holdUnapplied(
  tx: Queryable,
  input: {
    invoiceId: number;
    number: string;
    reason: UnappliedReason;
    amountCents: number;
    currency: string;
    intent: string;
    eventId: string;
    receivedAt: Date;
  },
): Promise<number> {
  const [row] = await tx
    .insert(unappliedPayment)
    .values({
      invoiceId: input.invoiceId,
      amountCents: input.amountCents,
      currency: input.currency || "USD",
      reason: input.reason,
      processorPaymentIntent: input.intent,
      processorEventId: input.eventId,
      receivedAt: input.receivedAt,
    })
    .returning({ id: unappliedPayment.id });
  const amount = formatCents(input.amountCents, input.currency || "USD");
  await notifyAdmin(tx, {
    subject: `Card payment of ${amount} on ${input.number} to review`,
    lines: [
      `Stripe reports ${amount} paid by card on invoice ${input.number}: ${UNAPPLIED_REASON_LABELS[input.reason].toLowerCase()}.`,
      "It is kept as paid and not applied to the invoice's balance. Refund it in the Stripe dashboard or record it by hand, then mark it resolved.",
      `Payment intent: ${input.intent}.`,
    ],
    link: { label: "Review card payments", path: "/admin/card-payments" },
  });
  return row!.id;
}

/** One kept-aside card payment as the admin's list shows it. Money in cents of `currency`. */
export interface UnappliedPaymentRow {
  id: number;
  invoiceId: number | null;
  invoiceNumber: string | null;
  amountCents: number;
  refundedCents: number;
  currency: string;
  reason: UnappliedReason;
  processorPaymentIntent: string;
  receivedAt: Date;
  resolvedAt: Date | null;
  resolution: string | null;
}

/**
 * The kept-aside card payments, open ones first then the 50 latest resolved.
 *
 * @throws {AppError} 403 unless an admin.
 */
export async function listUnappliedPayments(db: Queryable, actor: Actor): Promise<UnappliedPaymentRow[]> {
  assertRole(actor, "admin");
  return db
    .select({
      id: unappliedPayment.id,
      invoiceId: unappliedPayment.invoiceId,
      invoiceNumber: invoice.number,
      amountCents: unappliedPayment.amountCents,
      refundedCents: unappliedPayment.refundedCents,
      currency: unappliedPayment.currency,
      reason: unappliedPayment.reason,
      processorPaymentIntent: unappliedPayment.processorPaymentIntent,
      receivedAt: unappliedPayment.receivedAt,
      resolvedAt: unappliedPayment.resolvedAt,
      resolution: unappliedPayment.resolution,
    })
    .from(unappliedPayment)
    .leftJoin(invoice, eq(invoice.id, unappliedPayment.invoiceId))
    .orderBy(sql`${unappliedPayment.resolvedAt} is not null`, desc(unappliedPayment.createdAt))
    .limit(200);
}

/** @returns how many kept-aside card payments wait for an admin (the dashboard's count). */
export async function countOpenUnappliedPayments(db: Queryable): Promise<number> {
  const [row] = await openUnappliedPaymentsCountQuery(db);
  return row?.n ?? 0;
}

/**
 * {@link countOpenUnappliedPayments} as one unexecuted query (one row, `n`), for a page that sends
 * it with other counts in one statement (`countsInOne`, app/db/counts.server.ts). The caller checks
 * the reader is an admin.
 */
export function openUnappliedPaymentsCountQuery(db: Queryable) {
  return db.select({ n: count() }).from(unappliedPayment).where(isNull(unappliedPayment.resolvedAt));
}

/**
 * Marks one kept-aside card payment resolved, with what was done (audited).
 *
 * @param resolution - 1–500 characters, e.g. "Refunded in Stripe on 2 Dec".
 * @throws {AppError} 403 unless an admin; 404 unknown id; 400 `resolution` empty; 409 resolved already.
 */
export async function resolveUnappliedPayment(db: Database, actor: Actor, id: number, resolution: string): Promise<void> {
  assertRole(actor, "admin");
  const text = resolution.trim();
  if (!text || text.length > 500) throw fieldError("resolution", UNAPPLIED_MESSAGES.resolutionRequired);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(unappliedPayment).where(eq(unappliedPayment.id, id)).for("update");
    if (!before) throw notFound(UNAPPLIED_MESSAGES.notFound);
    if (before.resolvedAt) throw conflict(UNAPPLIED_MESSAGES.alreadyResolved);
    await tx
      .update(unappliedPayment)
      .set({ resolvedAt: sql`now()`, resolvedBy: actor.id, resolution: text })
      .where(eq(unappliedPayment.id, id));
    await recordAudit(tx, actor, {
      entity: "unapplied-payment",
      entityId: id,
      action: "resolved",
      before: { resolvedAt: null },
      after: { resolution: text, invoiceId: before.invoiceId, amountCents: before.amountCents, currency: before.currency },
    });
  });
}
