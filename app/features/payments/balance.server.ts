/**
 * The SQL form of an invoice's derived money (docs/product.md#payments, ADR 013), twin of
 * `invoice-money.ts`: paid and refunded as correlated sums over `payments` (index payments_invoice_idx),
 * the balance, and the status filters of the admin list, CSV, dashboards and the client's balance.
 *
 * The stored `invoice.status` ('paid' when the balance is 0, else 'unpaid') and `invoice.paid_at`
 * are kept in step by {@link syncInvoiceStatus} in the transaction of every payment, refund and
 * total change, so the tally triggers (dashboard counts) and the status indexes stay right.
 */
import { businessDay } from "#app/features/settings/settings.server";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice } from "#app/db/schema";
import { notFound } from "#app/lib/errors";
import { deriveInvoiceMoney, type InvoiceDisplayStatus, type InvoiceMoney } from "./invoice-money";

/**
 * The outer query's invoice id, always qualified: drizzle writes a column of a one-table select
 * unqualified (`"id"`), which inside `from payments p` would mean the payment's id.
 */
const invoiceIdRef = sql.raw(`"invoice"."id"`);

/** Sum of the payments (positive rows) of the invoice in the query (`invoice` in FROM), cents. */
export const paidCentsSql: SQL<number> = sql<number>`(select coalesce(sum(p.amount_cents) filter (where p.amount_cents > 0), 0) from payments p where p.invoice_id = ${invoiceIdRef})::int`;

/** Sum of the refunds of the invoice in the query, as a positive number of cents. */
export const refundedCentsSql: SQL<number> = sql<number>`(select coalesce(-sum(p.amount_cents) filter (where p.amount_cents < 0), 0) from payments p where p.invoice_id = ${invoiceIdRef})::int`;

/** The balance due of the invoice in the query: greatest(0, total − paid), cents. */
export const invoiceBalanceSql: SQL<number> = sql<number>`greatest(0, ${invoice.totalCents} - ${paidCentsSql})::int`;

/** Whether the invoice in the query has any payment (positive row). */
export const hasPaymentSql: SQL = sql`exists (select 1 from payments p where p.invoice_id = ${invoiceIdRef} and p.amount_cents > 0)`;

/** Whether everything paid on the invoice in the query has been refunded (and something was paid). */
export const fullyRefundedSql: SQL = sql`(select coalesce(sum(p.amount_cents), 0) <= 0 and bool_or(p.amount_cents > 0) from payments p where p.invoice_id = ${invoiceIdRef}) is true`;

/** Columns to add to an invoice select so {@link deriveInvoiceMoney} can run on each row. */
export const invoiceMoneyColumns = {
  paidCents: paidCentsSql.mapWith(Number),
  refundedCents: refundedCentsSql.mapWith(Number),
  depositCents: invoice.depositCents,
  disputedAt: invoice.disputedAt,
};

/**
 * @returns the SQL condition of one derived status (the stored status narrows by index first).
 *   `overdue` matches both "Overdue" and "Partially paid · Overdue".
 */
export function invoiceStatusSql(status: InvoiceDisplayStatus | "unpaid-any", today: string): SQL {
  switch (status) {
    case "paid":
      return sql`(${invoice.status} = 'paid' and not ${fullyRefundedSql})`;
    case "refunded":
      return sql`(${invoice.status} = 'paid' and ${fullyRefundedSql})`;
    case "pending":
      return sql`(${invoice.status} = 'unpaid' and ${invoice.dueDate} >= ${today} and not ${hasPaymentSql})`;
    case "partial":
      return sql`(${invoice.status} = 'unpaid' and ${invoice.dueDate} >= ${today} and ${hasPaymentSql})`;
    case "overdue":
      return sql`(${invoice.status} = 'unpaid' and ${invoice.dueDate} < ${today})`;
    case "partial-overdue":
      return sql`(${invoice.status} = 'unpaid' and ${invoice.dueDate} < ${today} and ${hasPaymentSql})`;
    case "unpaid-any":
      return sql`(${invoice.status} = 'unpaid')`;
  }
}

/** {@link InvoiceMoney} of one invoice with its id, number, due date and dispute flag. */
export interface InvoiceMoneyRow extends InvoiceMoney {
  invoiceId: number;
  number: string;
  dueDate: string;
  disputedAt: Date | null;
}

/**
 * Reads one invoice's derived money (docs/product.md#payments).
 *
 * @param now - the current instant, for overdue.
 * @throws {AppError} 404 for an unknown invoice.
 */
export async function getInvoiceMoney(db: Queryable, invoiceId: number, now: Date = new Date()): Promise<InvoiceMoneyRow> {
  const [row] = await db
    .select({ id: invoice.id, number: invoice.number, dueDate: invoice.dueDate, totalCents: invoice.totalCents, ...invoiceMoneyColumns })
    .from(invoice)
    .where(eq(invoice.id, invoiceId));
  if (!row) throw notFound("Invoice not found.");
  const { timeZone } = await businessDay(db, now);
  return {
    invoiceId: row.id,
    number: row.number,
    dueDate: row.dueDate,
    disputedAt: row.disputedAt,
    ...deriveInvoiceMoney(row, now, timeZone),
  };
}

/**
 * Brings the stored status and paid time in step with the payments (in the caller's transaction,
 * after a payment, refund or total change): 'paid' with `paid_at` (kept if already set, else the
 * latest payment's receipt time) when the balance is 0 (a zero total included), else 'unpaid' with no paid time.
 * Bumps `version` when the status changes, so an open edit form is refused.
 *
 * @returns the stored status now.
 */
export async function syncInvoiceStatus(tx: Queryable, invoiceId: number): Promise<"paid" | "unpaid"> {
  const settled = sql`(${invoiceBalanceSql} = 0)`;
  const lastReceived = sql`(select max(p.received_at) from payments p where p.invoice_id = ${invoiceIdRef} and p.amount_cents > 0)`;
  const [row] = await tx
    .update(invoice)
    .set({
      status: sql`case when ${settled} then 'paid' else 'unpaid' end`,
      paidAt: sql`case when ${settled} then coalesce(${invoice.paidAt}, ${lastReceived}, now()) else null end`,
      version: sql`case when ${invoice.status} = (case when ${settled} then 'paid' else 'unpaid' end) then ${invoice.version} else ${invoice.version} + 1 end`,
      updatedAt: sql`now()`,
    })
    .where(eq(invoice.id, invoiceId))
    .returning({ status: invoice.status });
  if (!row) throw notFound("Invoice not found.");
  return row.status;
}
