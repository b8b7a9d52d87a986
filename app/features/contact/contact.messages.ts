/**
 * User-visible messages and limits of the contact form (docs/product.md#form-messages), in a module of
 * their own so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

export const CONTACT_LIMITS = { name: 200, email: 254, phone: 40, message: 5_000 } as const;

/** Name of the hidden honeypot field: humans leave it empty, naive bots fill it. */
export const HONEYPOT_FIELD = "website";

/** User-facing messages (docs/product.md#form-messages). */
export const CONTACT_MESSAGES = {
  success: "Message sent successfully!",
  failure: "Something went wrong. Try again.",
  rateLimited: "Too many messages from your network. Please wait a few minutes and try again.",
} as const;
