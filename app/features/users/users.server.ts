/**
 * Admin user management use-cases (docs/product.md#admin-users "User active flag"
 * user search, docs/product.md#admin-lists; issues #3 and #5): the searchable list of non-admin users,
 * deactivation/reactivation and deletion. Each function checks that the actor is an admin
 * before reading or writing anything.
 */
import { and, count, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { readTally, tallyCount, type TallyBucket } from "#app/db/tally.server";
import { invoice, meeting, proposal, session, user, verification, type Role } from "#app/db/schema";
import { toIsoOrNull } from "#app/lib/dates";
import { conflict, notFound } from "#app/lib/errors";
import { recordAudit } from "#app/features/audit/audit.server";
import { keysetBatches, mapRows } from "#app/lib/csv.server";
import {
  containsPattern,
  cursorKeySql,
  keysetPage,
  normalizeSearch,
  SEARCH_COUNT_CAP,
  type KeysetQuery,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";
import { assertRole, roleOf, type Actor } from "./actor";

/** A user who is not an admin (a user with no role is a client, docs/product.md#roles). */
const notAdmin = sql`${user.role} is distinct from 'admin'`;

/** The tally's `role:active|inactive` user buckets without the admins, as {@link notAdmin} filters rows. */
async function nonAdminUserBuckets(db: Queryable): Promise<TallyBucket[]> {
  return (await readTally(db, "user")).filter((b) => !b.bucket.startsWith("admin:"));
}

/**
 * Deactivates (`active = false`) or reactivates a non-admin user. Deactivation ends all of
 * their sessions in the same transaction, so they are signed out at their next request.
 * When the flag changes, one audit event (`deactivated` / `reactivated`, active
 * before/after) is recorded in the same transaction; setting the flag it already
 * has records nothing.
 *
 * @returns whether the flag changed, and the user's e-mail address (for the admin's confirmation message).
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown id or an admin.
 */
export async function setUserActive(
  db: Database,
  actor: Actor,
  userId: string,
  active: boolean,
): Promise<{ changed: boolean; email: string }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ banned: user.banned, closedAt: user.closedAt, email: user.email })
      .from(user)
      .where(and(eq(user.id, userId), notAdmin))
      .for("update");
    if (!current) throw notFound("User not found");
    if (current.closedAt && active) throw conflict(USER_MESSAGES.closed);
    const wasActive = !current.banned;
    if (!active) await tx.delete(session).where(eq(session.userId, userId));
    if (wasActive === active) return { changed: false, email: current.email };
    await tx
      .update(user)
      .set({ banned: !active, banReason: active ? null : "Deactivated by an admin", updatedAt: sql`now()` })
      .where(eq(user.id, userId));
    await recordAudit(tx, actor, {
      entity: "user",
      entityId: userId,
      action: active ? "reactivated" : "deactivated",
      before: { active: wasActive },
      after: { active },
    });
    return { changed: true, email: current.email };
  });
}

/** Refusals of the admin's user actions. */
export const USER_MESSAGES = {
  closed: "This account was closed by its holder: it cannot be reactivated. They can register again with their address.",
  closedKept: "This account was closed by its holder: what is left is what the law requires us to keep, and it cannot be deleted.",
} as const;

/** Role filter of the admin user list. */
export type UserRoleFilter = Exclude<Role, "admin">;

/** One row of the admin user list. Instants are ISO strings (UTC). */
export interface AdminUserRow {
  id: string;
  name: string;
  businessName: string | null;
  email: string;
  role: UserRoleFilter;
  active: boolean;
  /** When the person closed the account (docs/product.md#closing-an-account), ISO; null while open. */
  closedAt: string | null;
  createdAt: string | null;
  lastLoginAt: string | null;
}

const ordering = { sort: user.createdAt, id: user.id };

/**
 * Lists non-admin users, newest first (docs/product.md#admin-users: admins are excluded).
 *
 * @param filters.q - case-insensitive substring of the e-mail or business name (or the
 *   person's name, which is what an ambassador has instead of a business name).
 * @param filters.role - only clients or only ambassadors.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listUsersForAdmin(
  db: Queryable,
  actor: Actor,
  filters: UserListFilters,
  page: PageRequest,
): Promise<Page<AdminUserRow>> {
  assertRole(actor, "admin");
  const where = userListWhere(filters);
  // Without a search the total comes from the tally's `role:active|inactive` buckets.
  const total = filters.q
    ? undefined
    : tallyCount(await nonAdminUserBuckets(db), (bucket) => !filters.role || bucket.startsWith(`${filters.role}:`));
  const result = await keysetPage(
    db,
    { order: ordering, request: page, table: user, where, countCap: filters.q ? SEARCH_COUNT_CAP : undefined, total },
    (keyset) => fetchUserRows(db, keyset),
  );
  return { ...result, items: result.items.map(toAdminUserRow) };
}

/** Filters of the admin user list and its CSV export. */
export interface UserListFilters {
  /** Case-insensitive substring of the e-mail, business name or name. */
  q?: string;
  /** Only clients or only ambassadors. */
  role?: UserRoleFilter;
}

/**
 * The admin user list's filters from its URL (`?q=`, `?role=client|ambassador`), shared by
 * the page and its CSV export.
 */
export function userListFiltersFrom(params: URLSearchParams): UserListFilters {
  const role = params.get("role");
  return { q: normalizeSearch(params.get("q")), role: role === "client" || role === "ambassador" ? role : undefined };
}

/** The list's WHERE clause (filters only, no keyset predicate), shared by pages and export. */
function userListWhere(filters: UserListFilters): SQL | undefined {
  const conditions: SQL[] = [notAdmin];
  if (filters.role === "ambassador") conditions.push(eq(user.role, "ambassador"));
  if (filters.role === "client") conditions.push(sql`(${user.role} = 'client' or ${user.role} is null)`);
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(or(ilike(user.email, pattern), ilike(user.businessName, pattern), ilike(user.name, pattern))!);
  }
  return and(...conditions);
}

/** The list's select, for one page or one export batch. */
function fetchUserRows(db: Queryable, keyset: KeysetQuery) {
  return db
    .select({
      id: user.id,
      cursorKey: cursorKeySql(ordering),
      name: user.name,
      businessName: user.businessName,
      email: user.email,
      role: user.role,
      banned: user.banned,
      closedAt: user.closedAt,
      createdAt: user.createdAt,
      lastLoginAt: user.lastLoginAt,
    })
    .from(user)
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

function toAdminUserRow({ banned, role, ...row }: Omit<Awaited<ReturnType<typeof fetchUserRows>>[number], "cursorKey">): AdminUserRow {
  return {
    ...row,
    role: roleOf(role) as UserRoleFilter,
    active: !banned,
    closedAt: toIsoOrNull(row.closedAt),
    createdAt: toIsoOrNull(row.createdAt),
    lastLoginAt: toIsoOrNull(row.lastLoginAt),
  };
}

/**
 * Every non-admin user matching the list's filters, newest first, for the CSV export
 *: the same filters and select as {@link listUsersForAdmin}, read in keyset
 * batches of 1,000 rows.
 *
 * @returns an async iterable of rows (one batch in memory at a time).
 * @throws {AppError} 403 unless the actor is an admin (before anything is read).
 */
export async function exportUsersForAdmin(db: Queryable, actor: Actor, filters: UserListFilters): Promise<AsyncIterable<AdminUserRow>> {
  assertRole(actor, "admin");
  return mapRows(
    keysetBatches(ordering, userListWhere(filters), (keyset) => fetchUserRows(db, keyset)),
    toAdminUserRow,
  );
}

/**
 * Counts non-admin users for the admin dashboard (docs/product.md#admin-dashboard).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function countUsers(
  db: Queryable,
  actor: Actor,
): Promise<{ total: number; clients: number; ambassadors: number; inactive: number }> {
  assertRole(actor, "admin");
  const buckets = await nonAdminUserBuckets(db);
  const total = tallyCount(buckets);
  const ambassadors = tallyCount(buckets, (b) => b.startsWith("ambassador:"));
  return { total, ambassadors, clients: total - ambassadors, inactive: tallyCount(buckets, (b) => b.endsWith(":inactive")) };
}

/** What deleting a user removes or unlinks (ADR 004), shown in the confirmation. */
export interface UserDeletionImpact {
  id: string;
  email: string;
  role: UserRoleFilter;
  /** Deleted: proposals that belong to the user as client. */
  proposals: number;
  /** Deleted: invoices of the user as client (with their items). */
  invoices: number;
  /** Deleted: the user's meeting requests. */
  meetings: number;
  /** Kept, ambassador unset: proposals the user submitted as ambassador for others. */
  ambassadorProposals: number;
  /** Kept, referrer unset: clients the user referred. */
  referredClients: number;
}

async function impactOf(q: Queryable, userId: string): Promise<Omit<UserDeletionImpact, "id" | "email" | "role">> {
  const n = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n;
  return {
    proposals: await n(q.select({ n: count() }).from(proposal).where(eq(proposal.clientId, userId))),
    invoices: await n(
      q
        .select({ n: count() })
        .from(invoice)
        .where(
          or(
            eq(invoice.clientId, userId),
            sql`${invoice.proposalId} in (select ${proposal.id} from ${proposal} where ${proposal.clientId} = ${userId})`,
          ),
        ),
    ),
    meetings: await n(q.select({ n: count() }).from(meeting).where(eq(meeting.userId, userId))),
    ambassadorProposals: await n(
      q
        .select({ n: count() })
        .from(proposal)
        .where(and(eq(proposal.ambassadorId, userId), sql`${proposal.clientId} is distinct from ${userId}`)),
    ),
    referredClients: await n(q.select({ n: count() }).from(user).where(eq(user.referredById, userId))),
  };
}

/**
 * What deleting this user would remove and unlink (for the confirmation step, docs/product.md#confirmations).
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown id or an admin.
 */
export async function getUserDeletionImpact(db: Queryable, actor: Actor, userId: string): Promise<UserDeletionImpact> {
  assertRole(actor, "admin");
  const [target] = await db
    .select({ email: user.email, role: user.role })
    .from(user)
    .where(and(eq(user.id, userId), notAdmin));
  if (!target) throw notFound("User not found");
  return { id: userId, email: target.email, role: roleOf(target.role) as UserRoleFilter, ...(await impactOf(db, userId)) };
}

/**
 * Deletes a non-admin user in one transaction (ADR 004): their sessions, credentials,
 * reset tokens, meetings, the proposals they own as client and those proposals' invoices
 * go with them; proposals they submitted as ambassador for others stay (ambassador unset),
 * and clients they referred stay (referrer unset). Nothing is left pointing at them. One
 * audit event `deleted` (the user and what went with them) is recorded in the same
 * transaction.
 *
 * @returns what was removed and unlinked.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown id or an admin.
 */
export async function deleteUser(db: Database, actor: Actor, userId: string): Promise<UserDeletionImpact> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ email: user.email, name: user.name, role: user.role, closedAt: user.closedAt })
      .from(user)
      .where(and(eq(user.id, userId), notAdmin))
      .for("update");
    if (!target) throw notFound("User not found");
    // What is left of a closed account is what the law keeps (invoices, payments): not deleted.
    if (target.closedAt) throw conflict(USER_MESSAGES.closedKept);
    const impact = await impactOf(tx, userId);
    // Foreign keys do the rest in this statement (schema.ts): cascade for session, account,
    // meeting, proposal.client_id, invoice.client_id, invoice.proposal_id, invoice_item;
    // set null for proposal.ambassador_id and user.referred_by_id.
    await tx.delete(verification).where(eq(verification.value, userId));
    // Their proposals first (each cascading to its invoice), so rows are locked proposal →
    // invoice as everywhere else (see the commission tally, migration 0004), then the user.
    await tx.delete(proposal).where(eq(proposal.clientId, userId));
    await tx.delete(user).where(eq(user.id, userId));
    const removed = { id: userId, email: target.email, role: roleOf(target.role) as UserRoleFilter, ...impact };
    await recordAudit(tx, actor, {
      entity: "user",
      entityId: userId,
      action: "deleted",
      before: { name: target.name, ...removed },
      after: null,
    });
    return removed;
  });
}
