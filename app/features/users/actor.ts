/**
 * The acting user, as every use-case receives it (docs/product.md#roles). Use-cases check the
 * actor's rights themselves; a route guard is only the first line.
 */
import type { OrganisationRole, Role } from "#app/db/enums";
import { forbidden } from "#app/lib/errors";

export interface Actor {
  id: string;
  role: Role;
  email: string;
  /**
   * Whether the e-mail address is verified (docs/product.md#email-verification), when the caller
   * read it this request (the session's user row); absent, the use-case reads it itself.
   */
  emailVerified?: boolean;
  /**
   * For a client: the organisation this request works in (docs/product.md#organisations) — the
   * session's chosen one when the person is still a member there, else their first. Null: a client
   * who belongs to no organisation (removed from their last one) — they see nothing. Absent (tests,
   * jobs): the person's first organisation, resolved in SQL. Never trusted alone: every use-case's
   * statement checks the membership again (`inOrganisation`, app/features/organisations/access.server.ts).
   */
  organisationId?: number | null;
  /** The actor's role in {@link organisationId} (what the pages show; the statements check it again). */
  organisationRole?: OrganisationRole | null;
}

/** The signed-in user as the UI needs it (header, info card). */
export interface SessionUser extends Actor {
  name: string;
  businessName: string | null;
  phone: string | null;
  website: string | null;
  referralCode: string | null;
  referredById: string | null;
  /** Two-factor authentication is on (docs/product.md#account-page). */
  twoFactorEnabled?: boolean;
  /** The address was proven by the verification link (docs/product.md#email-verification). */
  emailVerified: boolean;
  /** For a client: the current organisation's name (the header's switcher). */
  organisationName?: string | null;
  /** The session's id (the organisation switcher writes the session's choice). */
  sessionId?: string;
}

/** A user with no role is a client (docs/product.md#roles). */
export function roleOf(value: string | null | undefined): Role {
  return value === "admin" || value === "ambassador" ? value : "client";
}

/** Where each role lands after sign-in, and where a wrong-role visit is sent (docs/product.md#access-guard). */
export function homeFor(role: Role): string {
  return role === "admin" ? "/admin" : role === "ambassador" ? "/ambassador/dashboard" : "/client-dashboard";
}

/**
 * @throws {AppError} 403 unless the actor has one of `roles`.
 */
export function assertRole(actor: Actor | null | undefined, ...roles: Role[]): asserts actor is Actor {
  if (!actor || !roles.includes(actor.role)) throw forbidden();
}
