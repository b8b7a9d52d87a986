/**
 * Messages and labels of payouts (docs/product.md#commissions-payouts), without zod so pages can import them.
 */
import type { PayoutMethod } from "#app/db/enums";

/** How each payout method reads. */
export const PAYOUT_METHOD_LABELS: Record<PayoutMethod, string> = {
  bank_transfer: "Bank transfer",
  paypal: "PayPal",
  cash: "Cash",
  other: "Other",
};

export const PAYOUT_MESSAGES = {
  nothingPayable: (balance: string) =>
    `Nothing to pay out: the payable balance is ${balance}. A payout needs a positive payable balance; a negative one is netted against later commissions.`,
  notFound: "Payout not found",
  referenceRequired: "Reference is required, e.g. the bank transfer's reference.",
  referenceTooLong: "Reference must be at most 200 characters.",
  methodInvalid: "Choose how the payout was sent.",
  dateInvalid: "Enter the date the payout was sent, e.g. 2026-11-30.",
  dateFuture: "The payout date cannot be in the future.",
  created: (amount: string, name: string) => `Payout of ${amount} to ${name} created. They were sent their statement.`,
} as const;
