/**
 * Who in a client organisation may reach what (docs/product.md#organisations, ADR 022): the one
 * place that turns an actor's organisation and role into SQL. Every client use-case's statement
 * filters its records with {@link inOrganisation}, so membership is checked in the same statement
 * that reads or writes — a removed member's next request finds nothing, whatever the session says.
 *
 * | area (role set)  | owner | billing | member |
 * |------------------|-------|---------|--------|
 * | {@link PROJECT_ROLES}: proposals, offers, agreements, conversations, files, meetings | ✓ | — | ✓ |
 * | {@link MONEY_ROLES}: invoices, payments, receipts, saved payment details | ✓ | ✓ | — |
 * | {@link OWNER_ROLES}: accepting an offer, inviting, removing, changing roles, the organisation's details | ✓ | — | — |
 *
 * A billing person takes part in a conversation only once an owner added them to it
 * (`conversation_member.added_at`, see {@link conversationParticipant}).
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { OrganisationRole } from "#app/db/enums";
import type { Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import type { Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";

/** Proposals, offers, agreements, conversations, files and meetings. */
export const PROJECT_ROLES = ["owner", "member"] as const satisfies readonly OrganisationRole[];
/** Invoices, payments, receipts. */
export const MONEY_ROLES = ["owner", "billing"] as const satisfies readonly OrganisationRole[];
/** Signing offers and managing the organisation's people. */
export const OWNER_ROLES = ["owner"] as const satisfies readonly OrganisationRole[];
/** Anyone in the organisation. */
export const ANY_ROLE = ["owner", "billing", "member"] as const satisfies readonly OrganisationRole[];

/**
 * The actor's current organisation as SQL: the id the session resolved, or — for an actor built
 * without one (a test, a job) — the person's first organisation (`first_organisation_of`, migration
 * 0029; the session's default too). Null for a client in no organisation.
 */
export function currentOrganisation(actor: Actor): SQL {
  if (actor.organisationId !== undefined) return sql`${actor.organisationId ?? null}::integer`;
  return sql`first_organisation_of(${actor.id})`;
}

/**
 * The filter every client read and write uses: `column` is the actor's current organisation AND the
 * actor is a member of it with one of `roles` — both checked in the statement (an index on
 * `column` drives it; the membership is one primary-key lookup).
 *
 * @param column - the record's `organisation_id` (or an expression giving it).
 * @returns SQL that is false for anyone but a client member with one of `roles`.
 */
export function inOrganisation(column: AnyPgColumn | SQL, actor: Actor, roles: readonly OrganisationRole[]): SQL {
  if (actor.role !== "client" || actor.organisationId === null) return sql`false`;
  if (actor.organisationRole && !roles.includes(actor.organisationRole)) return sql`false`;
  // The subquery names no outer column: drizzle writes a selected column unqualified, which inside
  // it would resolve to membership's own column of the same name.
  const organisation = currentOrganisation(actor);
  return sql`(${column} = ${organisation} and ${organisation} in (select om.organisation_id from membership om where om.user_id = ${actor.id} and om.role in (${roleList(roles)})))`;
}

const roleList = (roles: readonly OrganisationRole[]) =>
  sql.join(
    roles.map((r) => sql`${r}`),
    sql`, `,
  );

/**
 * Whether the actor may take part in proposal `proposalColumn`'s conversation: an owner or member
 * of its organisation, or a billing person an owner added to that conversation.
 */
export function conversationParticipant(proposalColumn: AnyPgColumn | SQL, organisationColumn: AnyPgColumn | SQL, actor: Actor): SQL {
  if (actor.role !== "client" || actor.organisationId === null) return sql`false`;
  const organisation = currentOrganisation(actor);
  return sql`(${organisationColumn} = ${organisation} and exists (select 1 from membership om where om.organisation_id = ${organisation} and om.user_id = ${actor.id} and (om.role in ('owner', 'member') or (om.role = 'billing' and exists (select 1 from conversation_member ocm where ocm.proposal_id = ${proposalColumn} and ocm.user_id = ${actor.id} and ocm.added_at is not null)))))`;
}

/**
 * The page-level check a use-case makes before its statement (the statement checks again): the
 * actor is a client whose current role is one of `roles`.
 *
 * @param message - the 404's message ("Invoice not found", …): a member never learns that a record
 *   they may not see exists.
 * @returns the organisation's id (null only for an actor built without one: its statement resolves it).
 * @throws {AppError} 404 with `message` for anyone else.
 */
export function requireOrganisationRole(actor: Actor, roles: readonly OrganisationRole[], message: string): number | null {
  if (actor.role !== "client" || actor.organisationId === null) throw notFound(message);
  if (actor.organisationRole && !roles.includes(actor.organisationRole)) throw notFound(message);
  return actor.organisationId ?? null;
}

/** Whether the actor's current role is one of `roles` (what a page shows; the statements decide). */
export function hasOrganisationRole(actor: Actor, roles: readonly OrganisationRole[]): boolean {
  if (actor.role !== "client" || actor.organisationId === null) return false;
  return actor.organisationRole === undefined || actor.organisationRole === null ? true : roles.includes(actor.organisationRole);
}

/**
 * The membership a session works in, as one SQL expression per session row: `organisation_id:role`
 * of the session's chosen organisation when the person is still a member there, else of their
 * oldest membership; null when they belong to none. The session middleware and the live hub read
 * it (so a stream whose membership changed is ended). Pass qualified SQL (`sql\`"session"."user_id"\``),
 * never a drizzle column: in a selection drizzle writes it unqualified, and inside the subquery it
 * would name membership's own `user_id`.
 */
export function sessionMembershipSql(userId: SQL, activeOrganisation: SQL): SQL<string | null> {
  return sql<
    string | null
  >`(select om.organisation_id || ':' || om.role from membership om where om.user_id = ${userId} order by (om.organisation_id = ${activeOrganisation}) desc nulls last, om.created_at, om.organisation_id limit 1)`;
}

/** Parses {@link sessionMembershipSql}'s value. */
export function parseMembership(value: string | null | undefined): { organisationId: number; organisationRole: OrganisationRole } | null {
  const match = value ? /^(\d+):(owner|billing|member)$/.exec(value) : null;
  return match ? { organisationId: Number(match[1]), organisationRole: match[2] as OrganisationRole } : null;
}

/**
 * Checks in the database that the actor is a member of their current organisation with one of
 * `roles`, locking the membership row (`FOR SHARE`) so that a removal waits for the write that
 * follows — what a use-case that creates a record of the organisation calls first.
 *
 * @returns the organisation's id.
 * @throws {AppError} 404 with `message` otherwise.
 */
export async function lockMembership(q: Queryable, actor: Actor, roles: readonly OrganisationRole[], message: string): Promise<number> {
  requireOrganisationRole(actor, roles, message);
  const rows = rowsOf<{ organisation_id: number }>(
    await q.execute(
      sql`select organisation_id from membership where organisation_id = ${currentOrganisation(actor)} and user_id = ${actor.id} and role in (${roleList(roles)}) for share`,
    ),
  );
  if (!rows[0]) throw notFound(message);
  return Number(rows[0].organisation_id);
}
