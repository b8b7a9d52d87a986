/**
 * A page request's session in one statement (issue #42): the signed session cookie is checked here
 * and the session, its user, the client's organisation and organisations — and, for a page read, the
 * settings row — come back in one statement, instead of better-auth's `getSession` (a WebCrypto key
 * import and HMAC, its endpoint machinery, one statement) followed by a statement per fact.
 *
 * It does what `getSession` does on its common path, and only that: a valid signature, a session
 * row with its user that has not expired and needs no sliding refresh yet, no other session
 * cookie. Anything else — no or a bad signature, a session gone (signed out, revoked, deactivated),
 * expired or due for refresh, the "don't remember me" or session-data cookie — is left to
 * better-auth (`null` here), which answers it with its own cookies and writes. Every request still
 * reads the session row, so a sign-out, a revocation or a deactivation takes effect at once.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { isRequestView } from "#app/db/request-memo.server";
import { session, settings, user, type OrganisationRole } from "#app/db/schema";
import {
  readSessionOrganisationFacts,
  sessionOrganisationSql,
  type SessionOrganisationFacts,
} from "#app/features/organisations/organisations.server";
import { primeSettings, SETTINGS_SELECTION } from "#app/features/settings/settings.server";
import type { BetterAuthOptions } from "better-auth";
// better-auth reads its cookies with better-call's parser (the first of a name wins, values unquoted and decoded).
import { parseCookies } from "better-call";
import { roleOf } from "./actor";
import type { Auth } from "./auth.server";

/** What the session middleware needs of a session, from either way of reading it. */
export interface FoundSession {
  session: { id: string; updatedAt: Date };
  user: {
    id: string;
    email: string;
    name: string;
    role: string | null;
    banned: boolean | null;
    businessName: string | null;
    phone: string | null;
    website: string | null;
    referralCode: string | null;
    referredById: string | null;
    twoFactorEnabled: boolean | null;
    emailVerified: boolean;
  };
  /** The client's current organisation (null: none, or not a client). */
  organisation: { organisationId: number; organisationRole: OrganisationRole; name: string } | null;
}

/** better-auth's settings this lookup must agree with, read once per auth instance. */
interface SessionRules {
  /** Null: better-auth is configured in a way this lookup does not follow (cookie cache, secondary storage …). */
  cookie: { token: string; dontRemember: string; sessionData: string } | null;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}

const rulesOf = new WeakMap<Auth, Promise<SessionRules>>();

function sessionRules(auth: Auth): Promise<SessionRules> {
  let rules = rulesOf.get(auth);
  if (!rules) {
    rules = auth.$context.then((c) => {
      const all = c.options as BetterAuthOptions;
      const options = all.session;
      const followed =
        !options?.cookieCache?.enabled && !options?.disableSessionRefresh && !options?.deferSessionRefresh && !all.secondaryStorage;
      return {
        cookie: followed
          ? {
              token: c.authCookies.sessionToken.name,
              dontRemember: c.authCookies.dontRememberToken.name,
              sessionData: c.authCookies.sessionData.name,
            }
          : null,
        secret: c.secret,
        expiresInMs: c.sessionConfig.expiresIn * 1000,
        updateAgeMs: c.sessionConfig.updateAge * 1000,
      };
    });
    rulesOf.set(auth, rules);
  }
  return rules;
}

/**
 * @returns the session token of a signed cookie value (`<token>.<base64 HMAC-SHA256>`), or null when
 *   the signature is missing, malformed or wrong.
 */
function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const given = Buffer.from(signature, "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/**
 * Reads the session of a request in one statement (see the module comment for when it declines).
 *
 * @param headers - the request's headers (its `Cookie`).
 * @param db - the database, or a page read's request view: then the statement also brings the
 *   settings row and the logo's version, kept for the request's readers (`getSettings`, `getBrand`).
 * @returns the session, or null when better-auth must answer (no cookie, a bad one, a session gone,
 *   expired or due for refresh, other session cookies).
 */
export async function lookUpSession(auth: Auth, db: Database, headers: Headers): Promise<FoundSession | null> {
  const header = headers.get("cookie");
  if (!header) return null;
  const rules = await sessionRules(auth);
  if (!rules.cookie) return null;
  const cookies = parseCookies(header);
  if (cookies.get(rules.cookie.dontRemember) || cookies.has(rules.cookie.sessionData)) return null;
  const value = cookies.get(rules.cookie.token);
  const token = value ? verifiedToken(value, rules.secret) : null;
  if (!token) return null;
  const base = {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    updatedAt: session.updatedAt,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      banned: user.banned,
      businessName: user.businessName,
      phone: user.phone,
      website: user.website,
      referralCode: user.referralCode,
      referredById: user.referredById,
      twoFactorEnabled: user.twoFactorEnabled,
      emailVerified: user.emailVerified,
    },
    // A client's organisation facts (docs/product.md#organisations), read fresh on every request.
    organisation: sql<SessionOrganisationFacts | null>`case when ${user.role} in ('admin', 'ambassador') then null else ${sessionOrganisationSql(sql`${session.userId}`, sql`${session.activeOrganisationId}`)} end`,
  };
  let row;
  if (isRequestView(db)) {
    [row] = await db
      .select({ ...base, ...SETTINGS_SELECTION })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .leftJoin(settings, sql`true`)
      .where(eq(session.token, token))
      .limit(1);
    if (row) primeSettings(db, row.settings, row.logoVersion);
  } else {
    [row] = await db.select(base).from(session).innerJoin(user, eq(user.id, session.userId)).where(eq(session.token, token)).limit(1);
  }
  if (!row) return null;
  const now = Date.now();
  const expiresAt = row.expiresAt.getTime();
  // Expired (better-auth deletes it and the cookie) or due for its sliding refresh (better-auth writes it).
  if (!(expiresAt > now) || expiresAt - rules.expiresInMs + rules.updateAgeMs <= now) return null;
  const client = roleOf(row.user.role) === "client";
  return {
    session: { id: row.sessionId, updatedAt: row.updatedAt },
    user: row.user,
    organisation: client && !row.user.banned ? readSessionOrganisationFacts(db, row.user.id, row.organisation) : null,
  };
}
