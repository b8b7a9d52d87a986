/**
 * Session and access guard middleware (docs/product.md#access-guard). The root
 * middleware loads the signed-in user into the router context for every request; each role
 * area's layout adds `requireRole(...)`, which runs before its loaders AND actions.
 */
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import { requestInfoContext } from "#app/lib/request-info";
import type { Database } from "#app/db/client.server";
import type { OrganisationRole, Role } from "#app/db/schema";
import { notFound } from "#app/lib/errors";
import { getSettings } from "#app/features/settings/settings.server";
import { touchSession } from "./account/sessions.server";
import { sessionOrganisation } from "#app/features/organisations/organisations.server";
import { authContext } from "./auth-context.server";
import type { Auth } from "./auth.server";
import { lookUpSession, type FoundSession } from "./session-lookup.server";
import { pageRequestFrom, type PageRequest } from "#app/lib/pagination";
import { homeFor, roleOf, type Actor, type SessionUser } from "./actor";

/** The signed-in user, or null. Set by {@link sessionMiddleware}. */
export const sessionUserContext = createContext<SessionUser | null>(null);

/**
 * Reads the session cookie (better-auth) and puts the user in context. A session refresh
 * (sliding expiry) is forwarded as Set-Cookie on the response.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const auth = context.get(authContext);
  if (!request.headers.get("cookie")?.includes("session_token")) {
    context.set(sessionUserContext, null);
    return next();
  }
  const { db } = context.get(servicesContext);
  // Issue #42: the common case in one statement (session-lookup.server.ts); better-auth answers the rest.
  const found: SessionFound = (await lookUpSession(auth, db, request.headers)) ?? (await sessionFromBetterAuth(auth, db, request.headers));
  const u = found.user;
  const role = roleOf(u?.role);
  const organisation = found.organisation;
  context.set(
    sessionUserContext,
    u && !u.banned
      ? {
          ...(role === "client"
            ? {
                organisationId: organisation?.organisationId ?? null,
                organisationRole: organisation?.organisationRole ?? null,
                organisationName: organisation?.name ?? null,
              }
            : {}),
          id: u.id,
          email: u.email,
          name: u.name,
          role,
          sessionId: found.session?.id,
          businessName: u.businessName ?? null,
          phone: u.phone ?? null,
          website: u.website ?? null,
          referralCode: u.referralCode ?? null,
          referredById: u.referredById ?? null,
          twoFactorEnabled: u.twoFactorEnabled === true,
          emailVerified: u.emailVerified === true,
        }
      : null,
  );
  // "Last active" on the account page's session list (docs/product.md#account-page).
  if (found.session && u && !u.banned) await touchSession(db, found.session);
  const signedIn = context.get(sessionUserContext);
  if (signedIn) noteUserForLog(context, signedIn.id);
  const response = await next();
  const cookies = found.headers?.getSetCookie() ?? [];
  if (cookies.length) {
    const copy = new Response(response.body, response);
    for (const cookie of cookies) copy.headers.append("Set-Cookie", cookie);
    return copy;
  }
  return response;
};

/** A session as either way reads it; `headers` holds better-auth's cookies (a refresh, a deletion). */
type SessionFound = Partial<Omit<FoundSession, "organisation">> & Pick<FoundSession, "organisation"> & { headers?: Headers };

/**
 * The session as better-auth's `getSession` answers it (with its cookies: a refresh, a deletion),
 * and the client's organisation in a second statement: every case {@link lookUpSession} declines.
 */
async function sessionFromBetterAuth(auth: Auth, db: Database, requestHeaders: Headers): Promise<SessionFound> {
  const { headers, response } = await auth.api.getSession({ headers: requestHeaders, returnHeaders: true });
  const user = response?.user as (FoundSession["user"] & Record<string, unknown>) | undefined;
  const organisation =
    user && !user.banned && roleOf(user.role) === "client" && response?.session ? await sessionOrganisation(db, response.session.id) : null;
  return { session: response?.session, user, organisation, headers };
}

/** Puts the signed-in user's id on the request's log line (absent outside the server, e.g. in tests). */
function noteUserForLog(context: { get: <T>(key: import("react-router").RouterContext<T>) => T }, userId: string) {
  try {
    context.get(requestInfoContext).log.userId = userId;
  } catch {
    /* no request info: not served by server/app.ts */
  }
}

/**
 * Guard for a role area: not signed in → `/login?redirectTo=<path>`; signed in with another
 * role → that role's home (admin → /admin, ambassador → /ambassador/dashboard, client →
 * /client-dashboard).
 */
export function requireRole(...roles: Role[]): MiddlewareFunction<Response> {
  return async ({ request, context }) => {
    const current = context.get(sessionUserContext);
    if (!current) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/\.data$/, "");
      throw redirect(`/login?redirectTo=${encodeURIComponent(path + url.search)}`);
    }
    if (!roles.includes(current.role)) throw redirect(homeFor(current.role));
  };
}

/**
 * Guard for a part of the client area that a role in the organisation does not cover
 * (docs/product.md#organisations): money pages for a member, project pages for a billing person —
 * a 404 with `message`, as for a record they may not see. The use-cases check the role again in
 * their statements.
 */
export function requireOrganisationRoles(roles: readonly OrganisationRole[], message = "Page not found"): MiddlewareFunction<Response> {
  return async ({ context }) => {
    const current = context.get(sessionUserContext);
    if (current?.role === "client" && current.organisationRole && !roles.includes(current.organisationRole)) throw notFound(message);
  };
}

/** Sends a signed-in user to their dashboard (for /login and /register). */
export const redirectSignedIn: MiddlewareFunction<Response> = async ({ context }) => {
  const current = context.get(sessionUserContext);
  if (current) throw redirect(homeFor(current.role));
};

/**
 * The signed-in user inside a guarded route.
 *
 * @throws a redirect to /login when there is none (the guard normally did that already).
 */
export function requireUser(context: { get: <T>(key: import("react-router").RouterContext<T>) => T }): SessionUser {
  const current = context.get(sessionUserContext);
  if (!current) throw redirect("/login");
  return current;
}

/**
 * The signed-in user and the database: what a role area's loaders and actions start from.
 *
 * @throws a redirect to /login when no one is signed in (see {@link requireUser}).
 */
export function actorAndDb(context: Readonly<RouterContextProvider>): { actor: SessionUser; db: Database } {
  return { actor: requireUser(context), db: context.get(servicesContext).db };
}

/** A list request as a loader reads it: who asks, the database, the query parameters and the parsed filters. */
export interface ListQuery<F> {
  actor: SessionUser;
  db: Database;
  params: URLSearchParams;
  filters: F;
}

/**
 * Reads a list request (a list page or its CSV export): the signed-in user, the database and the
 * list's filters parsed from the query string by `filtersFrom`.
 *
 * @throws a redirect to /login when no one is signed in (see {@link requireUser}).
 */
export function listQuery<F>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  filtersFrom: (params: URLSearchParams) => F,
): ListQuery<F> {
  const { actor, db } = actorAndDb(context);
  const params = new URL(request.url).searchParams;
  return { actor, db, params, filters: filtersFrom(params) };
}

/**
 * One page of a server-side list (docs/product.md#admin-lists) from the request's query string:
 * `filtersFrom` parses the list's filters, the keyset cursors give the page, and `list` reads it for
 * the signed-in user.
 *
 * @param options.size - rows per page (default: the lists' page size).
 * @returns the page and the parsed filters, with the actor, database and query parameters for
 *   anything else the loader reads.
 */
export async function loadListPage<F, P>(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  filtersFrom: (params: URLSearchParams) => F,
  list: (db: Database, actor: Actor, filters: F, page: PageRequest) => Promise<P>,
  options: { size?: number } = {},
): Promise<ListQuery<F> & { page: P }> {
  const query = listQuery(args, filtersFrom);
  return { ...query, page: await list(query.db, query.actor, query.filters, pageRequestFrom(query.params, options)) };
}

/** Where an admin without two-factor is sent when the setting requires it. */
export const TWO_FACTOR_SETUP_PATH = "/account/security?setup=two-factor#two-factor";

/**
 * "Require two-factor for admins" (docs/product.md#account-page): when the setting is on, an
 * admin without two-factor authentication is sent to set it up before any admin page.
 */
export const requireAdminTwoFactor: MiddlewareFunction<Response> = async ({ context }) => {
  const current = context.get(sessionUserContext);
  if (!current || current.role !== "admin" || current.twoFactorEnabled) return;
  const { db } = context.get(servicesContext);
  if ((await getSettings(db)).requireAdminTwoFactor) throw redirect(TWO_FACTOR_SETUP_PATH);
};
