/**
 * Forms of the authentication screens (docs/product.md#sign-in, Client registration, Ambassador
 * sign-up, password policy; docs/product.md#form-messages). Parsed by the actions; pages get
 * their browser-side checks from `formConstraints` (docs/architecture.md#forms).
 * The password minimum is configurable (PASSWORD_MIN_LENGTH, default 6), so schemas that
 * take a password are built for a given minimum.
 */
import { z } from "zod";
import { optionalEmail, optionalText, optionalUrl, requiredEmail, requiredText, schemaPerSetting } from "#app/lib/text-fields";
import { REFERRAL_MESSAGES, PASSWORD_MESSAGES } from "./accounts.messages";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { REFERRAL_MESSAGES, PASSWORD_MESSAGES, AUTH_MESSAGES } from "./accounts.messages";

const email = requiredEmail("Email is required.");

const PHONE_CHARACTERS = "Phone may contain only digits, spaces and + ( ) - .";
const phone = requiredText("Phone", 40).refine((value) => /^[0-9+().\-\s]+$/.test(value), PHONE_CHARACTERS);
/** Client registration's phone: optional unless Settings ask for it (docs/product.md#registration). */
const optionalPhone = optionalText("Phone", 40)
  .refine((value) => value === null || /^[0-9+().\-\s]+$/.test(value), PHONE_CHARACTERS)
  .transform((value) => value ?? undefined);

/**
 * A new password (docs/product.md#passwords): at least `min` characters (max 128), not only
 * whitespace. The server also refuses the most common passwords (`password-policy.server.ts`).
 */
export const passwordField = (min: number) =>
  z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .min(min, `Password must be at least ${min} characters.`)
    .max(128, "Password must be at most 128 characters.")
    .refine((value) => value.trim() !== "", PASSWORD_MESSAGES.blank);

/** Referral link ID rules (docs/product.md#ambassador-signup); the value is lowercased. */
export const referralCodeField = z
  .string({ error: REFERRAL_MESSAGES.required })
  .trim()
  .min(1, { error: REFERRAL_MESSAGES.required, abort: true })
  .max(64, "Referral link ID must be at most 64 characters.")
  .regex(/^[A-Za-z0-9_-]+$/, REFERRAL_MESSAGES.pattern)
  .transform((value) => value.toLowerCase());

/** Where {@link safeRedirect} resolves paths: a dummy origin, never shown. */
const REDIRECT_BASE = "http://portal.invalid";

/**
 * Only same-origin paths are followed after sign-in (docs/product.md#login): the value is
 * resolved against a dummy origin with the URL API (which normalises `..`, `%2e`, backslashes
 * and tabs as a browser does), and kept only when it stays on that origin and its normalised
 * form is itself an unambiguous absolute path (not `//host` nor `/\host`).
 *
 * @param value - the `redirectTo` field or query parameter.
 * @returns the normalised path with its query and hash, or null (the caller goes to the role's home).
 */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return null;
  // Browsers drop tabs and newlines from URLs; control characters have no place in a path.
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, REDIRECT_BASE);
  } catch {
    return null;
  }
  if (url.origin !== REDIRECT_BASE || url.username || url.password) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The result must read back as the same same-origin path (e.g. `/..//evil` normalises to `//evil`).
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return null;
  try {
    const again = new URL(path, REDIRECT_BASE);
    if (again.origin !== REDIRECT_BASE || `${again.pathname}${again.search}${again.hash}` !== path) return null;
    // A path that decodes to `//host` or `/\host` is refused too (e.g. `/%2F%2Fevil.com`), in
    // case something on the way decodes it once more.
    const decoded = decodeURIComponent(url.pathname);
    if (decoded.startsWith("//") || decoded.startsWith("/\\") || /[\u0000-\u001f\u007f]/.test(decoded)) return null;
  } catch {
    return null;
  }
  return path;
}

export const loginSchema = z.object({
  email,
  password: z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .max(128, "Password must be at most 128 characters."),
  redirectTo: z.string().optional(),
});

/**
 * @param requirePhone - Settings' "Require a phone number at client registration" (default off).
 */
export const clientRegistrationSchema = schemaPerSetting((minPassword: number, requirePhone = false) =>
  z.object({
    businessName: requiredText("Business name", 200),
    email,
    phone: requirePhone ? phone : optionalPhone,
    password: passwordField(minPassword),
    website: optionalUrl("Website").transform((value) => value ?? undefined),
    referralCode: z
      .string()
      .trim()
      .max(64, REFERRAL_MESSAGES.invalid)
      .optional()
      .transform((value) => value?.toLowerCase() || undefined),
  }),
);

export const ambassadorRegistrationSchema = schemaPerSetting((minPassword: number) =>
  z.object({
    name: requiredText("Name", 200),
    email,
    phone,
    password: passwordField(minPassword),
    referralCode: referralCodeField,
  }),
);

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = schemaPerSetting((minPassword: number) =>
  z
    .object({
      token: z.string({ error: "This reset link is incomplete." }).regex(/^[A-Za-z0-9_-]{1,200}$/, "This reset link is incomplete."),
      password: passwordField(minPassword),
      confirmPassword: z.string({ error: "Repeat the new password." }),
    })
    .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "The two passwords do not match." }),
);

/** Asking for a new verification link (banner, sign-in page): the e-mail when signed out. */
export const resendVerificationSchema = z.object({ email: optionalEmail() });

/** Notification preferences (the /account form): the checkbox posts "on" when ticked. */
export const preferencesSchema = z
  .object({
    notifyUpdates: z.literal("on").optional(),
    // Message mails (docs/product.md#conversations-mail): only on forms that show the checkbox (clients, admins).
    notifyMessages: z.literal("on").optional(),
    messagesShown: z.literal("1").optional(),
    // Automatic reminders (docs/product.md#reminders): only on forms that show the checkbox (clients, ambassadors).
    notifyReminders: z.literal("on").optional(),
    remindersShown: z.literal("1").optional(),
  })
  .transform((v) => ({
    notifyUpdates: v.notifyUpdates === "on",
    ...(v.messagesShown ? { notifyMessages: v.notifyMessages === "on" } : {}),
    ...(v.remindersShown ? { notifyReminders: v.notifyReminders === "on" } : {}),
  }));

/** Registration's phone rule, shared by the account page's profile forms (docs/product.md#account-page). */
export const phoneField = phone;
