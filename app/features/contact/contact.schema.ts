/**
 * Contact form schema (docs/product.md#contact "Contact message" "Contact"). Shared by the form
 * (its HTML constraints, through `formConstraints`) and the route action (server validation).
 */
import { z } from "zod";
import { optionalText, requiredEmail, requiredText } from "#app/lib/text-fields";
import { CONTACT_LIMITS } from "./contact.messages";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { CONTACT_LIMITS, HONEYPOT_FIELD, CONTACT_MESSAGES } from "./contact.messages";

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
