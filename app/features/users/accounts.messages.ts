/**
 * User-visible messages of the authentication screens (docs/product.md#form-messages), in a module of their own
 * so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

export const REFERRAL_MESSAGES = {
  required: "Referral link ID is required.",
  pattern: "Referral link can only contain letters, numbers, hyphens, and underscores.",
  taken: "That referral link ID is already taken. Please choose another.",
  invalid: "Invalid referral code",
} as const;

/** Password messages of the form schemas and of the server's common-password check (docs/product.md#passwords). */
export const PASSWORD_MESSAGES = {
  blank: "Password cannot be only spaces.",
  common: "This password is one of the most common passwords and easy to guess. Choose another.",
} as const;

export const AUTH_MESSAGES = {
  phoneRequired: "Phone is required.",
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
