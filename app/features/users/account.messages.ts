/**
 * User-visible messages of the account page (docs/product.md#form-messages), in a module of their own
 * so that pages import them without the schemas: zod stays out of the browser (ADR 010).
 */

export const ACCOUNT_MESSAGES = {
  profileSaved: "Your profile has been saved.",
  emailSent: "We sent a confirmation link to the new address. Your e-mail changes when you follow it (within one hour).",
  emailTaken: "An account with this e-mail already exists.",
  emailSame: "This is already your e-mail address.",
  emailChanged: "Your e-mail address has been changed.",
  emailLinkInvalid: "This link is invalid, expired or already used. Ask for a new one on your account page.",
  passwordChanged: "Your password has been changed. You were signed out everywhere else.",
  wrongPassword: "Wrong password.",
  sessionEnded: "That session has been signed out.",
  otherSessionsEnded: "You were signed out everywhere else.",
  currentSession: "This is the session you are using: use Logout to end it.",
  twoFactorEnabled: "Two-factor authentication is on. Keep your backup codes somewhere safe.",
  twoFactorDisabled: "Two-factor authentication is off.",
  twoFactorRequired: "An admin must use two-factor authentication: set it up below to reach the admin pages.",
  wrongCode: "That code is not valid. Try again.",
  codeUsed: "That code has already been used. Wait for the next one.",
  tooManyCodes: "Too many wrong codes. Please wait 15 minutes and sign in again.",
  signInExpired: "Your sign-in has expired. Please sign in again.",
  passkeyRenamed: "The passkey has been renamed.",
  passkeyRemoved: "The passkey has been removed.",
  preferencesSaved: "Preferences saved.",
  twoFactorStarted: "Scan the QR code with your authenticator app, then enter a code to finish.",
  twoFactorCancelled: "Two-factor setup cancelled.",
  passkeyNeedsVerification:
    "This passkey did not confirm it was you (fingerprint, face or device PIN). Try again and unlock it when your device asks.",
  passkeyAddAgain:
    "This passkey was added before the portal asked for your fingerprint, face or PIN. Sign in with your password and add it again on your account page.",
} as const;
