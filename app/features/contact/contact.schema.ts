/**
 * Contact form schema (spec §3 "Contact message", §5 "Contact"). Shared by the form
 * (browser validation through conform) and the route action (server validation).
 */
import { z } from "zod";

export const CONTACT_LIMITS = { name: 200, email: 254, phone: 40, message: 5_000 } as const;

/** Name of the hidden honeypot field: humans leave it empty, naive bots fill it. */
export const HONEYPOT_FIELD = "website";

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`);

export const contactSchema = z.object({
  user_name: required("Name", CONTACT_LIMITS.name),
  user_email: z
    .string({ error: "Email is required." })
    .trim()
    .min(1, "Email is required.")
    .max(CONTACT_LIMITS.email, `Email must be at most ${CONTACT_LIMITS.email} characters.`)
    .pipe(z.email("Enter a valid email address.")),
  user_phone: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.phone, `Phone must be at most ${CONTACT_LIMITS.phone} characters.`)
    .regex(/^[0-9+().\-\s]*$/, "Phone may contain only digits, spaces and + ( ) - .")
    .optional(),
  message: required("Message", CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof contactSchema>;

/** User-facing messages (spec §8). */
export const CONTACT_MESSAGES = {
  success: "Message sent successfully!",
  failure: "Something went wrong. Try again.",
  rateLimited: "Too many messages from your network. Please wait a few minutes and try again.",
} as const;
