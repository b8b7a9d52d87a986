/**
 * What the payment forms and pages say (docs/product.md#payments). The browser imports this module (no zod).
 */
export const PAYMENT_METHODS = ["bank_transfer", "card", "cash", "other"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  bank_transfer: "Bank transfer",
  card: "Card",
  cash: "Cash",
  other: "Other",
};

export const PAYMENT_MESSAGES = {
  amountRequired: "Enter the amount received.",
  amountFormat: "Enter an amount like 250 or 1,250.50 (at most two decimals).",
  amountPositive: "The amount must be more than 0.",
  amountTooLarge: "That amount is too large.",
  nothingDue: "Nothing is due on this invoice: its balance is 0.",
  overBalance: (balance: string) => `The amount is more than the balance due (${balance}).`,
  overRefundable: (rest: string) => `The refund is more than what is left of that payment (${rest}).`,
  wrongCurrency: (currency: string) => `This invoice is in ${currency}; record the amount in ${currency}.`,
  methodRequired: "Choose how it was paid.",
  dateRequired: "Enter the date it was received.",
  dateFuture: "The date cannot be in the future.",
  referenceTooLong: "The reference can be at most 200 characters.",
  paymentRequired: "Choose the payment to refund.",
  paymentNotFound: "That payment is not on this invoice.",
  notARefundable: "A refund can only refund a payment.",
  invoiceNotFound: "Invoice not found.",
  saveFailed: "The payment could not be recorded. Nothing was saved; please try again.",
} as const;

/** What a refused signed invoice link says (404, docs/product.md#invoice-link). */
export const INVOICE_LINK_INVALID = "This invoice link is invalid or has expired. Sign in to see your invoices.";
