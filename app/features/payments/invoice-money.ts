/**
 * Money of an invoice derived from its payments (docs/product.md#payments, ADR 013): the one pure
 * function every page, PDF, CSV and mail uses for paid, refunded, balance, amount due now and status.
 * Imports nothing server-only: the browser may use it. Its SQL twin is `balance.server.ts`.
 *
 * Rules (amounts in integer cents):
 * - paid = the sum of the payments (positive rows); refunded = the sum of the refunds (negative rows, as a positive number).
 * - A refund credits the invoice by the same amount (the client does not owe it again), so
 *   balance = max(0, total − paid): a full payment followed by a partial refund stays Paid with balance 0.
 * - Status: Paid when the balance is 0 — Refunded instead when everything paid has been refunded;
 *   Partially paid when something is paid and a balance remains; Unpaid when nothing is paid;
 *   Overdue when a balance remains and the due date (a calendar date) is before today in the agency's time zone (Settings; #36)
 *   ("Partially paid · Overdue" when both). Disputed is a separate flag (a card dispute is open).
 * - Deposit: until the payments reach the deposit, the amount due now is what is left of the deposit; then the balance.
 */

import { todayIn } from "#app/lib/dates";

/** Derived statuses. `pending` is "Unpaid" (kept as the key the list filter has always used). */
export const INVOICE_DISPLAY_STATUSES = ["pending", "partial", "overdue", "partial-overdue", "paid", "refunded"] as const;
export type InvoiceDisplayStatus = (typeof INVOICE_DISPLAY_STATUSES)[number];

/** What the derivation needs. Money in cents; `dueDate` `YYYY-MM-DD`. */
export interface InvoiceMoneyInput {
  totalCents: number;
  /** Sum of the payments (positive rows). */
  paidCents: number;
  /** Sum of the refunds, as a positive number. */
  refundedCents: number;
  dueDate: string;
  depositCents?: number | null;
}

/** Derived money of one invoice. All in cents. */
export interface InvoiceMoney {
  totalCents: number;
  paidCents: number;
  refundedCents: number;
  /** What the client still owes: max(0, total − paid). */
  balanceCents: number;
  /** The deposit asked for (0 when none). */
  depositCents: number;
  /** What the pay button asks for now: the rest of the deposit while it is not paid, else the balance. */
  dueNowCents: number;
  /** True while a deposit is asked for and not yet paid in full. */
  depositDue: boolean;
  status: InvoiceDisplayStatus;
}

/**
 * @param now - the current instant (tests pass a fixed one).
 * @param timeZone - the agency's zone (Settings): "today" is its calendar date (default UTC).
 * @returns the derived status (see the module's rules).
 */
export function deriveInvoiceStatus(input: InvoiceMoneyInput, now: Date = new Date(), timeZone = "UTC"): InvoiceDisplayStatus {
  const balance = Math.max(0, input.totalCents - input.paidCents);
  if (balance === 0) return input.paidCents > 0 && input.refundedCents >= input.paidCents ? "refunded" : "paid";
  const overdue = input.dueDate < todayIn(now, timeZone);
  if (input.paidCents > 0) return overdue ? "partial-overdue" : "partial";
  return overdue ? "overdue" : "pending";
}

/** @returns paid, refunded, balance, deposit, amount due now and status of one invoice. */
export function deriveInvoiceMoney(input: InvoiceMoneyInput, now: Date = new Date(), timeZone = "UTC"): InvoiceMoney {
  const balanceCents = Math.max(0, input.totalCents - input.paidCents);
  const depositCents = Math.min(Math.max(0, input.depositCents ?? 0), input.totalCents);
  const depositDue = depositCents > 0 && input.paidCents < depositCents && balanceCents > 0;
  return {
    totalCents: input.totalCents,
    paidCents: input.paidCents,
    refundedCents: input.refundedCents,
    balanceCents,
    depositCents,
    dueNowCents: depositDue ? Math.min(depositCents - input.paidCents, balanceCents) : balanceCents,
    depositDue,
    status: deriveInvoiceStatus(input, now, timeZone),
  };
}

/** Whether the status means something is still due (the pay action and "How to pay" show). */
export function isDue(status: InvoiceDisplayStatus): boolean {
  return status === "pending" || status === "partial" || status === "overdue" || status === "partial-overdue";
}

/**
 * A deposit from a percentage of the total, rounded half up to the cent.
 *
 * @param percent - 0–100, up to two decimals.
 */
export function depositFromPercent(totalCents: number, percent: number): number {
  return Math.floor((totalCents * Math.round(percent * 100) + 5000) / 10000);
}
