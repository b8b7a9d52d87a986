/**
 * Passkeys on the account page (docs/product.md#account-page): list, add (the WebAuthn
 * registration ceremony through better-auth's passkey plugin), rename and remove.
 */
import { APIError } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { passkey } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { authHeaders, sessionRefusal } from "../auth-glue.server";

/** One passkey as the account page lists it. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date | null;
}

/** What a passkey step answers: JSON for the browser, and cookies to set. */
export interface PasskeyStep {
  body: unknown;
  headers: Headers;
}

/** Maps a better-auth refusal of a passkey step to a sentence. @throws {AppError} always. */
export function passkeyError(error: unknown): never {
  if (error instanceof APIError) {
    throw new AppError(error.statusCode === 401 ? "UNAUTHORIZED" : "INVALID_INPUT", "The passkey could not be used. Try again.");
  }
  throw error;
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(db: Database, actor: SessionUser): Promise<PasskeyView[]> {
  const rows = await db
    .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt })
    .from(passkey)
    .where(eq(passkey.userId, actor.id))
    .orderBy(passkey.createdAt);
  return rows.map((row) => ({ id: row.id, name: row.name || "Passkey", createdAt: row.createdAt }));
}

/** @throws {AppError} 404 not one of the user's passkeys. */
async function assertOwnPasskey(db: Database, actor: SessionUser, passkeyId: string) {
  const [row] = await db
    .select({ id: passkey.id })
    .from(passkey)
    .where(and(eq(passkey.id, passkeyId), eq(passkey.userId, actor.id)));
  if (!row) throw new AppError("NOT_FOUND", "Passkey not found.");
}

/** Renames one of the user's passkeys. @throws {AppError} 404 not theirs. */
export async function renamePasskey({ db, auth }: AccountDeps, actor: SessionUser, input: { id: string; name: string }, meta: RequestMeta) {
  await assertOwnPasskey(db, actor, input.id);
  await auth.api.updatePasskey({ body: { id: input.id, name: input.name }, headers: authHeaders(meta) });
}

/** Removes one of the user's passkeys. @throws {AppError} 404 not theirs. */
export async function removePasskey({ db, auth }: AccountDeps, actor: SessionUser, passkeyId: string, meta: RequestMeta) {
  await assertOwnPasskey(db, actor, passkeyId);
  await auth.api.deletePasskey({ body: { id: passkeyId }, headers: authHeaders(meta) });
}

/**
 * Registration options for a new passkey of the signed-in user (sets the challenge cookie): user
 * verification required; the relying party is named after the company in Settings, as it is now.
 */
export async function passkeyRegistrationOptions({ db, auth }: AccountDeps, meta: RequestMeta): Promise<PasskeyStep> {
  let result;
  try {
    result = await auth.api.generatePasskeyRegistrationOptions({ headers: authHeaders(meta), returnHeaders: true });
  } catch (error) {
    passkeyError(error);
  }
  const options = result.response as { rp: { name: string; id?: string } };
  return { body: { ...options, rp: { ...options.rp, name: companyNameOf(await getSettings(db)) } }, headers: result.headers };
}

/**
 * Stores the new passkey the browser made (better-auth checks the challenge and attestation, our
 * hook that the authenticator verified its user).
 *
 * @throws {AppError} 400 no user verification, or the passkey could not be checked; 401 not signed in.
 */
export async function registerPasskey(
  { auth }: AccountDeps,
  input: { response: unknown; name?: string },
  meta: RequestMeta,
): Promise<PasskeyStep> {
  try {
    const result = await auth.api.verifyPasskeyRegistration({
      body: { response: input.response, name: input.name?.slice(0, 60) || undefined },
      headers: authHeaders(meta),
      returnHeaders: true,
    });
    return { body: { ok: true }, headers: result.headers };
  } catch (error) {
    throw sessionRefusal(error) ?? passkeyError(error);
  }
}
