/**
 * Changing the sign-in e-mail address (docs/product.md#account-page): a confirmation link to
 * the new address, applied by a deliberate POST from the page the link opens.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, like, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { isUniqueViolation } from "#app/db/errors";
import { user, verification } from "#app/db/schema";
import { queueNotification } from "#app/features/mail/notifications.server";
import { AppError, conflict, fieldError } from "#app/lib/errors";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { checkPassword, limit } from "./guards.server";

/** E-mail change link lifetime: 1 hour. */
export const EMAIL_CHANGE_EXPIRES_IN_S = 3600;

/**
 * Starts an e-mail change (docs/product.md#account-page): after the current password is
 * checked, the new address gets a confirmation link (through the outbox, valid one hour); the
 * address changes only when the link is followed.
 *
 * @throws {AppError} 400 wrong password (`currentPassword`) or same address; 409 address in
 *   use (`newEmail`); 429 too many attempts.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  actor: SessionUser,
  input: { newEmail: string; currentPassword: string },
): Promise<void> {
  const { db } = deps;
  const newEmail = input.newEmail.toLowerCase();
  if (newEmail === actor.email.toLowerCase()) throw fieldError("newEmail", ACCOUNT_MESSAGES.emailSame);
  await checkPassword(deps, actor.id, input.currentPassword, "currentPassword");
  await limit(db, `email-change:${actor.id}`, { limit: 5, windowMs: 60 * 60_000 });
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, newEmail)).limit(1);
  if (taken) throw fieldError("newEmail", ACCOUNT_MESSAGES.emailTaken, "CONFLICT");
  const token = randomBytes(24).toString("base64url");
  const ctx = await deps.auth.$context;
  // One pending change per user: a new request replaces the old link.
  await db
    .delete(verification)
    .where(
      and(
        like(verification.identifier, "email-change:%"),
        like(verification.value, `${JSON.stringify({ kind: "email-change", userId: actor.id }).slice(0, -1)},%`),
      ),
    );
  await ctx.internalAdapter.createVerificationValue({
    identifier: `email-change:${token}`,
    value: JSON.stringify({ kind: "email-change", userId: actor.id, newEmail }),
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_EXPIRES_IN_S * 1000),
  });
  await queueNotification(db, {
    to: newEmail,
    subject: "Confirm your new e-mail address",
    lines: [
      `Someone asked to use this address for their account (now ${actor.email}).`,
      "Confirm the change with the button below: the link works once, for one hour.",
      "If it was not you, ignore this e-mail: nothing changes.",
    ],
    link: { label: "Confirm the new address", path: `/account/confirm-email?token=${token}` },
  });
}

/** A pending e-mail change, for the confirmation page. @returns null when the link is invalid or expired. */
export async function findEmailChange(db: Database, token: string): Promise<{ newEmail: string } | null> {
  const [row] = await db
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, `email-change:${token}`), gt(verification.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  const parsed = JSON.parse(row.value) as { newEmail: string };
  return { newEmail: parsed.newEmail };
}

/**
 * Applies an e-mail change from its link (docs/product.md#account-page): the link works once;
 * the address must still be free; the old address is told about the change.
 *
 * @returns the new address.
 * @throws {AppError} 400 invalid, expired or used link; 409 the address was taken meanwhile.
 */
export async function confirmEmailChange({ db, auth }: AccountDeps, token: string): Promise<string> {
  const ctx = await auth.$context;
  const found = await ctx.internalAdapter.consumeVerificationValue(`email-change:${token}`);
  if (!found || found.expiresAt < new Date()) throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  const { kind, userId, newEmail } = JSON.parse(found.value) as { kind: string; userId: string; newEmail: string };
  if (kind !== "email-change") throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  const [current] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  if (!current) throw new AppError("INVALID_INPUT", ACCOUNT_MESSAGES.emailLinkInvalid);
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(user)
        .set({ email: newEmail, emailVerified: true, updatedAt: sql`now()` })
        .where(eq(user.id, userId));
      await queueNotification(tx, {
        to: current.email,
        subject: "Your e-mail address was changed",
        lines: [
          `The e-mail address of your account was changed from ${current.email} to ${newEmail}.`,
          "If it was not you, reply to this e-mail or contact us at once.",
        ],
        link: { label: "Sign in", path: "/login" },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
    throw error;
  }
  return newEmail;
}
