/**
 * Admin proposal use-cases (docs/product.md#admin-proposals, docs/product.md#proposal-statuses
 * admin): the list of every proposal with search, filter and keyset pagination, and the
 * free status change. Each function checks that the actor is an admin before anything else.
 */
import { shownInvoiceIdSql, shownInvoiceNumberSql } from "#app/features/invoices/proposal-invoices.server";
import { and, eq, gt, gte, ilike, inArray, isNull, like, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "#app/db/client.server";
import { readTally, tallyCount } from "#app/db/tally.server";
import { requestTestimonial } from "#app/features/portfolio/testimonials.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueUserUpdate } from "#app/features/mail/notifications.server";
import { auditEvent, mailOutbox, proposal, PROPOSAL_STATUSES, user, type ProposalStatus } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { keysetBatches, mapRows } from "#app/lib/csv.server";
import {
  containsPattern,
  cursorKeySql,
  keysetPage,
  matchingIdsCondition,
  SEARCH_COUNT_CAP,
  type KeysetQuery,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";
import { ADMIN_PROPOSAL_STATUSES, PROPOSAL_STATUS_LABELS, type AdminProposalStatus } from "./proposals.admin.schema";

/** One row of the admin proposal list. Money in cents; instants in UTC. */
export interface AdminProposalRow {
  id: number;
  projectName: string | null;
  projectDetails: string;
  /** Business name (or name) of the client's account, else the name the ambassador gave. */
  clientName: string | null;
  /** The client account's e-mail, else the address the ambassador gave. */
  clientEmail: string | null;
  /** False while an ambassador proposal's client has not registered yet. */
  clientHasAccount: boolean;
  source: "client" | "ambassador";
  ambassadorName: string | null;
  budgetCents: number | null;
  status: ProposalStatus;
  /** ISO instant (UTC) or null. */
  clientApprovedAt: string | null;
  /** ISO instant (UTC). */
  createdAt: string | null;
  invoiceId: number | null;
  invoiceNumber: string | null;
}

/** Filters of the admin proposal list. */
export interface ProposalListFilters {
  /** Only this stored status. */
  status?: ProposalStatus;
  /** Case-insensitive substring of the project name, client name/business or e-mail. */
  q?: string;
}

const ordering = { sort: proposal.createdAt, id: proposal.id };

/**
 * The list's WHERE clause (filters only, no keyset predicate). The search matches the
 * proposal's own text (trigram indexes on proposal) or the e-mail/business/name of its
 * client's account (trigram indexes on user), see {@link matchingIdsCondition}.
 */
async function proposalFilters(db: Queryable, filters: ProposalListFilters): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(proposal.status, filters.status));
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    const ofMatchingClients = await matchingIdsCondition(proposal.clientId, () =>
      db
        .select({ id: user.id })
        .from(user)
        .where(or(ilike(user.email, pattern), ilike(user.businessName, pattern), ilike(user.name, pattern))),
    );
    conditions.push(
      or(
        ilike(proposal.projectName, pattern),
        ilike(proposal.clientName, pattern),
        ilike(proposal.clientEmail, pattern),
        ofMatchingClients,
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Lists every proposal, newest first (docs/product.md#admin-proposals): client (name/business,
 * e-mail), source, budget, status and the invoice if there is one.
 *
 * @param filters - status and/or search term (case-insensitive, server-side).
 * @param page - keyset page request (see `app/lib/pagination.ts`).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listProposalsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: ProposalListFilters,
  page: PageRequest,
): Promise<Page<AdminProposalRow>> {
  assertRole(actor, "admin");
  const where = await proposalFilters(db, filters);
  // Without a search the total is a tally bucket (all statuses, or the filtered one).
  const total = filters.q
    ? undefined
    : tallyCount(await readTally(db, "proposal"), (status) => !filters.status || status === filters.status);
  const result = await keysetPage(
    db,
    { order: ordering, request: page, table: proposal, where, countCap: filters.q ? SEARCH_COUNT_CAP : undefined, total },
    (keyset) => fetchProposalRows(db, keyset),
  );
  return { ...result, items: result.items.map(toAdminProposalRow) };
}

/** The list's select and joins, for one page or one export batch. */
function fetchProposalRows(db: Queryable, keyset: KeysetQuery) {
  const client = alias(user, "client");
  const ambassador = alias(user, "ambassador");
  return db
    .select({
      id: proposal.id,
      cursorKey: cursorKeySql(ordering),
      projectName: proposal.projectName,
      projectDetails: sql<string>`left(${proposal.projectDetails}, 160)`,
      clientName: sql<string | null>`coalesce(${client.businessName}, ${client.name}, ${proposal.clientName})`,
      clientEmail: sql<string | null>`coalesce(${client.email}, ${proposal.clientEmail})`,
      clientHasAccount: sql<boolean>`${client.id} is not null`,
      source: proposal.source,
      ambassadorName: ambassador.name,
      budgetCents: proposal.budgetCents,
      status: proposal.status,
      clientApprovedAt: proposal.clientApprovedAt,
      createdAt: proposal.createdAt,
      invoiceId: shownInvoiceIdSql(proposal.id),
      invoiceNumber: shownInvoiceNumberSql(proposal.id),
    })
    .from(proposal)
    .leftJoin(client, eq(client.id, proposal.clientId))
    .leftJoin(ambassador, eq(ambassador.id, proposal.ambassadorId))
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

function toAdminProposalRow<T extends { createdAt: Date | null; clientApprovedAt: Date | null }>(
  row: T,
): Omit<T, "createdAt" | "clientApprovedAt"> & { createdAt: string | null; clientApprovedAt: string | null } {
  return { ...row, createdAt: toIsoOrNull(row.createdAt), clientApprovedAt: toIsoOrNull(row.clientApprovedAt) };
}

/**
 * Every proposal matching the list's filters, newest first, for the CSV export:
 * the same filters and select as {@link listProposalsForAdmin}, read in keyset batches of
 * 1,000 rows.
 *
 * @returns an async iterable of rows (one batch in memory at a time).
 * @throws {AppError} 403 unless the actor is an admin (before anything is read).
 */
export async function exportProposalsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: ProposalListFilters,
): Promise<AsyncIterable<AdminProposalRow>> {
  assertRole(actor, "admin");
  const rows = keysetBatches(ordering, await proposalFilters(db, filters), (keyset) => fetchProposalRows(db, keyset));
  return mapRows(rows, toAdminProposalRow);
}

/**
 * Sets a proposal's status to any of pending, planning, in_progress, review, completed
 * (docs/product.md#proposal-statuses: the admin changes it freely). In the same transaction it records one
 * audit event (`status-changed`, before/after status) and queues a non-essential
 * notification to the proposal's client (subject names the project and the new status,
 * link /project-status). Setting the status it already has changes nothing: no audit
 * event, no mail.
 *
 * @returns the proposal id, its status and whether it changed.
 * @throws {AppError} 403 unless the actor is an admin; 400 on `status` for another value;
 *   404 for an unknown proposal.
 */
export async function setProposalStatus(
  db: Database,
  actor: Actor,
  proposalId: number,
  status: AdminProposalStatus,
): Promise<{
  id: number;
  projectName: string | null;
  status: AdminProposalStatus;
  changed: boolean;
  previous: ProposalStatus;
  eventId: number | null;
}> {
  assertRole(actor, "admin");
  if (!(ADMIN_PROPOSAL_STATUSES as readonly string[]).includes(status))
    throw fieldError(
      "status",
      "That status does not exist. Pick Pending, Planning, In progress, Review or Completed from the list, then save.",
    );
  return db.transaction(async (tx) => {
    const current = await lockProposalStatus(tx, proposalId);
    const named = { id: current.id, projectName: current.projectName, status, previous: current.status };
    if (current.status === status) return { ...named, changed: false, eventId: null };
    const eventId = await writeStatus(tx, actor, { ...current, id: proposalId }, status, "status-changed");
    return { ...named, changed: true, eventId };
  });
}

/** Reads and row-locks a proposal's status (and what its client notice needs) for a status change; 404 when unknown. */
async function lockProposalStatus(tx: Queryable, proposalId: number) {
  const [current] = await tx
    .select({ id: proposal.id, status: proposal.status, clientId: proposal.clientId, projectName: proposal.projectName })
    .from(proposal)
    .where(eq(proposal.id, proposalId))
    .for("update");
  if (!current) throw notFound("Proposal not found");
  return current;
}

/** The subject of the client's mail about a status change (also how an Undo finds it while unsent). */
function statusMailSubject(current: { id: number; projectName: string | null }, status: ProposalStatus): string {
  return `${current.projectName || `Proposal #${current.id}`}: status is now ${PROPOSAL_STATUS_LABELS[status]}`;
}

/**
 * Writes a status change: the row, its audit event and — for a change, not an Undo — the client's
 * notification. @returns the audit event's id.
 */
async function writeStatus(
  tx: Queryable,
  actor: Actor,
  current: { id: number; status: ProposalStatus; clientId: string | null; projectName: string | null },
  status: ProposalStatus,
  action: "status-changed" | "status-undone",
  undoes?: number,
): Promise<number> {
  await tx
    .update(proposal)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(proposal.id, current.id));
  const eventId = await recordAudit(tx, actor, {
    entity: "proposal",
    entityId: current.id,
    action,
    before: { status: current.status },
    after: undoes ? { status, undoes } : { status },
  });
  if (current.clientId && action === "status-changed") {
    const project = current.projectName || `Proposal #${current.id}`;
    await queueUserUpdate(tx, current.clientId, {
      subject: statusMailSubject(current, status),
      lines: [
        `The status of your project "${project}" changed from ${PROPOSAL_STATUS_LABELS[current.status]} to ${PROPOSAL_STATUS_LABELS[status]}.`,
      ],
      link: { label: "View your project", path: "/project-status" },
      thread: current.id,
    });
  }
  // Issue #40: a delivered project's owners are asked once for a testimonial (dashboard and one mail).
  if (action === "status-changed" && status === "completed") await requestTestimonial(tx, current.id);
  return eventId;
}

/** How long after a status change its Undo is accepted (the page offers it for a few seconds). */
export const STATUS_UNDO_WINDOW_MS = 10 * 60 * 1000;

/** Refusals of {@link undoProposalStatus} (409). */
export const UNDO_MESSAGES = {
  gone: "This change can no longer be undone: the proposal changed since, or the change is too old.",
} as const;

/**
 * Undo of a status change (docs/product.md#proposals-admin-status): a real reverse change — the
 * proposal goes back to the status it had before the change named by `eventId`, recorded as its
 * own audit event `status-undone` (before/after, and the undone event's id). The client is not
 * mailed again: the mail about the change is withdrawn while it is still unsent, and an Undo
 * sends none of its own. Only the latest status change of the proposal, made less than
 * {@link STATUS_UNDO_WINDOW_MS} ago and not changed since, can be undone, once.
 *
 * @param eventId - the audit event of the change (answered by {@link setProposalStatus}).
 * @returns the proposal id, its project name and the status it is back to.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown change; 409 when it can
 *   no longer be undone (changed since, undone already, too old).
 */
export async function undoProposalStatus(
  db: Database,
  actor: Actor,
  eventId: number,
): Promise<{ id: number; projectName: string | null; status: ProposalStatus }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [event] = await tx
      .select({ entityId: auditEvent.entityId, before: auditEvent.before, after: auditEvent.after, createdAt: auditEvent.createdAt })
      .from(auditEvent)
      .where(and(eq(auditEvent.id, eventId), eq(auditEvent.entity, "proposal"), eq(auditEvent.action, "status-changed")));
    if (!event) throw notFound("Status change not found");
    const proposalId = Number(event.entityId);
    const current = await lockProposalStatus(tx, proposalId);
    const before = (event.before as { status?: ProposalStatus } | null)?.status;
    const after = (event.after as { status?: ProposalStatus } | null)?.status;
    const [newer] = await tx
      .select({ id: auditEvent.id })
      .from(auditEvent)
      .where(
        and(
          eq(auditEvent.entity, "proposal"),
          eq(auditEvent.entityId, String(proposalId)),
          inArray(auditEvent.action, ["status-changed", "status-undone"]),
          gt(auditEvent.id, eventId),
        ),
      )
      .limit(1);
    const tooOld = Date.now() - event.createdAt.getTime() > STATUS_UNDO_WINDOW_MS;
    if (!before || !(PROPOSAL_STATUSES as readonly string[]).includes(before) || current.status !== after || newer || tooOld) {
      throw new AppError("CONFLICT", UNDO_MESSAGES.gone);
    }
    await writeStatus(tx, actor, current, before, "status-undone", eventId);
    if (current.clientId) await withdrawStatusMail(tx, current.clientId, statusMailSubject(current, after), event.createdAt);
    return { id: proposalId, projectName: current.projectName, status: before };
  });
}

/** Deletes the client's mail about an undone change if the outbox has not started sending it. */
async function withdrawStatusMail(tx: Queryable, clientId: string, subject: string, changedAt: Date): Promise<void> {
  const [client] = await tx.select({ email: user.email }).from(user).where(eq(user.id, clientId));
  if (!client) return;
  await tx
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.to, client.email),
        like(mailOutbox.subject, `${subject.replace(/[\\%_]/g, "\\$&")} — %`),
        isNull(mailOutbox.sentAt),
        eq(mailOutbox.attempts, 0),
        gte(mailOutbox.createdAt, new Date(changedAt.getTime() - 1_000)),
      ),
    );
}

/**
 * Counts proposals for the admin dashboard (docs/product.md#admin-dashboard).
 *
 * @returns all proposals, and those still open (not completed or closed).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function countProposals(db: Queryable, actor: Actor): Promise<{ total: number; open: number }> {
  assertRole(actor, "admin");
  const buckets = await readTally(db, "proposal");
  return { total: tallyCount(buckets), open: tallyCount(buckets, (status) => status !== "completed" && status !== "closed") };
}
