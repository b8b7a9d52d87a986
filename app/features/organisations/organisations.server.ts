/**
 * Client organisations and their people (docs/product.md#organisations, ADR 022): the session's
 * current organisation and the header's switcher, the organisation's details, its members and
 * their roles, and invitations by e-mail.
 *
 * Rules enforced here, each in the statement that writes:
 * - only an owner changes the organisation, invites, revokes, changes roles and removes people
 *   (an admin may do all of it on the client's behalf, docs/product.md#admin-organisations);
 * - an organisation always keeps one owner: the last owner cannot be removed, demoted, nor leave
 *   (the owners are locked `FOR UPDATE` while counted, so two owners demoting each other at once
 *   cannot both succeed);
 * - an invitation is one-use, expires after {@link INVITATION_TTL_MS} (7 days), can be revoked, and
 *   is accepted only by a person holding a verified address equal to the invited one;
 * - every change is in the audit trail with the person who acted.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invitation, membership, organisation, session, user, type OrganisationRole } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueNotification } from "#app/features/mail/notifications.server";
import { publishLive } from "#app/features/live/live-events.server";
import { rowsOf } from "#app/db/rows";
import { memoPrime, memoRead } from "#app/db/request-memo.server";
import type { Actor } from "#app/features/users/actor";
import { AppError, conflict, fieldError, notFound, rateLimited } from "#app/lib/errors";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { parseMembership, sessionMembershipSql } from "./access.server";
import { ORGANISATION_MESSAGES as M } from "./organisations.messages";

/** An invitation is valid for 7 days (docs/product.md#invitations). */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Invitations one organisation may send per hour. */
export const INVITATION_LIMIT = { limit: 20, windowMs: 60 * 60_000 };

/** The SHA-256 (hex) kept for an invitation token: the token itself is only in the mail. */
export const invitationTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** A session's organisation and the person's organisations, as {@link sessionOrganisationSql} brings them. */
export interface SessionOrganisationFacts {
  /** `[membership, organisation name]` of the session's current organisation (see sessionMembershipSql), or null. */
  current: [string | null, string | null] | null;
  /** The person's organisations, oldest membership first. */
  organisations: MyOrganisation[] | null;
}

/**
 * SQL: the organisation a session works in and the person's organisations (the header's switcher),
 * as one JSON value ({@link SessionOrganisationFacts}) — for a statement over the `session` row,
 * read with {@link readSessionOrganisationFacts}.
 *
 * @param userId - the session's `user_id` column.
 * @param activeOrganisationId - the session's `active_organisation_id` column.
 */
export function sessionOrganisationSql(userId: SQL, activeOrganisationId: SQL): SQL<SessionOrganisationFacts> {
  return sql<SessionOrganisationFacts>`json_build_object(
    'current', (select json_build_array(x.membership, o.name) from (select ${sessionMembershipSql(userId, activeOrganisationId)} as membership) x
      left join organisation o on o.id = split_part(x.membership, ':', 1)::integer),
    'organisations', ${myOrganisationsSql(userId)})`;
}

/**
 * Reads {@link sessionOrganisationSql}'s value; on a request view of the database the person's
 * organisations are kept for {@link listMyOrganisations}, which then sends nothing (issue #42).
 *
 * @returns the session's current organisation, or null when the person belongs to none.
 */
export function readSessionOrganisationFacts(
  q: Queryable,
  userId: string,
  facts: SessionOrganisationFacts | null,
): { organisationId: number; organisationRole: OrganisationRole; name: string } | null {
  memoPrime(q, myOrganisationsKey(userId), (facts?.organisations ?? []).map(toMyOrganisation));
  const [membership, name] = facts?.current ?? [null, null];
  const parsed = parseMembership(membership);
  return parsed && name != null ? { ...parsed, name } : null;
}

/**
 * The organisation a session works in, for the session middleware (one statement). The same
 * statement brings the person's organisations for the header's switcher: on a request view of the
 * database, {@link listMyOrganisations} for that person then sends nothing (issue #42).
 */
export async function sessionOrganisation(
  q: Queryable,
  sessionId: string,
): Promise<{ organisationId: number; organisationRole: OrganisationRole; name: string } | null> {
  type Row = { user_id: string; facts: SessionOrganisationFacts | null };
  const rows = await q.execute<Row>(
    sql`select s.user_id, ${sessionOrganisationSql(sql`s.user_id`, sql`s.active_organisation_id`)} as facts from session s where s.id = ${sessionId}`,
  );
  const [row] = rowsOf<Row>(rows);
  return row ? readSessionOrganisationFacts(q, row.user_id, row.facts) : null;
}

/** One organisation of the person, for the header's switcher. */
export interface MyOrganisation {
  id: number;
  name: string;
  role: OrganisationRole;
}

/** The request memo's key of one person's organisations (app/db/request-memo.server.ts). */
const myOrganisationsKey = (userId: string) => `organisations:${userId}`;

/** SQL: the person's organisations as a JSON array of {id, name, role}, oldest membership first. */
function myOrganisationsSql(userId: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_object('id', mo.id, 'name', mo.name, 'role', mm.role) order by mm.created_at, mm.organisation_id), '[]')
    from membership mm join organisation mo on mo.id = mm.organisation_id where mm.user_id = ${userId})`;
}

const toMyOrganisation = (o: MyOrganisation): MyOrganisation => ({ id: Number(o.id), name: o.name, role: o.role });

/**
 * @returns the organisations the person belongs to, oldest membership first (read once per request:
 *   the session's statement brings them, see {@link sessionOrganisation}).
 */
export async function listMyOrganisations(q: Queryable, actor: Actor): Promise<MyOrganisation[]> {
  if (actor.role !== "client") return [];
  return memoRead(q, myOrganisationsKey(actor.id), async () => {
    const rows = await q.execute<{ organisations: MyOrganisation[] | null }>(
      sql`select ${myOrganisationsSql(sql`${actor.id}`)} as organisations`,
    );
    return (rowsOf<{ organisations: MyOrganisation[] | null }>(rows)[0]?.organisations ?? []).map(toMyOrganisation);
  });
}

/**
 * Switches the session to another of the person's organisations (the header's switcher; the
 * organisation's id travels in the form, never in a URL).
 *
 * @throws {AppError} 404 unless the person is a member of `organisationId`.
 */
export async function switchOrganisation(db: Database, actor: Actor, sessionId: string, organisationId: number): Promise<void> {
  const rows = await db
    .update(session)
    .set({ activeOrganisationId: organisationId })
    .where(
      and(
        eq(session.id, sessionId),
        eq(session.userId, actor.id),
        sql`exists (select 1 from membership m where m.organisation_id = ${organisationId} and m.user_id = ${actor.id})`,
      ),
    )
    .returning({ id: session.id });
  if (!rows.length) throw notFound(M.notFound);
}

/**
 * Creates an organisation with `ownerId` as its owner (registration, docs/product.md#registration).
 *
 * @returns the organisation's id.
 */
export async function createOrganisation(
  q: Queryable,
  input: { name: string; website?: string | null; referredById?: string | null; ownerId: string },
): Promise<number> {
  const [row] = await q
    .insert(organisation)
    .values({ name: input.name, website: input.website || null, referredById: input.referredById ?? null })
    .returning({ id: organisation.id });
  await q.insert(membership).values({ organisationId: row!.id, userId: input.ownerId, role: "owner" });
  return row!.id;
}

/** The organisation an actor manages: a client's current one, or any for an admin. */
function managedOrganisation(actor: Actor, organisationId?: number): number {
  if (actor.role === "admin" && organisationId !== undefined) return organisationId;
  if (actor.role !== "client" || !actor.organisationId) throw notFound(M.notFound);
  return actor.organisationId;
}

/**
 * SQL: the actor may manage organisation `id` — an admin, or an owner of it (checked in the
 * statement, not from the session alone).
 */
function mayManage(actor: Actor, id: number) {
  if (actor.role === "admin") return sql`true`;
  return sql`exists (select 1 from membership m where m.organisation_id = ${id} and m.user_id = ${actor.id} and m.role = 'owner')`;
}

/** @throws {AppError} 403 "Only an owner…" unless the actor may manage organisation `id`. */
async function assertManager(q: Queryable, actor: Actor, id: number): Promise<void> {
  const [row] = await q
    .select({ ok: sql<boolean>`${mayManage(actor, id)}` })
    .from(organisation)
    .where(eq(organisation.id, id));
  if (!row) throw notFound(M.notFound);
  if (!row.ok) throw new AppError("FORBIDDEN", M.ownersOnly);
}

/** The organisation page: its details, its people and (for owners and admins) its open invitations. */
export interface OrganisationPage {
  id: number;
  name: string;
  address: string | null;
  taxId: string | null;
  website: string | null;
  members: Array<{ userId: string; name: string; email: string; role: OrganisationRole; createdAt: Date; invitedBy: string | null }>;
  invitations: Array<{ id: number; email: string; role: OrganisationRole; expiresAt: Date; createdAt: Date }>;
  /** The actor may manage the organisation (an owner, or an admin). */
  canManage: boolean;
}

/**
 * @param organisationId - for an admin: the organisation to show; a client always sees their current one.
 * @throws {AppError} 404 for a client in no organisation, or an unknown organisation.
 */
export async function getOrganisationPage(q: Queryable, actor: Actor, organisationId?: number): Promise<OrganisationPage> {
  const id = managedOrganisation(actor, organisationId);
  const [org] = await q
    .select({
      id: organisation.id,
      name: organisation.name,
      address: organisation.address,
      taxId: organisation.taxId,
      website: organisation.website,
      canManage: sql<boolean>`${mayManage(actor, id)}`,
      isMember: sql<boolean>`exists (select 1 from membership m where m.organisation_id = ${id} and m.user_id = ${actor.id})`,
    })
    .from(organisation)
    .where(eq(organisation.id, id));
  if (!org || (actor.role !== "admin" && !org.isMember)) throw notFound(M.notFound);
  // Qualified: a selected drizzle column is written unqualified, which inside the subquery could name its own.
  const inviter = sql<
    string | null
  >`(select coalesce(nullif(i.name, ''), i.email) from "user" i where i.id = "membership"."invited_by_id")`;
  const members = await q
    .select({
      userId: membership.userId,
      name: user.name,
      email: user.email,
      role: membership.role,
      createdAt: membership.createdAt,
      invitedBy: inviter,
    })
    .from(membership)
    .innerJoin(user, eq(user.id, membership.userId))
    .where(eq(membership.organisationId, id))
    .orderBy(asc(membership.createdAt), asc(user.email));
  const invitations = org.canManage
    ? await q
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          expiresAt: invitation.expiresAt,
          createdAt: invitation.createdAt,
        })
        .from(invitation)
        .where(
          and(
            eq(invitation.organisationId, id),
            isNull(invitation.acceptedAt),
            isNull(invitation.revokedAt),
            gt(invitation.expiresAt, sql`now()`),
          ),
        )
        .orderBy(asc(invitation.createdAt), asc(invitation.id))
    : [];
  const { isMember: _isMember, ...details } = org;
  return { ...details, members, invitations };
}

/**
 * Saves the organisation's details (name = the spec's "business name", address, tax id, website).
 *
 * @throws {AppError} 403 unless an owner (or an admin); 404 unknown organisation.
 */
export async function updateOrganisation(
  db: Database,
  actor: Actor,
  input: { name: string; address?: string | null; taxId?: string | null; website?: string | null },
  organisationId?: number,
): Promise<void> {
  const id = managedOrganisation(actor, organisationId);
  await db.transaction(async (tx) => {
    await assertManager(tx, actor, id);
    const [before] = await tx.select().from(organisation).where(eq(organisation.id, id)).for("update");
    const after = { name: input.name, address: input.address || null, taxId: input.taxId || null, website: input.website || null };
    await tx
      .update(organisation)
      .set({ ...after, updatedAt: sql`now()` })
      .where(eq(organisation.id, id));
    await recordAudit(tx, actor, {
      entity: "organisation",
      entityId: id,
      action: "updated",
      before: { name: before!.name, address: before!.address, taxId: before!.taxId, website: before!.website },
      after,
    });
  });
}

/**
 * Invites `email` to the organisation with `role` (docs/product.md#invitations): stores the
 * token's hash, and queues the mail with the link `/invitations/<token>` (valid 7 days).
 *
 * @throws {AppError} 403 unless an owner (or an admin on the client's behalf); 409 on `email` when
 *   the address is already a member or has an open invitation; 429 after 20 invitations an hour.
 * @returns the invitation's id and its token (only ever in the mail; returned for tests).
 */
export async function inviteMember(
  db: Database,
  actor: Actor,
  input: { email: string; role: OrganisationRole },
  organisationId?: number,
  now: Date = new Date(),
): Promise<{ id: number; token: string }> {
  const id = managedOrganisation(actor, organisationId);
  const email = input.email.trim().toLowerCase();
  const token = randomBytes(32).toString("base64url");
  return db.transaction(async (tx) => {
    await assertManager(tx, actor, id);
    const limit = await hitRateLimit(tx, `invitations:${id}`, INVITATION_LIMIT);
    if (!limit.allowed) throw rateLimited(M.tooManyInvitations, limit.retryAfterSeconds);
    const [member] = await tx
      .select({ id: user.id })
      .from(membership)
      .innerJoin(user, eq(user.id, membership.userId))
      .where(and(eq(membership.organisationId, id), eq(user.email, email)));
    if (member) throw fieldError("email", M.alreadyMember, "CONFLICT");
    // An expired open invitation is closed so the address can be invited again.
    await tx
      .update(invitation)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invitation.organisationId, id),
          eq(invitation.email, email),
          isNull(invitation.acceptedAt),
          isNull(invitation.revokedAt),
          sql`${invitation.expiresAt} <= ${now}`,
        ),
      );
    const [row] = await tx
      .insert(invitation)
      .values({
        organisationId: id,
        email,
        role: input.role,
        tokenHash: invitationTokenHash(token),
        invitedById: actor.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ id: invitation.id });
    if (!row) throw fieldError("email", M.alreadyInvited, "CONFLICT");
    const [org] = await tx.select({ name: organisation.name }).from(organisation).where(eq(organisation.id, id));
    const [inviter] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, actor.id));
    const who = actor.role === "admin" ? "We" : inviter?.name || inviter?.email || "An owner";
    await queueNotification(tx, {
      to: email,
      subject: `You are invited to ${org!.name}`,
      lines: [
        `${who} invited you to join ${org!.name} in our client portal as ${ROLE_LABELS[input.role]}.`,
        `The invitation is valid for 7 days. If you did not expect it, ignore this mail.`,
      ],
      link: { label: "Accept the invitation", path: `/invitations/${token}` },
    });
    await recordAudit(tx, actor, { entity: "organisation", entityId: id, action: "member-invited", after: { email, role: input.role } });
    return { id: row.id, token };
  });
}

/** How each role is named to people (docs/product.md#organisations). */
export const ROLE_LABELS: Record<OrganisationRole, string> = {
  owner: "an owner",
  billing: "billing",
  member: "a member",
};

/**
 * Revokes an open invitation.
 *
 * @throws {AppError} 403 unless an owner (or an admin); 404 when it is not an open invitation of the organisation.
 */
export async function revokeInvitation(db: Database, actor: Actor, invitationId: number, organisationId?: number): Promise<void> {
  const id = managedOrganisation(actor, organisationId);
  await db.transaction(async (tx) => {
    await assertManager(tx, actor, id);
    const [row] = await tx
      .update(invitation)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(invitation.id, invitationId),
          eq(invitation.organisationId, id),
          isNull(invitation.acceptedAt),
          isNull(invitation.revokedAt),
        ),
      )
      .returning({ email: invitation.email, role: invitation.role });
    if (!row) throw notFound(M.invitationNotFound);
    await recordAudit(tx, actor, { entity: "organisation", entityId: id, action: "invitation-revoked", before: row });
  });
}

/** What the invitation page shows before it is accepted. */
export interface InvitationView {
  organisationName: string;
  email: string;
  role: OrganisationRole;
  expiresAt: Date;
  /** An account with the invited address exists (the page asks to sign in). */
  accountExists: boolean;
}

/** The open invitation for `token`, locked when `lock`. */
function openInvitation(q: Queryable, token: string, now: Date) {
  return q
    .select({
      id: invitation.id,
      organisationId: invitation.organisationId,
      organisationName: organisation.name,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      invitedById: invitation.invitedById,
    })
    .from(invitation)
    .innerJoin(organisation, eq(organisation.id, invitation.organisationId))
    .where(
      and(
        eq(invitation.tokenHash, invitationTokenHash(token)),
        isNull(invitation.acceptedAt),
        isNull(invitation.revokedAt),
        gt(invitation.expiresAt, now),
      ),
    );
}

/**
 * @throws {AppError} 404 for an unknown, expired, revoked or used token.
 */
export async function readInvitation(q: Queryable, token: string, now: Date = new Date()): Promise<InvitationView> {
  const [row] = await openInvitation(q, token, now);
  if (!row) throw notFound(M.invitationNotFound);
  const [existing] = await q.select({ id: user.id }).from(user).where(eq(user.email, row.email));
  return {
    organisationName: row.organisationName,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt,
    accountExists: Boolean(existing),
  };
}

/**
 * Accepts an invitation as the signed-in person `userId` (their address must be the invited one and
 * verified): they become a member with the invited role, and the session switches to it.
 *
 * @param sessionId - the session to switch to the organisation (optional).
 * @throws {AppError} 404 unknown/expired/revoked/used token; 403 another address, or not verified.
 * @returns the organisation's id.
 */
export async function acceptInvitation(
  db: Database,
  userId: string,
  token: string,
  sessionId?: string,
  now: Date = new Date(),
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await openInvitation(tx, token, now).for("update", { of: invitation });
    if (!row) throw notFound(M.invitationNotFound);
    const [person] = await tx
      .select({ email: user.email, verified: user.emailVerified, role: user.role, closedAt: user.closedAt })
      .from(user)
      .where(eq(user.id, userId));
    if (!person || person.closedAt || (person.role !== null && person.role !== "client"))
      throw new AppError("FORBIDDEN", M.invitationOtherEmail);
    if (person.email.toLowerCase() !== row.email) throw new AppError("FORBIDDEN", M.invitationOtherEmail);
    if (!person.verified) throw new AppError("FORBIDDEN", M.invitationUnverified);
    await tx.update(invitation).set({ acceptedAt: now, acceptedById: userId }).where(eq(invitation.id, row.id));
    await tx
      .insert(membership)
      .values({ organisationId: row.organisationId, userId, role: row.role, invitedById: row.invitedById })
      .onConflictDoNothing();
    if (sessionId)
      await tx
        .update(session)
        .set({ activeOrganisationId: row.organisationId })
        .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
    await recordAudit(
      tx,
      { id: userId, role: "client", email: person.email },
      {
        entity: "organisation",
        entityId: row.organisationId,
        action: "invitation-accepted",
        after: { email: row.email, role: row.role },
      },
    );
    return row.organisationId;
  });
}

/** Locks the organisation's owners and @returns how many there are. */
async function lockedOwnerCount(tx: Queryable, organisationId: number): Promise<number> {
  const owners = await tx
    .select({ userId: membership.userId })
    .from(membership)
    .where(and(eq(membership.organisationId, organisationId), eq(membership.role, "owner")))
    .for("update");
  return owners.length;
}

/**
 * Changes a member's role. The last owner cannot be demoted.
 *
 * @throws {AppError} 403 unless an owner (or an admin); 404 not a member; 409 the last owner.
 */
export async function changeMemberRole(
  db: Database,
  actor: Actor,
  userId: string,
  role: OrganisationRole,
  organisationId?: number,
): Promise<void> {
  const id = managedOrganisation(actor, organisationId);
  await db.transaction(async (tx) => {
    await assertManager(tx, actor, id);
    const owners = await lockedOwnerCount(tx, id);
    const [current] = await tx
      .select({ role: membership.role })
      .from(membership)
      .where(and(eq(membership.organisationId, id), eq(membership.userId, userId)))
      .for("update");
    if (!current) throw notFound(M.memberNotFound);
    if (current.role === role) return;
    if (current.role === "owner" && owners <= 1) throw conflict(M.lastOwner);
    await tx
      .update(membership)
      .set({ role })
      .where(and(eq(membership.organisationId, id), eq(membership.userId, userId)));
    await recordAudit(tx, actor, {
      entity: "organisation",
      entityId: id,
      action: "member-role-changed",
      before: { userId, role: current.role },
      after: { userId, role },
    });
  });
}

/**
 * Removes a member (or, with `userId` = the actor, leaves): their access ends at once — their next
 * request no longer finds the membership, and the live hub ends their open streams within its
 * session check (docs/product.md#live-updates). The last owner cannot be removed nor leave.
 *
 * @throws {AppError} 403 unless an owner, an admin, or the person themselves; 404 not a member; 409 the last owner.
 */
export async function removeMember(db: Database, actor: Actor, userId: string, organisationId?: number): Promise<void> {
  const id = managedOrganisation(actor, organisationId);
  await db.transaction(async (tx) => {
    if (userId !== actor.id) await assertManager(tx, actor, id);
    const owners = await lockedOwnerCount(tx, id);
    const [current] = await tx
      .select({ role: membership.role, email: user.email })
      .from(membership)
      .innerJoin(user, eq(user.id, membership.userId))
      .where(and(eq(membership.organisationId, id), eq(membership.userId, userId)))
      .for("update", { of: membership });
    if (!current) throw notFound(M.memberNotFound);
    if (current.role === "owner" && owners <= 1) throw conflict(M.lastOwner);
    await tx.delete(membership).where(and(eq(membership.organisationId, id), eq(membership.userId, userId)));
    await recordAudit(tx, actor, {
      entity: "organisation",
      entityId: id,
      action: userId === actor.id ? "member-left" : "member-removed",
      before: { userId, email: current.email, role: current.role },
    });
    // Their open pages reload at once (the hub also ends their streams at its next session check).
    await publishLive(tx, { kind: "organisation.member-removed", entityId: String(id), admins: false, userIds: [userId], data: {} });
  });
}

/**
 * The organisations in which `userId` is the only owner while others remain (closing their account
 * must wait until they made someone else an owner, docs/product.md#closing-an-account).
 */
export async function organisationsNeedingOwner(q: Queryable, userId: string): Promise<Array<{ id: number; name: string }>> {
  return q
    .select({ id: organisation.id, name: organisation.name })
    .from(membership)
    .innerJoin(organisation, eq(organisation.id, membership.organisationId))
    .where(
      and(
        eq(membership.userId, userId),
        eq(membership.role, "owner"),
        sql`not exists (select 1 from membership o where o.organisation_id = ${membership.organisationId} and o.role = 'owner' and o.user_id <> ${userId})`,
        sql`exists (select 1 from membership o where o.organisation_id = ${membership.organisationId} and o.user_id <> ${userId})`,
      ),
    );
}

/** Admin: one page of organisations with their member counts (docs/product.md#admin-organisations). */
export async function listOrganisationsForAdmin(
  q: Queryable,
  actor: Actor,
  options: { search?: string; limit?: number; offset?: number } = {},
): Promise<{ rows: Array<{ id: number; name: string; members: number; createdAt: Date }>; total: number }> {
  if (actor.role !== "admin") throw notFound(M.notFound);
  const search = options.search?.trim();
  const where = search ? sql`${organisation.name} ilike ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined;
  const rows = await q
    .select({
      id: organisation.id,
      name: organisation.name,
      createdAt: organisation.createdAt,
      members: sql<number>`(select count(*)::int from membership m where m.organisation_id = "organisation"."id")`,
    })
    .from(organisation)
    .where(where)
    .orderBy(sql`${organisation.createdAt} desc`, sql`${organisation.id} desc`)
    .limit(options.limit ?? 25)
    .offset(options.offset ?? 0);
  const [total] = await q.select({ n: count() }).from(organisation).where(where);
  return { rows, total: total?.n ?? 0 };
}
