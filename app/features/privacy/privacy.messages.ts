/** What the privacy forms say (docs/product.md#download-my-data, docs/product.md#closing-an-account). */
export const PRIVACY_MESSAGES = {
  transferOwnership: (names: string[]) =>
    `You are the only owner of ${names.join(", ")}. Make another person an owner on the Organisation page first, then close your account.`,
  exportQueued: "Your file is being prepared. We will e-mail you a link to download it (it works for 24 hours).",
  exportPending: "Your file is being prepared already. We will e-mail you the link.",
  exportLimit: "You asked for your data several times in the last hour. Please try again later.",
  exportGone: "This download link has expired or is not yours. Ask for a new file on your account page.",
  closeConfirmFirst: "Confirm that you want to close your account.",
  closeAdmin: "An admin account cannot be closed here: ask another admin.",
  unpaidNotAcknowledged: "You have an unpaid balance. Confirm that you understand it stays due after your account is closed.",
  unpaidAcknowledge: "I understand that closing my account does not cancel this balance: it stays due.",
  closeNeedsCode: "Enter a code from your authenticator app, or a backup code.",
  closed: "Your account is closed. Your personal data has been erased; thank you for working with us.",
} as const;

/** What `POST /account/my-data` says on the account page when it sends no file (`/account?my-data=<notice>`). */
export type MyDataNotice = "queued" | "pending" | "limit";

/**
 * The "Your data" section's message for `?my-data=` of the account page's URL.
 *
 * @returns `{ ok, message }` (ok: the export is on its way), or null for no or an unknown value.
 */
export function myDataNotice(value: string | null): { ok: boolean; message: string } | null {
  if (value === "queued") return { ok: true, message: PRIVACY_MESSAGES.exportQueued };
  if (value === "pending") return { ok: true, message: PRIVACY_MESSAGES.exportPending };
  if (value === "limit") return { ok: false, message: PRIVACY_MESSAGES.exportLimit };
  return null;
}
