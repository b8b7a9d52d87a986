/**
 * Who in a client organisation gets a mail (docs/product.md#organisation-notifications): invoice
 * and payment mails go to its owners and billing people, project and thread mails to its owners and
 * members — each person with their own link and, for a conversation, their own mute.
 */
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { membership, user, type OrganisationRole } from "#app/db/schema";

/**
 * @param organisationId - the record's organisation (null: none — only `fallbackUserId`).
 * @param fallbackUserId - the record's own client, used when the organisation has no such person
 *   (a record from before organisations, or an organisation whose people all left).
 * @returns the user ids of the organisation's active people with one of `roles`, oldest member first.
 */
export async function organisationPeople(
  q: Queryable,
  organisationId: number | null | undefined,
  roles: readonly OrganisationRole[],
  fallbackUserId?: string | null,
): Promise<string[]> {
  const people =
    organisationId == null
      ? []
      : (
          await q
            .select({ id: membership.userId })
            .from(membership)
            .innerJoin(user, eq(user.id, membership.userId))
            .where(
              and(
                eq(membership.organisationId, organisationId),
                inArray(membership.role, [...roles]),
                isNull(user.closedAt),
                or(isNull(user.banned), eq(user.banned, false)),
              ),
            )
            .orderBy(asc(membership.createdAt), asc(membership.userId))
        ).map((r) => r.id);
  if (people.length === 0 && fallbackUserId) return [fallbackUserId];
  return people;
}

/** SQL: the user ids of an organisation's people with one of `roles` (for live-event audiences). */
export function organisationPeopleSql(organisationId: unknown, roles: readonly OrganisationRole[]) {
  return sql`(select m.user_id from membership m where m.organisation_id = ${organisationId} and m.role in (${sql.join(
    roles.map((r) => sql`${r}`),
    sql`, `,
  )}))`;
}
