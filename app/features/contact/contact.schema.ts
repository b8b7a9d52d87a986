/**
 * Contact form schema (docs/product.md#contact "Contact message" "Contact"). Shared by the form
 * (browser validation through conform) and the route action (server validation).
 */
import { z } from "zod";
import { optionalText, requiredEmail, requiredText } from "#app/lib/text-fields";

export const CONTACT_LIMITS = { name: 200, email: 254, phone: 40, message: 5_000 } as const;

/** Name of the hidden honeypot field: humans leave it empty, naive bots fill it. */
export const HONEYPOT_FIELD = "website";

export const contactSchema = z.object({
  user_name: requiredText("Name", CONTACT_LIMITS.name),
  user_email: requiredEmail("Email is required."),
  user_phone: optionalText("Phone", CONTACT_LIMITS.phone).refine(
    (value) => !value || /^[0-9+().\-\s]*$/.test(value),
    "Phone may contain only digits, spaces and + ( ) - .",
  ),
  message: requiredText("Message", CONTACT_LIMITS.message, { multiline: true }),
});

export type ContactInput = z.infer<typeof contactSchema>;

/** User-facing messages (docs/product.md#form-messages). */
export const CONTACT_MESSAGES = {
  success: "Message sent successfully!",
  failure: "Something went wrong. Try again.",
  rateLimited: "Too many messages from your network. Please wait a few minutes and try again.",
} as const;
