/**
 * The account page's list of sessions (docs/product.md#account-page): where the user is signed
 * in, "last active", and signing one or all others out.
 */
import Bowser from "bowser";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { session } from "#app/db/schema";
import { AppError, conflict } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { ACCOUNT_MESSAGES } from "../account.messages";
import type { AccountDeps } from "../accounts.server";
import type { SessionUser } from "../actor";
import { authHeaders } from "../auth-glue.server";

/** A session's "last active" time is written at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** One active session as the account page lists it. */
export interface SessionView {
  id: string;
  /** "Chrome on Linux", or "Unknown device". */
  device: string;
  ipAddress: string | null;
  /** When it was last used (to 5 minutes). */
  lastActiveAt: Date;
  createdAt: Date;
  current: boolean;
}

/** "Firefox on Windows" from a user agent (bowser), or "Unknown device". */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  const kind = parsed.platform.type === "mobile" ? " (phone)" : parsed.platform.type === "tablet" ? " (tablet)" : "";
  if (!browser && !os) return "Unknown device";
  return `${browser ?? "Browser"} on ${os ?? "unknown system"}${kind}`;
}

/**
 * The signed-in user's active sessions, most recently used first.
 *
 * @param currentSessionId - the session of this request ("this device").
 */
export async function listSessions(db: Database, actor: SessionUser, currentSessionId: string | null): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(session)
    .where(and(eq(session.userId, actor.id), gt(session.expiresAt, sql`now()`)))
    .orderBy(desc(session.updatedAt))
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    device: describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress,
    lastActiveAt: row.updatedAt,
    createdAt: row.createdAt,
    current: row.id === currentSessionId,
  }));
}

/**
 * Records that a session was used (its `updatedAt`, shown as "last active"), at most every
 * five minutes.
 */
export async function touchSession(db: Database, found: { id: string; updatedAt: Date | string }): Promise<void> {
  if (Date.now() - new Date(found.updatedAt).getTime() < TOUCH_EVERY_MS) return;
  await db
    .update(session)
    .set({ updatedAt: sql`now()` })
    .where(eq(session.id, found.id));
}

/**
 * Signs out one of the user's other sessions (docs/product.md#account-page): its next
 * request goes to /login.
 *
 * @throws {AppError} 404 not one of the user's sessions; 409 it is the current session.
 */
export async function revokeSession(
  { db, auth }: AccountDeps,
  actor: SessionUser,
  sessionId: string,
  currentSessionId: string | null,
  meta: RequestMeta,
): Promise<void> {
  if (sessionId === currentSessionId) throw conflict(ACCOUNT_MESSAGES.currentSession);
  const [row] = await db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, actor.id)));
  if (!row) throw new AppError("NOT_FOUND", "That session has already ended.");
  await auth.api.revokeSession({ body: { token: row.token }, headers: authHeaders(meta) });
}

/** Signs out every session of the user but this one (docs/product.md#account-page). */
export async function revokeOtherSessions({ auth }: AccountDeps, meta: RequestMeta): Promise<void> {
  await auth.api.revokeOtherSessions({ headers: authHeaders(meta) });
}

/** The id of the request's session (better-auth), or null. */
export async function currentSessionId({ auth }: AccountDeps, meta: RequestMeta): Promise<string | null> {
  const found = await auth.api.getSession({ headers: authHeaders(meta) });
  return found?.session.id ?? null;
}
