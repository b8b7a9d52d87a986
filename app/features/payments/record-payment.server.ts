/**
 * Recording payments and refunds on an invoice (docs/product.md#payments, issue #25, ADR 013).
 *
 * Every write goes through {@link writePayment}: inside one transaction it locks the invoice's proposal
 * (`FOR SHARE`) and the invoice row (`SELECT … FOR UPDATE`) — {@link lockInvoice} — reads the payments as they are under that lock, checks the amount
 * against the balance (a payment) or what is left of the refunded payment (a refund), inserts the
 * row, brings the stored status in step ({@link syncInvoiceStatus}), calls {@link onPaymentRecorded}
 * (the commission ledger), records the audit event and queues the client's receipt. Two admins, or
 * an admin and the Stripe webhook, recording at once therefore apply one after the other and never
 * take the balance below zero.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { auditEvent, invoice, payments } from "#app/db/schema";
import { publishAudit } from "#app/features/live/live-events.server";
import { lockProposalOfInvoice } from "#app/features/invoices/invoice-locks.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError, notFound } from "#app/lib/errors";
import { currencyOf, formatCents } from "#app/lib/money";
import { getInvoiceMoney, syncInvoiceStatus, type InvoiceMoneyRow } from "./balance.server";
import { onPaymentRecorded, type PaymentRow } from "./payment-hooks.server";
import { PAYMENT_MESSAGES, type PaymentMethod } from "./payments.messages";
import { queuePaymentReceipt } from "./receipt.server";

/** The outer query's payment id, qualified (drizzle writes a one-table select's columns unqualified). */
const paymentIdRef = sql.raw(`"payments"."id"`);

/** A payment to record. Money in integer cents. */
export interface PaymentInput {
  /** > 0, at most the balance due. */
  amountCents: number;
  /** ISO 4217; must be the invoice's (Settings' currency). */
  currency: string;
  method: PaymentMethod;
  /** When it was received (UTC instant). */
  receivedAt: Date;
  reference?: string | null;
}

/** A refund to record: part or all of what is left of one payment. */
export interface RefundInput {
  /** The payment refunded (a positive row of the same invoice). */
  paymentId: number;
  /** > 0, at most what is left of that payment. */
  amountCents: number;
  currency: string;
  receivedAt: Date;
  reference?: string | null;
}

/** What a write answers: the row and the invoice's money after it. */
export interface PaymentOutcome {
  payment: PaymentRow;
  money: InvoiceMoneyRow;
}

/** A write of {@link writePayment}: who recorded it (null: the card processor) and the processor's ids. */
interface PaymentWrite {
  invoiceId: number;
  /** Signed: > 0 a payment, < 0 a refund. */
  amountCents: number;
  currency: string;
  method: PaymentMethod;
  receivedAt: Date;
  reference: string | null;
  recordedBy: Actor | null;
  /** Who paid, when known (#37: a card payment is credited to the client who paid it, in the audit and the thread). */
  paidBy?: Actor | null;
  refundOf: number | null;
  processorPaymentIntent?: string | null;
  processorEventId?: string | null;
}

/**
 * Locks the invoice's proposal (`FOR SHARE`) and then the invoice row (`FOR UPDATE`) for the rest of
 * the transaction — ADR 006's order, proposal before invoice. The proposal lock is what makes a
 * payment or refund and the client's acceptance of the offer (which locks the proposal `FOR UPDATE`
 * and writes the approval) apply one after the other (issue #36): whichever comes second sees the
 * other's committed write — the payment's commission hook sees the approval, or the acceptance's
 * `syncProposalCommissions` sees the payment — so the ledger entry is written exactly once. Shared,
 * so payments of one proposal never wait on each other for it (the invoice lock orders those).
 *
 * @throws {AppError} 404 when unknown.
 */
export async function lockInvoice(tx: Queryable, invoiceId: number) {
  await lockProposalOfInvoice(tx, invoiceId);
  const [row] = await tx
    .select({
      id: invoice.id,
      number: invoice.number,
      totalCents: invoice.totalCents,
      clientId: invoice.clientId,
      organisationId: invoice.organisationId,
      proposalId: invoice.proposalId,
    })
    .from(invoice)
    .where(eq(invoice.id, invoiceId))
    .for("update");
  if (!row) throw notFound(PAYMENT_MESSAGES.invoiceNotFound);
  return row;
}

/** What is left of one payment: its amount minus its refunds so far (under the invoice lock). */
async function refundableRest(tx: Queryable, invoiceId: number, paymentId: number) {
  const [row] = await tx
    .select({
      amountCents: payments.amountCents,
      refunded: sql<number>`(select coalesce(-sum(r.amount_cents), 0) from payments r where r.refund_of = ${paymentIdRef})::int`.mapWith(
        Number,
      ),
    })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.invoiceId, invoiceId)));
  if (!row) throw fieldError("paymentId", PAYMENT_MESSAGES.paymentNotFound);
  if (row.amountCents <= 0) throw fieldError("paymentId", PAYMENT_MESSAGES.notARefundable);
  return row.amountCents - row.refunded;
}

/**
 * Records one payment or refund under the invoice's row lock, in the caller's transaction.
 * Amount rules: a payment is > 0 and ≤ the balance; a refund is > 0 (stored negative) and ≤ what is
 * left of the payment it refunds. The currency must be the invoice's.
 *
 * @returns the row and the invoice's money after it.
 * @throws {AppError} 404 for an unknown invoice; 400 with a field error (`amount`, `currency`, `paymentId`) otherwise.
 */
export async function writePayment(tx: Queryable, write: PaymentWrite): Promise<PaymentOutcome> {
  const locked = await lockInvoice(tx, write.invoiceId);
  const currency = currencyOf(await getSettings(tx));
  if (write.currency.toUpperCase() !== currency) throw fieldError("currency", PAYMENT_MESSAGES.wrongCurrency(currency));
  const magnitude = Math.abs(write.amountCents);
  if (!Number.isSafeInteger(write.amountCents) || magnitude === 0) throw fieldError("amount", PAYMENT_MESSAGES.amountPositive);
  const before = await getInvoiceMoney(tx, write.invoiceId);
  if (write.refundOf === null) {
    if (write.amountCents < 0) throw fieldError("amount", PAYMENT_MESSAGES.amountPositive);
    if (before.balanceCents === 0) throw fieldError("amount", PAYMENT_MESSAGES.nothingDue, "CONFLICT");
    if (magnitude > before.balanceCents)
      throw fieldError("amount", PAYMENT_MESSAGES.overBalance(formatCents(before.balanceCents, currency)));
  } else {
    const rest = await refundableRest(tx, write.invoiceId, write.refundOf);
    if (magnitude > rest) throw fieldError("amount", PAYMENT_MESSAGES.overRefundable(formatCents(rest, currency)));
  }
  const [row] = await tx
    .insert(payments)
    .values({
      invoiceId: write.invoiceId,
      amountCents: write.refundOf === null ? magnitude : -magnitude,
      currency,
      method: write.method,
      receivedAt: write.receivedAt,
      reference: write.reference || null,
      recordedBy: write.recordedBy?.id ?? null,
      refundOf: write.refundOf,
      processorPaymentIntent: write.processorPaymentIntent ?? null,
      processorEventId: write.processorEventId ?? null,
    })
    .returning();
  const payment = row!;
  await syncInvoiceStatus(tx, write.invoiceId);
  await onPaymentRecorded(tx, payment, write.recordedBy ?? write.paidBy ?? null);
  const money = await getInvoiceMoney(tx, write.invoiceId);
  await auditPayment(tx, write.recordedBy ?? write.paidBy ?? null, {
    invoiceId: write.invoiceId,
    proposalId: locked.proposalId,
    action: write.refundOf === null ? "payment-recorded" : "refund-recorded",
    before: { paidCents: before.paidCents, refundedCents: before.refundedCents, balanceCents: before.balanceCents, status: before.status },
    after: {
      paymentId: payment.id,
      amountCents: payment.amountCents,
      currency: payment.currency,
      method: payment.method,
      reference: payment.reference,
      refundOf: payment.refundOf,
      paidCents: money.paidCents,
      refundedCents: money.refundedCents,
      balanceCents: money.balanceCents,
      status: money.status,
      number: locked.number,
      clientId: locked.clientId,
    },
  });
  if (locked.clientId)
    await queuePaymentReceipt(tx, {
      clientId: locked.clientId,
      organisationId: locked.organisationId,
      invoiceId: write.invoiceId,
      payment,
      money,
      currency,
    });
  return { payment, money };
}

/**
 * An audit event of a payment write; the card processor's writes have no user (actor "Stripe").
 * Published as a live update to the admins and the invoice's client.
 */
async function auditPayment(
  tx: Queryable,
  actor: Actor | null,
  input: { invoiceId: number; proposalId: number | null; action: string; before: unknown; after: unknown },
) {
  const entry = { entity: "invoice" as const, entityId: input.invoiceId, action: input.action, before: input.before, after: input.after };
  await tx.insert(auditEvent).values({
    actorId: actor?.id ?? null,
    actorEmail: actor?.email ?? "Stripe",
    entity: "invoice",
    entityId: String(input.invoiceId),
    action: input.action,
    before: JSON.parse(JSON.stringify(input.before)) as unknown,
    after: JSON.parse(JSON.stringify(input.after)) as unknown,
    proposalId: input.proposalId,
  });
  await publishAudit(tx, entry, actor ?? undefined);
}

/**
 * Admin: "Record payment" (docs/product.md#payments).
 *
 * @param input - amount in cents (> 0, ≤ the balance), currency (the invoice's), method, date received, reference.
 * @returns the payment and the invoice's money after it (the confirmation states the new balance).
 * @throws {AppError} 403 unless an admin; 404 unknown invoice; 400 bad amount/currency; 409 nothing due.
 */
export async function recordPayment(db: Database, actor: Actor, invoiceId: number, input: PaymentInput): Promise<PaymentOutcome> {
  assertRole(actor, "admin");
  return db.transaction((tx) =>
    writePayment(tx, {
      invoiceId,
      amountCents: input.amountCents,
      currency: input.currency,
      method: input.method,
      receivedAt: input.receivedAt,
      reference: input.reference ?? null,
      recordedBy: actor,
      refundOf: null,
    }),
  );
}

/**
 * Admin: "Record full payment" — a payment of the whole balance (what "Mark Paid" was).
 *
 * @throws {AppError} 403 unless an admin; 404 unknown invoice; 409 when nothing is due.
 */
export async function recordFullPayment(
  db: Database,
  actor: Actor,
  invoiceId: number,
  input: { method: PaymentMethod; receivedAt: Date; reference?: string | null },
): Promise<PaymentOutcome> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    await lockInvoice(tx, invoiceId);
    const { balanceCents } = await getInvoiceMoney(tx, invoiceId);
    if (balanceCents === 0) throw fieldError("amount", PAYMENT_MESSAGES.nothingDue, "CONFLICT");
    return writePayment(tx, {
      invoiceId,
      amountCents: balanceCents,
      currency: currencyOf(await getSettings(tx)),
      method: input.method,
      receivedAt: input.receivedAt,
      reference: input.reference ?? null,
      recordedBy: actor,
      refundOf: null,
    });
  });
}

/**
 * Admin: "Record refund" of part or all of what is left of one payment (docs/product.md#payments).
 * The refund credits the invoice: the balance does not grow back.
 *
 * @throws {AppError} 403 unless an admin; 404 unknown invoice; 400 bad amount/currency/payment.
 */
export async function recordRefund(db: Database, actor: Actor, invoiceId: number, input: RefundInput): Promise<PaymentOutcome> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    await lockInvoice(tx, invoiceId);
    const [refunded] = await tx
      .select({ method: payments.method })
      .from(payments)
      .where(and(eq(payments.id, input.paymentId), eq(payments.invoiceId, invoiceId)));
    if (!refunded) throw fieldError("paymentId", PAYMENT_MESSAGES.paymentNotFound);
    return writePayment(tx, {
      invoiceId,
      amountCents: input.amountCents,
      currency: input.currency,
      method: refunded.method,
      receivedAt: input.receivedAt,
      reference: input.reference ?? null,
      recordedBy: actor,
      refundOf: input.paymentId,
    });
  });
}

/** Payments and refunds of one invoice for the admin, oldest first, with what is left of each payment. */
export async function listPaymentsForAdmin(db: Queryable, actor: Actor, invoiceId: number) {
  assertRole(actor, "admin");
  return db
    .select({
      id: payments.id,
      amountCents: payments.amountCents,
      currency: payments.currency,
      method: payments.method,
      receivedAt: payments.receivedAt,
      reference: payments.reference,
      refundOf: payments.refundOf,
      processorPaymentIntent: payments.processorPaymentIntent,
      recordedBy: payments.recordedBy,
      refundableCents:
        sql<number>`case when ${payments.amountCents} > 0 then ${payments.amountCents} + (select coalesce(sum(r.amount_cents), 0) from payments r where r.refund_of = ${paymentIdRef}) else 0 end::int`.mapWith(
          Number,
        ),
    })
    .from(payments)
    .where(eq(payments.invoiceId, invoiceId))
    .orderBy(payments.receivedAt, payments.id);
}
