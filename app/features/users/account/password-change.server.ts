/** Changing the password from the account page (docs/product.md#account-page). */
import { queueNotification } from "#app/features/mail/notifications.server";
import { fieldError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { authErrorCode, authHeaders } from "../auth-glue.server";
import { limit, PASSWORD_LIMIT } from "./guards.server";

/**
 * Changes the password (docs/product.md#account-page): the current one is required; every
 * other session of the user ends (this one is renewed); a notice goes to the user's address.
 *
 * @returns headers with the renewed session cookie.
 * @throws {AppError} 400 wrong current password (`currentPassword`) or a refused new one; 429.
 */
export async function changePassword(
  { db, auth }: AccountDeps,
  actor: SessionUser,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
): Promise<Headers> {
  await limit(db, `account-password:${actor.id}`, PASSWORD_LIMIT);
  let result;
  try {
    result = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
  } catch (error) {
    const code = authErrorCode(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND")
      throw fieldError("currentPassword", ACCOUNT_MESSAGES.wrongPassword);
    if (code === "PASSWORD_TOO_SHORT") throw fieldError("newPassword", "The password is too short.");
    if (code === "PASSWORD_TOO_LONG") throw fieldError("newPassword", "The password is too long.");
    throw error;
  }
  await queueNotification(db, {
    to: actor.email,
    subject: "Your password was changed",
    lines: [
      "The password of your account was just changed, and every other session was signed out.",
      "If it was not you, reset your password at once and contact us.",
    ],
    link: { label: "Reset your password", path: "/forgot-password" },
  });
  return result.headers;
}
