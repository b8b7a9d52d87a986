/**
 * Billing people in one conversation (docs/product.md#organisations, ADR 022): a billing person
 * takes part in no conversation until an owner of the proposal's organisation adds them to it
 * (`conversation_member.added_at`); from then on thread access, message mails and live updates
 * include them (`conversationParticipant`). Owners and members always take part.
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { conversationMember, membership, proposal, user } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { hasOrganisationRole, inOrganisation, lockMembership, OWNER_ROLES } from "#app/features/organisations/access.server";
import type { Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { CONVERSATION_MESSAGES } from "./conversations.messages";

/** A billing person of the proposal's organisation, and whether they take part in its conversation. */
export interface ConversationBillingPerson {
  userId: string;
  /** Their name, else their e-mail address. */
  label: string;
  email: string;
  added: boolean;
}

/**
 * The billing people an owner may add to (or remove from) the conversation of `proposalId`.
 *
 * @returns the organisation's billing people, by name; empty for anyone but an owner of the
 *   proposal's organisation (what the page shows; {@link setBillingInConversation} checks again).
 */
export async function listConversationBilling(q: Queryable, actor: Actor, proposalId: number): Promise<ConversationBillingPerson[]> {
  if (!hasOrganisationRole(actor, OWNER_ROLES)) return [];
  return (await readConversationSettings(q, actor, proposalId)).billing;
}

/** What the reader of a conversation sets on it: their mute, and (owners) who of billing takes part. */
export interface ConversationSettings {
  /** The reader muted the conversation (docs/product.md#organisation-notifications). */
  muted: boolean;
  /** As {@link listConversationBilling}: empty for anyone but an owner of the proposal's organisation. */
  billing: ConversationBillingPerson[];
}

/**
 * The reader's mute of the conversation of `proposalId` and, for an owner of the proposal's
 * organisation, its billing people, in one statement (the proposal page's conversation settings).
 * The billing people are read only under the owner check in the statement (`inOrganisation`); the
 * mute is the reader's own row. The caller has checked that the reader takes part.
 */
export async function readConversationSettings(q: Queryable, actor: Actor, proposalId: number): Promise<ConversationSettings> {
  const [row] = await q
    .select({
      muted: sql<boolean>`exists (select 1 from ${conversationMember} m where m.proposal_id = ${proposalId} and m.user_id = ${actor.id} and m.muted_at is not null)`,
      billing: sql<
        [string, string, string, boolean][]
      >`coalesce(json_agg(json_build_array(${membership.userId}, ${user.name}, ${user.email},
        ${conversationMember.addedAt} is not null) order by ${user.name}, ${user.email}), '[]'::json)`,
    })
    .from(proposal)
    .innerJoin(membership, and(eq(membership.organisationId, proposal.organisationId), eq(membership.role, "billing")))
    .innerJoin(user, eq(user.id, membership.userId))
    .leftJoin(conversationMember, and(eq(conversationMember.proposalId, proposal.id), eq(conversationMember.userId, membership.userId)))
    .where(
      and(
        eq(proposal.id, proposalId),
        hasOrganisationRole(actor, OWNER_ROLES) ? inOrganisation(proposal.organisationId, actor, OWNER_ROLES) : sql`false`,
      ),
    );
  return {
    muted: row?.muted === true,
    billing: (row?.billing ?? []).map(([userId, name, email, added]) => ({ userId, label: name || email, email, added })),
  };
}

/**
 * Adds a billing person of the proposal's organisation to its conversation, or removes them.
 * Audited on the proposal ("conversation-member-added" / "conversation-member-removed"); a repeat
 * changes nothing and records nothing.
 *
 * @param userId - a billing member of the proposal's organisation.
 * @throws {AppError} 404 "Proposal not found" unless the actor is an owner of the proposal's
 *   organisation; 404 "Person not found" when `userId` is not a billing person of it.
 */
export async function setBillingInConversation(
  db: Database,
  actor: Actor,
  input: { proposalId: number; userId: string; added: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    const organisationId = await lockMembership(tx, actor, OWNER_ROLES, CONVERSATION_MESSAGES.notFound);
    const [target] = await tx
      .select({ proposalId: proposal.id, role: membership.role })
      .from(proposal)
      .leftJoin(membership, and(eq(membership.organisationId, proposal.organisationId), eq(membership.userId, input.userId)))
      .where(and(eq(proposal.id, input.proposalId), eq(proposal.organisationId, organisationId)))
      .for("update", { of: proposal });
    if (!target) throw notFound(CONVERSATION_MESSAGES.notFound);
    if (target.role !== "billing") throw notFound(CONVERSATION_MESSAGES.personNotFound);
    const changed = input.added
      ? await tx
          .insert(conversationMember)
          .values({ proposalId: input.proposalId, userId: input.userId, addedAt: sql`now()`, addedById: actor.id })
          .onConflictDoUpdate({
            target: [conversationMember.proposalId, conversationMember.userId],
            set: { addedAt: sql`now()`, addedById: actor.id },
            setWhere: sql`${conversationMember.addedAt} is null`,
          })
          .returning({ userId: conversationMember.userId })
      : await tx
          .update(conversationMember)
          .set({ addedAt: null, addedById: null })
          .where(
            and(
              eq(conversationMember.proposalId, input.proposalId),
              eq(conversationMember.userId, input.userId),
              isNotNull(conversationMember.addedAt),
            ),
          )
          .returning({ userId: conversationMember.userId });
    if (changed.length === 0) return;
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: input.proposalId,
      action: input.added ? "conversation-member-added" : "conversation-member-removed",
      after: { userId: input.userId },
    });
  });
}
