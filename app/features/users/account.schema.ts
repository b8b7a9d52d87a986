/**
 * Forms of the account page (docs/product.md#account-page): profile per role (the rules of
 * registration), e-mail change, password change, sessions, two-factor and passkeys. Shared by
 * the actions and, through `formConstraints`, the pages' browser-side checks.
 */
import { z } from "zod";
import { optionalUrl, requiredEmail, requiredText, schemaPerSetting } from "#app/lib/text-fields";
import { passwordField, phoneField } from "./accounts.schema";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { ACCOUNT_MESSAGES } from "./account.messages";

/** A client's profile: business name, phone, website (as at registration). */
export const clientProfileSchema = z.object({
  businessName: requiredText("Business name", 200),
  phone: phoneField,
  website: optionalUrl("Website").transform((value) => value ?? null),
});

/** An ambassador's profile: name and phone (the referral link ID cannot change). */
export const ambassadorProfileSchema = z.object({ name: requiredText("Name", 200), phone: phoneField });

/** An admin's profile: name. */
export const adminProfileSchema = z.object({ name: requiredText("Name", 200) });

/** What a profile save takes: the role's fields (others are ignored). */
export type ProfileInput =
  z.output<typeof clientProfileSchema> | z.output<typeof ambassadorProfileSchema> | z.output<typeof adminProfileSchema>;

const currentPassword = z
  .string({ error: "Enter your current password." })
  .min(1, "Enter your current password.")
  .max(128, "Password must be at most 128 characters.");

/** E-mail change: the new address and the current password. */
export const changeEmailSchema = z.object({ newEmail: requiredEmail("Enter the new e-mail address."), currentPassword });

/** Password change: current password, new password (the registration rule) twice. */
export const changePasswordSchema = schemaPerSetting((minPassword: number) =>
  z
    .object({ currentPassword, newPassword: passwordField(minPassword), confirmPassword: z.string({ error: "Repeat the new password." }) })
    .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "The two passwords do not match." }),
);

/** A six-digit code from the authenticator app (spaces ignored). */
export const totpCodeField = z
  .string({ error: "Enter the 6-digit code from your app." })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your app."));

/** Starting two-factor setup: the current password. */
export const startTwoFactorSchema = z.object({ password: currentPassword });

/** Confirming two-factor setup with a first code. */
export const confirmTwoFactorSchema = z.object({ code: totpCodeField });

/** Turning two-factor off: password and a code (or a backup code). */
export const disableTwoFactorSchema = z.object({
  password: currentPassword,
  code: z
    .string({ error: "Enter a code from your app or a backup code." })
    .trim()
    .min(1, "Enter a code from your app or a backup code.")
    .max(20, "That code is not valid."),
});

/** The sign-in second step: a 6-digit code or a backup code (`xxxxx-xxxxx`). */
export const signInCodeSchema = z.object({
  code: z
    .string({ error: "Enter the code from your app or a backup code." })
    .trim()
    .min(1, "Enter the code from your app or a backup code.")
    .max(20, "That code is not valid."),
  redirectTo: z.string().max(2000).optional(),
});

/** better-auth ids (sessions, passkeys): letters, digits, `_` and `-`. */
const authId = z.string({ error: "This request is incomplete." }).regex(/^[A-Za-z0-9_-]{1,64}$/, "This request is incomplete.");

/** One session to sign out. */
export const revokeSessionSchema = z.object({ id: authId });

/** Renaming a passkey. */
export const renamePasskeySchema = z.object({ id: authId, name: requiredText("Name", 60) });

/** Removing a passkey. */
export const removePasskeySchema = z.object({ id: authId });

/** Confirming an e-mail change from the link. */
export const confirmEmailSchema = z.object({
  token: z.string({ error: "This link is incomplete." }).regex(/^[A-Za-z0-9_-]{20,100}$/, "This link is incomplete."),
});

/** The sign-in second step's address, keeping a same-origin `redirectTo`. */
export function twoFactorStepPath(redirectTo: string | undefined): string {
  return redirectTo ? `/login/two-factor?redirectTo=${encodeURIComponent(redirectTo)}` : "/login/two-factor";
}

/** What the passkey resource route accepts (`/passkey/:step`). */
export const PASSKEY_STEPS = ["register-options", "register", "sign-in-options", "sign-in"] as const;
export type PasskeyStepName = (typeof PASSKEY_STEPS)[number];
