/**
 * User-visible messages and limits of the settings page (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

export const SETTINGS_MESSAGES = {
  saved: "✅ Settings saved.",
  failed: "❌ Failed to save settings.",
} as const;

/** How long the saved/failed message stays on screen (docs/product.md#form-messages: 3 s). */
export const SETTINGS_MESSAGE_MS = 3_000;

/** Limits of the billing fields (characters). */
export const BILLING_LIMITS = { companyAddress: 500, taxId: 50, paymentInstructions: 2_000, paymentLinkTemplate: 2_048 } as const;

/** The commission hold field (docs/product.md#commissions-ledger). */
export const COMMISSION_HOLD_MESSAGES = {
  required: "Commission hold is required.",
  format: "Enter the hold as a whole number of days, e.g. 30.",
  range: "The hold must be between 0 and 365 days.",
} as const;

/** The storage quota field's message (#36). */
export const STORAGE_QUOTA_MESSAGE = "Enter the storage per client in GB, from 0.001 to 1000 (e.g. 2 or 0.5).";
