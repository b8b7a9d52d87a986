/**
 * E-mail verification (docs/product.md#email-verification): the link of the verification mail
 * opens a page that says which address it is for; only a deliberate POST from that page verifies
 * it (a mail provider's link scanner fetching the link changes nothing), and the same page offers
 * "This was not me", which closes the unverified account that claimed the address and frees it.
 */
import { APIError } from "better-auth/api";
import { verifyJWT } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { user } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { eraseAccount } from "#app/features/privacy/erasure.server";
import { AppError, conflict } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { AUTH_MESSAGES } from "./accounts.schema";
import type { AccountDeps } from "./accounts.server";
import { limitVerificationResend } from "./throttle.server";
export { VERIFY_RATE_LIMITS } from "./throttle.server";

/** A verification token is a signed JWT of a few hundred characters; anything longer is not one. */
export const MAX_VERIFICATION_TOKEN_LENGTH = 2_048;

/** What the link's page shows before anything is done. */
export interface VerificationLink {
  /** The address the link was mailed to (the account's). */
  email: string;
  /** Already verified: the page says so and offers nothing to do. */
  verified: boolean;
}

/**
 * Reads a verification link without using it: better-auth's signed token (HS256, 3 days) names the
 * address and the account.
 *
 * @returns null for an invalid, expired or tampered token, or when the account no longer has that address.
 */
export async function readVerificationLink(
  { db, auth }: AccountDeps,
  token: string,
): Promise<(VerificationLink & { userId: string }) | null> {
  if (!token || token.length > MAX_VERIFICATION_TOKEN_LENGTH) return null;
  const ctx = await auth.$context;
  const payload = (await verifyJWT(token, ctx.secret)) as { email?: unknown; userId?: unknown; updateTo?: unknown } | null;
  if (!payload || typeof payload.email !== "string" || typeof payload.userId !== "string" || payload.updateTo) return null;
  const [row] = await db
    .select({ email: user.email, verified: user.emailVerified, closedAt: user.closedAt })
    .from(user)
    .where(eq(user.id, payload.userId));
  if (!row || row.closedAt || row.email !== payload.email.toLowerCase()) return null;
  return { userId: payload.userId, email: row.email, verified: row.verified };
}

/**
 * Verifies an e-mail address from the link of the verification mail, on the page's POST
 * (docs/product.md#email-verification). better-auth checks the signed token; its
 * `afterEmailVerification` hook then claims the ambassador proposals addressed to the address.
 * A link of an address already verified succeeds again and changes nothing.
 *
 * @param token - the `token` of the link, posted back by the page.
 * @returns true when the address is verified; false for an invalid, expired or tampered link
 *   (the page then offers a new one).
 */
export async function verifyEmailAddress(deps: AccountDeps, token: string): Promise<boolean> {
  if (!(await readVerificationLink(deps, token))) return false;
  try {
    await deps.auth.api.verifyEmail({ query: { token } });
    return true;
  } catch (error) {
    if (error instanceof APIError) return false;
    throw error;
  }
}

/**
 * "This was not me" on the link's page (docs/product.md#email-verification): someone who is not
 * the owner of the address registered with it. The unverified account is closed
 * (`eraseAccount`: its sessions end, its data goes) and the address is free again; the
 * proposals addressed to it keep waiting for its owner. Audited (entity `user`, `released`).
 *
 * @throws {AppError} 400 invalid, expired or used link; 409 the address is verified already (the
 *   account is its owner's: the page says to reset the password instead).
 */
export async function releaseUnverifiedAddress(deps: AccountDeps, token: string): Promise<void> {
  const link = await readVerificationLink(deps, token);
  if (!link) throw new AppError("INVALID_INPUT", AUTH_MESSAGES.verifyLinkInvalid);
  if (link.verified) throw conflict(AUTH_MESSAGES.notMeVerified);
  await deps.db.transaction(async (tx) => {
    const [current] = await tx.select({ verified: user.emailVerified }).from(user).where(eq(user.id, link.userId)).for("update");
    if (current?.verified) throw conflict(AUTH_MESSAGES.notMeVerified);
    if (!(await eraseAccount(tx, link.userId, "Released by the owner of the e-mail address"))) return;
    await recordAudit(
      tx,
      { id: link.userId, role: "client", email: "the owner of the e-mail address" },
      { entity: "user", entityId: link.userId, action: "released", before: null, after: null },
    );
  });
}

/**
 * Mails a new verification link to `email` when it has an account that is not verified yet
 * (docs/product.md#email-verification). The caller always shows the same answer, so the
 * signed-out form on /login tells nothing about which addresses have accounts. Throttled per
 * address and per client IP (`VERIFY_RATE_LIMITS` in throttle.server.ts).
 *
 * @param email - lowercased; the session's address when signed in.
 * @throws {AppError} 429 too many requests for this address or from this IP.
 */
export async function resendVerificationEmail({ db, auth }: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  await limitVerificationResend(db, email, meta.ip);
  // No session headers: better-auth's signed-out path sends only to an unverified account
  // and takes the same minimum time whatever the address.
  await auth.api.sendVerificationEmail({ body: { email } });
}
