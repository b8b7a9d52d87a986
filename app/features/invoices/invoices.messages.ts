/**
 * User-visible messages and limits of invoices (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

/** Messages the admin sees (docs/product.md#form-messages; "a failure is shown as a clear message"). */
export const INVOICE_MESSAGES = {
  notFound: "Invoice not found",
  saveFailed: "The invoice could not be saved. Nothing was changed; please try again.",
  alreadyInvoiced: "This proposal got another invoice since this page was loaded. Reload to see it before generating one more.",
  /** The generate page of a proposal that has invoices already (#37: a proposal may have several). */
  moreInvoices: "This proposal already has invoices. Generating creates one more:",
  /** #37: without card payments and without instructions the client could not pay: asked first. */
  instructionsFirst:
    "Add your payment instructions first (bank details and the reference to use): card payments are not set up, so without them the client cannot pay. Settings → Payments: /admin/settings/payments#payment-instructions",
  noClientAccount: "This proposal's client has not registered yet. An invoice can be generated once they have an account.",
  paidLocked: "A paid invoice cannot be edited.",
  belowPaid: (paid: string) => `The total cannot be less than what was already paid (${paid}).`,
  generationFailed: "The invoice could not be generated. Nothing was saved; please try again.",
  totalTooLarge: "The total must be at most $10,000,000.00.",
  /** A save made from a page older than the invoice's last change (docs/product.md#invoices). */
  changedBySomeoneElse: "This invoice was changed by someone else; reload to see it.",
} as const;

/** Most line items one invoice may have. */
export const MAX_INVOICE_ITEMS = 50;
