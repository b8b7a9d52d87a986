/**
 * Forms of the authentication screens (spec §5 Login, Client registration, Ambassador
 * sign-up, password policy; §8 messages). Shared by the browser (conform) and the actions.
 * The password minimum is configurable (PASSWORD_MIN_LENGTH, default 6), so schemas that
 * take a password are built for a given minimum.
 */
import { z } from "zod";
import { optionalEmail, optionalUrl, requiredEmail, requiredText } from "#app/lib/text-fields";

export const REFERRAL_MESSAGES = {
  required: "Referral link ID is required.",
  pattern: "Referral link can only contain letters, numbers, hyphens, and underscores.",
  taken: "That referral link ID is already taken. Please choose another.",
  invalid: "Invalid referral code",
} as const;

const email = requiredEmail("Email is required.");

const phone = requiredText("Phone", 40).refine(
  (value) => /^[0-9+().\-\s]+$/.test(value),
  "Phone may contain only digits, spaces and + ( ) - .",
);

/** A password of at least `min` characters (max 128). */
export const passwordField = (min: number) =>
  z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .min(min, `Password must be at least ${min} characters.`)
    .max(128, "Password must be at most 128 characters.");

/** Referral link ID rules (spec §5 Ambassador sign-up); the value is lowercased. */
export const referralCodeField = z
  .string({ error: REFERRAL_MESSAGES.required })
  .trim()
  .min(1, { error: REFERRAL_MESSAGES.required, abort: true })
  .max(64, "Referral link ID must be at most 64 characters.")
  .regex(/^[A-Za-z0-9_-]+$/, REFERRAL_MESSAGES.pattern)
  .transform((value) => value.toLowerCase());

/** Only same-origin paths are followed after sign-in (no `//evil.example`, no `https://…`). */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  try {
    const url = new URL(value, "http://x");
    return url.host === "x" ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

export const loginSchema = z.object({
  email,
  password: z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .max(128, "Password must be at most 128 characters."),
  redirectTo: z.string().optional(),
});

export const clientRegistrationSchema = (minPassword: number) =>
  z.object({
    businessName: requiredText("Business name", 200),
    email,
    phone,
    password: passwordField(minPassword),
    website: optionalUrl("Website").transform((value) => value ?? undefined),
    referralCode: z
      .string()
      .trim()
      .max(64, REFERRAL_MESSAGES.invalid)
      .optional()
      .transform((value) => value?.toLowerCase() || undefined),
  });

export const ambassadorRegistrationSchema = (minPassword: number) =>
  z.object({
    name: requiredText("Name", 200),
    email,
    phone,
    password: passwordField(minPassword),
    referralCode: referralCodeField,
  });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = (minPassword: number) =>
  z
    .object({
      token: z.string({ error: "This reset link is incomplete." }).regex(/^[A-Za-z0-9_-]{1,200}$/, "This reset link is incomplete."),
      password: passwordField(minPassword),
      confirmPassword: z.string({ error: "Repeat the new password." }),
    })
    .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "The two passwords do not match." });

export const AUTH_MESSAGES = {
  resetSent: "A password reset email has been sent.",
  resetDone: "Your password has been changed. You can sign in now.",
  registrationClosed: "New client registrations are currently closed. Please contact us instead.",
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  /** Sign-in refused while "Require e-mail verification to sign in" is on (docs/product.md#email-verification). */
  verifyBeforeSignIn: "Verify your e-mail address before signing in: open the link we e-mailed you, or ask for a new one below.",
  verifySent: "Check your inbox: we e-mailed you a link to verify your e-mail address. Open it, then sign in.",
  /** The resend answer: the same whether or not the address has an unverified account. */
  verificationResent: "If this address has an account that is not verified yet, we e-mailed it a new verification link.",
  verified: "Your e-mail address is verified. Thank you!",
  verifyLinkInvalid: "This verification link is invalid or has expired. Sign in and ask for a new one.",
} as const;

/** Asking for a new verification link (banner, sign-in page): the e-mail when signed out. */
export const resendVerificationSchema = z.object({ email: optionalEmail() });

/** Notification preferences (the /account form): the checkbox posts "on" when ticked. */
export const preferencesSchema = z
  .object({ notifyUpdates: z.literal("on").optional() })
  .transform((v) => ({ notifyUpdates: v.notifyUpdates === "on" }));
