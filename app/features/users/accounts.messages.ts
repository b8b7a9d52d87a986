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
  /** "This was not me" on a link whose address is verified already. */
  notMeVerified:
    "This address is verified already, so the account is its owner's. If you did not create it, reset its password from the sign-in page and contact us.",
  notMeDone: "Done: the account that used your address is closed and signed out, and the address is free again. Nothing else is needed.",
  /** /login after closing one's account (docs/product.md#closing-an-account). */
  accountClosed: "Your account is closed and your personal data erased. Thank you for working with us.",
  /** A deactivated account's sign-in, at any step (password, code, passkey). */
  deactivated: "This account has been deactivated. Contact us if you think this is a mistake.",
} as const;
