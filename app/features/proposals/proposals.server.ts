/**
 * Proposal use-cases of the client and ambassador portals (docs/product.md#proposals,
 * docs/product.md#proposal-statuses). Every function takes the acting user and checks the
 * right itself: role, ownership (a client only ever reaches proposals whose `clientId` is
 * theirs — anything else is "Proposal not found", never another client's data) and state
 * (the rules of `proposal-rules.ts`, checked on the row locked `FOR UPDATE` in the same
 * transaction as the write, so two tabs or an admin's concurrent change cannot slip past).
 * Nothing is written on refusal. The admin's use-cases live in `proposals.admin.server.ts`.
 */
import { memoRead } from "#app/db/request-memo.server";
import { shownInvoiceIdSql } from "#app/features/invoices/proposal-invoices.server";
import { and, asc, count, desc, eq, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Queryable, Transaction } from "#app/db/client.server";
import { invoice, membership, organisation, proposal, user, type ProposalStatus, type WebsiteGoal } from "#app/db/schema";
import { assertRole, roleOf, type Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound, rateLimited } from "#app/lib/errors";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { notifyAdmin, notifyAdminCoalesced, queueNotification, queueUserUpdate } from "#app/features/mail/notifications.server";
import { publishProposalEvent } from "#app/features/live/live-events.server";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { numberedPage, totalOverSql, type NumberedPage } from "#app/lib/pagination";
import {
  approvalRefusal,
  clientActions,
  COMPLETED_STATUSES,
  declineRefusal,
  deleteRefusal,
  editRefusal,
  revisionRefusal,
  type ClientProposalActions,
} from "./proposal-rules";
import { makeAmbassadorFirstVersion } from "#app/features/agreements/offers.server";
import { emailVerified, visibleToClient } from "./client-visibility.server";
import { hasOrganisationRole, lockMembership, MONEY_ROLES, PROJECT_ROLES } from "#app/features/organisations/access.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { type AmbassadorProposalInput, type ProposalRequestInput } from "./proposals.schema";
import { AMBASSADOR_DAILY_LIMITS, PROPOSAL_MESSAGES } from "./proposals.messages";
import { currentCommissionRateSql, syncProposalCommissions } from "#app/features/referrals/ledger.server";

/**
 * How many of the client's open proposals the dashboard reads once per request (its next steps,
 * the balance card's next payment and the proposals awaiting approval, docs/product.md#client-dashboard).
 */
export const DASHBOARD_OPEN_ROWS = 50;

/** Rows per page of the project-status list. */
export const PROJECT_STATUS_PAGE_SIZE = 20;

/** A proposal as the client's lists show it, with what the client may do with it now. */
export interface ClientProposalRow {
  id: number;
  source: "client" | "ambassador";
  projectName: string | null;
  projectDetails: string;
  status: ProposalStatus;
  timeline: string | null;
  budgetCents: number | null;
  websiteGoal: WebsiteGoal | null;
  revisionComment: string | null;
  clientApprovedAt: Date | null;
  clientDeclinedAt: Date | null;
  declineReason: string | null;
  /** UTC instant. */
  createdAt: Date;
  /** The ambassador who made it (ambassador proposals), else null. */
  ambassadorName: string | null;
  /** The invoice the row links to (links to /view-invoice/{id}): the oldest unpaid, else the newest paid (#37). */
  invoiceId: number | null;
  allowed: ClientProposalActions;
}

const ambassadorUser = alias(user, "ambassador_user");

/** The one query behind every client list: own proposals + ambassador name + invoice id. */
function clientProposalQuery<Extra extends Record<string, SQL<unknown>>>(q: Queryable, where: SQL | undefined, extra?: Extra) {
  return q
    .select({
      ...(extra as Extra),
      id: proposal.id,
      source: proposal.source,
      projectName: proposal.projectName,
      projectDetails: proposal.projectDetails,
      status: proposal.status,
      timeline: proposal.timeline,
      budgetCents: proposal.budgetCents,
      websiteGoal: proposal.websiteGoal,
      revisionComment: proposal.revisionComment,
      clientApprovedAt: proposal.clientApprovedAt,
      clientDeclinedAt: proposal.clientDeclinedAt,
      declineReason: proposal.declineReason,
      createdAt: proposal.createdAt,
      ambassadorName: ambassadorUser.name,
      invoiceId: shownInvoiceIdSql(proposal.id),
    })
    .from(proposal)
    .leftJoin(ambassadorUser, eq(ambassadorUser.id, proposal.ambassadorId))
    .where(where)
    .orderBy(desc(proposal.createdAt), desc(proposal.id));
}

type ListedRow = Awaited<ReturnType<typeof clientProposalQuery>>[number];

function withAllowed(row: ListedRow, actor: Actor): ClientProposalRow {
  const allowed = clientActions(row, row.invoiceId !== null);
  // A member without a money role is not told the invoice's id (its page would answer 404, ADR 022).
  return { ...row, invoiceId: hasOrganisationRole(actor, MONEY_ROLES) ? row.invoiceId : null, allowed };
}

/**
 * Proposal request (docs/product.md#proposals-request; docs/product.md#form-messages): a new proposal of the signed-in client,
 * status `pending`, source `client`.
 *
 * @param actor - the signed-in user, or null when signed out.
 * @param input - validated `proposalRequestSchema` output (budget already in cents).
 * @returns the new proposal's id.
 * @throws {AppError} 401 "User not logged in" without an actor; 403 unless a client.
 */
export async function requestProposal(
  db: Database,
  actor: Actor | null,
  input: ProposalRequestInput,
  /** Where it came from: the published case study whose "Start a project like this" led here (issue #40). */
  origin: { sourceCaseStudyId?: number | null } = {},
): Promise<{ id: number }> {
  if (!actor) throw new AppError("UNAUTHORIZED", PROPOSAL_MESSAGES.notLoggedIn);
  assertRole(actor, "client");
  const allowed = await hitRateLimit(db, `proposal-requests:${actor.id}`, PROPOSAL_REQUEST_LIMIT);
  if (!allowed.allowed) throw rateLimited(PROPOSAL_MESSAGES.requestLimit, allowed.retryAfterSeconds);
  return db.transaction(async (tx) => {
    // A request of the person's current organisation, for its owners and members (docs/product.md#organisations).
    const organisationId = await lockMembership(tx, actor, PROJECT_ROLES, ORGANISATION_MESSAGES.notMember);
    const [row] = await tx
      .insert(proposal)
      .values({
        ...editableValues(input),
        clientId: actor.id,
        organisationId,
        source: "client",
        status: "pending",
        sourceCaseStudyId: origin.sourceCaseStudyId ?? null,
      })
      .returning({ id: proposal.id });
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: row!.id,
      action: "created",
      after: { status: "pending", source: "client", ...(origin.sourceCaseStudyId ? { sourceCaseStudyId: origin.sourceCaseStudyId } : {}) },
    });
    // One mail per 10 minutes at most, listing every request since the last one.
    await notifyAdminCoalesced(tx, {
      key: "new-proposal-requests",
      windowMs: ADMIN_REQUEST_MAIL_WINDOW_MS,
      subject: (count) => (count === 1 ? "New proposal request" : `${count} new proposal requests`),
      line: `${actor.email} requested a proposal${input.projectName ? ` for "${input.projectName.slice(0, 120)}"` : ""}.`,
      link: { label: "Open proposals", path: "/admin/proposals" },
    });
    await publishProposalEvent(tx, row!.id, "proposal.created", {}, actor.id);
    return { id: row!.id };
  });
}

/** Proposal requests per client account (docs/product.md#proposals-request): 10 an hour. */
export const PROPOSAL_REQUEST_LIMIT = { limit: 10, windowMs: 60 * 60_000 } as const;
/** The admin gets at most one "new proposal requests" mail per this window: 10 minutes. */
export const ADMIN_REQUEST_MAIL_WINDOW_MS = 10 * 60_000;

/** A proposal's name in messages. */
function proposalLabel(row: { projectName: string | null; id: number }): string {
  return row.projectName || `Proposal #${row.id}`;
}

/** The columns a client's form sets (request and edit), from the schema's output. */
function editableValues(input: ProposalRequestInput) {
  return {
    projectName: input.projectName,
    projectDetails: input.projectDetails,
    timeline: input.timeline,
    budgetCents: input.budget,
    targetAudience: input.targetAudience,
    designInspiration: input.designInspiration,
    numberOfPages: input.numberOfPages,
    websiteGoal: input.websiteGoal,
  };
}

/**
 * Project status (docs/product.md#project-status): the client's proposals — their own and the
 * ambassador proposals addressed to them (once their e-mail address is verified,
 * docs/product.md#email-verification) — newest first, paginated on the server.
 *
 * @param options.includeCompleted - false hides `completed` and `closed` (the default view).
 * @param options.page - 1-based; a page past the end is clamped to the last page.
 * @throws {AppError} 403 unless a client.
 */
export async function listClientProposals(
  db: Database,
  actor: Actor,
  options: { includeCompleted: boolean; page: number; pageSize?: number },
): Promise<NumberedPage<ClientProposalRow>> {
  assertRole(actor, "client");
  const pageSize = options.pageSize ?? PROJECT_STATUS_PAGE_SIZE;
  const where = await clientListWhere(db, actor, options.includeCompleted);
  // One statement: the page's rows counted with the whole list (a window over every row before the limit).
  const found = await numberedPage(
    options.page,
    pageSize,
    (page) =>
      clientProposalQuery(db, where, { total: totalOverSql() })
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    async () => (await db.select({ total: count() }).from(proposal).where(where))[0]?.total ?? 0,
  );
  return { ...found, items: found.items.map(({ total: _total, ...row }) => withAllowed(row, actor)) };
}

/**
 * The first `limit` of the client's proposals as {@link listClientProposals} lists them, without
 * counting them all (one statement, once per request; the dashboard's next steps and balance card,
 * docs/product.md#client-dashboard). Pages only: a read after a write in the same request is not fresh.
 *
 * @throws {AppError} 403 unless a client.
 */
export async function listClientProposalRows(
  q: Queryable,
  actor: Actor,
  options: { includeCompleted: boolean; limit: number },
): Promise<ClientProposalRow[]> {
  assertRole(actor, "client");
  // Read once per request: the dashboard's next steps and its balance card both list these.
  const key = `client-proposal-rows:${actor.id}:${actor.organisationId ?? ""}:${actor.organisationRole ?? ""}:${options.includeCompleted}:${options.limit}`;
  return memoRead(q, key, async () => {
    const rows = await clientProposalQuery(q, await clientListWhere(q, actor, options.includeCompleted)).limit(options.limit);
    return rows.map((row) => withAllowed(row, actor));
  });
}

/** Which of the client's proposals a list shows: the visible ones, without the completed and closed unless asked. */
async function clientListWhere(q: Queryable, actor: Actor, includeCompleted: boolean): Promise<SQL | undefined> {
  return and(
    visibleToClient(actor, await emailVerified(q, actor)),
    includeCompleted ? undefined : notInArray(proposal.status, [...COMPLETED_STATUSES]),
  );
}

/**
 * The client's projects as a pick list (the booking form's "About which project?",
 * docs/product.md#meetings-scheduling): every proposal the client may see, newest first.
 *
 * @param onlyId - just this proposal (to check a posted choice).
 * @returns ids and project names (null when unnamed).
 * @throws {AppError} 403 unless a client.
 */
export async function listClientProjectNames(
  q: Queryable,
  actor: Actor,
  onlyId?: number,
): Promise<{ id: number; projectName: string | null }[]> {
  assertRole(actor, "client");
  return q
    .select({ id: proposal.id, projectName: proposal.projectName })
    .from(proposal)
    .where(and(visibleToClient(actor, await emailVerified(q, actor)), onlyId === undefined ? undefined : eq(proposal.id, onlyId)))
    .orderBy(desc(proposal.createdAt), desc(proposal.id))
    .limit(100);
}

/**
 * The ambassador proposals addressed to the client that await their approval (docs/product.md#proposals-approval
 * /client-dashboard): source ambassador, neither approved nor declined, not closed. Empty
 * until the client's e-mail address is verified (docs/product.md#email-verification).
 *
 * @throws {AppError} 403 unless a client.
 */
export async function listAwaitingApproval(db: Database, actor: Actor): Promise<ClientProposalRow[]> {
  assertRole(actor, "client");
  if (!(await emailVerified(db, actor))) return [];
  // The open rows the dashboard reads anyway (once per request) hold every proposal awaiting approval
  // (a completed or closed one never does): no statement of its own unless they were cut at the limit.
  const open = await listClientProposalRows(db, actor, { includeCompleted: false, limit: DASHBOARD_OPEN_ROWS });
  if (open.length < DASHBOARD_OPEN_ROWS) return open.filter((row) => row.allowed.approve);
  const rows = await clientProposalQuery(
    db,
    and(
      visibleToClient(actor, true),
      eq(proposal.source, "ambassador"),
      isNull(proposal.clientApprovedAt),
      isNull(proposal.clientDeclinedAt),
    ),
  );
  return rows.map((row) => withAllowed(row, actor)).filter((row) => row.allowed.approve);
}

/** The fields of the edit form, as stored. */
export interface ProposalForEdit {
  id: number;
  projectName: string | null;
  projectDetails: string;
  timeline: string | null;
  budgetCents: number | null;
  targetAudience: string | null;
  designInspiration: string | null;
  numberOfPages: number | null;
  websiteGoal: WebsiteGoal | null;
}

/**
 * Locks one of the client's proposals for a change. Another client's id, an unknown id, a
 * malformed id and an ambassador proposal while the client's address is unverified all give
 * the same 404 (docs/product.md#email-verification). A proposal made by the actor themself
 * is refused (docs/product.md#ambassador-proposals: an ambassador is never the client of
 * their own proposal).
 */
export async function lockOwnProposal(tx: Transaction, actor: Actor, proposalId: number) {
  const id = proposalId;
  const [row] = await tx
    .select()
    .from(proposal)
    .where(and(eq(proposal.id, id), visibleToClient(actor, await emailVerified(tx, actor))))
    .for("update");
  if (!row) throw notFound(PROPOSAL_MESSAGES.notFound);
  if (row.ambassadorId === actor.id) throw new AppError("FORBIDDEN", PROPOSAL_MESSAGES.ownProposal);
  return row;
}

/** Runs `change` on the client's locked proposal after `refusal` allowed it. */
async function changeOwnProposal<T>(
  db: Database,
  actor: Actor,
  proposalId: number,
  change: (tx: Transaction, row: typeof proposal.$inferSelect) => Promise<T>,
): Promise<T> {
  assertRole(actor, "client");
  return db.transaction(async (tx) => change(tx, await lockOwnProposal(tx, actor, proposalId)));
}

function refuseIf(reason: string | null): void {
  if (reason) throw new AppError("CONFLICT", reason);
}

/**
 * Edit proposal, reading (docs/product.md#proposals-editing): only the owner, only while
 * pending and not ambassador-made.
 *
 * @param proposalId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @throws {AppError} 403 unless a client; 404 "Proposal not found" (unknown or another
 *   client's); 409 with the reason when it may not be edited.
 */
export async function getProposalForEdit(db: Database, actor: Actor, proposalId: number): Promise<ProposalForEdit> {
  assertRole(actor, "client");
  const id = proposalId;
  const [row] = await db
    .select()
    .from(proposal)
    .where(and(eq(proposal.id, id), visibleToClient(actor, await emailVerified(db, actor))));
  if (!row) throw notFound(PROPOSAL_MESSAGES.notFound);
  refuseIf(editRefusal(row));
  return {
    id: row.id,
    projectName: row.projectName,
    projectDetails: row.projectDetails,
    timeline: row.timeline,
    budgetCents: row.budgetCents,
    targetAudience: row.targetAudience,
    designInspiration: row.designInspiration,
    numberOfPages: row.numberOfPages,
    websiteGoal: row.websiteGoal,
  };
}

/**
 * Edit proposal, saving (docs/product.md#proposals-editing).
 *
 * @param input - validated `editProposalSchema` output (budget in cents).
 * @throws {AppError} 403 unless a client; 404 "Proposal not found"; 409 when no longer editable.
 */
export async function updateProposal(db: Database, actor: Actor, proposalId: number, input: ProposalRequestInput): Promise<void> {
  await changeOwnProposal(db, actor, proposalId, async (tx, row) => {
    refuseIf(editRefusal(row));
    const values = editableValues(input);
    await tx
      .update(proposal)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(proposal.id, row.id));
    await publishProposalEvent(tx, row.id, "proposal.updated", {}, actor.id);
    const before = Object.fromEntries(Object.keys(values).map((key) => [key, row[key as keyof typeof values]]));
    const changed = changedFields(before, values);
    if (changed.after) await recordAudit(tx, actor, { entity: "proposal", entityId: row.id, action: "updated", ...changed });
  });
}

/**
 * Deletes a proposal (docs/product.md#confirmations: after confirmation, which the page asks for): own,
 * pending, not ambassador-made, no invoice.
 *
 * @throws {AppError} 403 unless a client; 404 "Proposal not found"; 409 when not deletable.
 */
export async function deleteProposal(db: Database, actor: Actor, proposalId: number): Promise<void> {
  await changeOwnProposal(db, actor, proposalId, async (tx, row) => {
    const [linked] = await tx.select({ id: invoice.id }).from(invoice).where(eq(invoice.proposalId, row.id)).limit(1);
    refuseIf(deleteRefusal(row, Boolean(linked)));
    // Published before the row goes: its audience is read from it.
    await publishProposalEvent(tx, row.id, "proposal.deleted", {}, actor.id);
    await tx.delete(proposal).where(eq(proposal.id, row.id));
    await recordAudit(tx, actor, { entity: "proposal", entityId: row.id, action: "deleted", before: { projectName: row.projectName } });
  });
}

/**
 * Revision comment (docs/product.md#proposals-revision: only while in review: non-empty after trimming). A new
 * comment replaces the previous one.
 *
 * @param comment - trimmed, non-empty (the schema's output; checked again here).
 * @throws {AppError} 400 empty comment; 403 unless a client; 404 "Proposal not found";
 *   409 when not in review.
 */
export async function submitRevision(db: Database, actor: Actor, proposalId: number, comment: string): Promise<void> {
  const text = comment.trim();
  if (!text) throw fieldError("comment", "Describe the revisions you would like.");
  await changeOwnProposal(db, actor, proposalId, async (tx, row) => {
    refuseIf(revisionRefusal(row));
    await tx
      .update(proposal)
      .set({ revisionComment: text, updatedAt: sql`now()` })
      .where(eq(proposal.id, row.id));
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: row.id,
      action: "revision-requested",
      before: { revisionComment: row.revisionComment },
      after: { revisionComment: text },
    });
    await notifyAdmin(tx, {
      subject: `Revision requested: ${proposalLabel(row)}`,
      lines: [`${actor.email} asked for revisions:`, text],
      link: { label: "Open proposals", path: "/admin/proposals" },
    });
    await publishProposalEvent(tx, row.id, "proposal.revision-requested", {}, actor.id);
  });
}

/**
 * Approves an ambassador proposal addressed to the client (docs/product.md#proposals): sets clientApprovedAt
 * once; approving again changes nothing. No page calls it since issue #26: clients approve by accepting and
 * signing the offer's version (`acceptOffer`, app/features/agreements/acceptance.server.ts), which sets the
 * same field; kept for the tests and scripts that set up approved proposals.
 *
 * @returns `changed: false` when it was already approved.
 * @throws {AppError} 403 unless a client, or when the actor made the proposal; 404 "Proposal
 *   not found" (also while the client's address is unverified); 409 when not an ambassador
 *   proposal, declined, or closed.
 */
export async function approveProposal(db: Database, actor: Actor, proposalId: number): Promise<{ changed: boolean }> {
  if (actor.organisationRole && actor.organisationRole !== "owner") throw new AppError("FORBIDDEN", ORGANISATION_MESSAGES.ownersOnly);
  return changeOwnProposal(db, actor, proposalId, async (tx, row) => {
    if (row.clientApprovedAt) return { changed: false };
    refuseIf(approvalRefusal(row));
    await tx
      .update(proposal)
      .set({ clientApprovedAt: sql`now()`, commissionRateBps: currentCommissionRateSql(), updatedAt: sql`now()` })
      .where(eq(proposal.id, row.id));
    // The rate is frozen now; payments recorded before the approval earn their entries now.
    await syncProposalCommissions(tx, row.id);
    await recordAudit(tx, actor, { entity: "proposal", entityId: row.id, action: "approved", after: { approved: true } });
    await notifyAdmin(tx, {
      subject: `Proposal approved: ${proposalLabel(row)}`,
      lines: [`${actor.email} approved the proposal "${proposalLabel(row)}" made by their ambassador.`],
      link: { label: "Open ambassadors", path: "/admin/ambassadors" },
    });
    await publishProposalEvent(tx, row.id, "proposal.approved", {}, actor.id);
    return { changed: true };
  });
}

/**
 * Declines an ambassador proposal with a reason (beyond the spec): sets clientDeclinedAt
 * and declineReason once; declining again changes nothing.
 *
 * @param reason - trimmed, non-empty.
 * @returns `changed: false` when it was already declined.
 * @throws {AppError} 400 empty reason; 403 unless a client; 404 "Proposal not found"; 409
 *   when approved, closed or not an ambassador proposal.
 */
export async function declineProposal(db: Database, actor: Actor, proposalId: number, reason: string): Promise<{ changed: boolean }> {
  const text = reason.trim();
  if (!text) throw fieldError("reason", "Tell us why you are declining.");
  // Declining an offer or an ambassador's proposal is the owner's decision (docs/product.md#organisations).
  if (actor.organisationRole && actor.organisationRole !== "owner") throw new AppError("FORBIDDEN", ORGANISATION_MESSAGES.ownersOnly);
  return changeOwnProposal(db, actor, proposalId, async (tx, row) => {
    if (row.clientDeclinedAt) return { changed: false };
    refuseIf(declineRefusal(row));
    await tx
      .update(proposal)
      .set({ clientDeclinedAt: sql`now()`, declineReason: text, updatedAt: sql`now()` })
      .where(eq(proposal.id, row.id));
    await recordAudit(tx, actor, { entity: "proposal", entityId: row.id, action: "declined", after: { declineReason: text } });
    await notifyAdmin(tx, {
      subject: `Proposal declined: ${proposalLabel(row)}`,
      lines: [`${actor.email} declined the proposal "${proposalLabel(row)}":`, text],
      link: { label: "Open proposals", path: "/admin/proposals" },
    });
    await publishProposalEvent(tx, row.id, "proposal.declined", {}, actor.id);
    return { changed: true };
  });
}

/** Counts one proposal against an ambassador's daily budget, inside the proposal's transaction. */
async function countAgainstDailyLimit(tx: Transaction, key: string, limit: number, message: string): Promise<void> {
  const result = await hitRateLimit(tx, key, { limit, windowMs: AMBASSADOR_DAILY_LIMITS.windowMs });
  if (!result.allowed) throw rateLimited(message, result.retryAfterSeconds);
}

/**
 * Ambassador proposal (docs/product.md#ambassador-proposals): made on behalf
 * of a client identified by e-mail. Status `submitted`, source `ambassador`, not approved,
 * commission unpaid.
 *
 * A client the ambassador referred gets the proposal at once (they see it once their address is
 * verified). Any other address is answered, counted and shown to the ambassador the same way
 * whether it has an account or not (issue #36: the answer is no oracle of who has an account):
 * the proposal is stored unattached and counts against the new-address budget. With no account
 * yet, a mail invites the address and the proposal becomes theirs when they register and verify
 * it (`claimAddressedProposals`); an address that has an account already — the ambassador's own,
 * another ambassador's or an admin's, a client referred by someone else or by no one — gets no
 * mail, and its account never claims the proposal (it was made after the account); the admin
 * sees it in the proposals list. At most {@link AMBASSADOR_DAILY_LIMITS} proposals a day (20), of
 * which 5 to addresses that are not referred clients; a refused proposal does not count. The mail
 * to a new address holds only fixed text, the ambassador's name and the registration link:
 * nothing the ambassador typed.
 *
 * @param actor - the signed-in user, or null when signed out.
 * @param input - validated `ambassadorProposalSchema` output (e-mail lowercased, budget in cents).
 * @returns the new proposal's id and the client it was given to (null until they register and verify).
 * @throws {AppError} 401 "You must be logged in."; 403 unless an ambassador; 403 "Your
 *   referral link ID is missing." when the ambassador has no referral code; 429 over a daily limit.
 */
export async function submitAmbassadorProposal(
  db: Database,
  actor: Actor | null,
  input: Omit<AmbassadorProposalInput, "enhanced">,
): Promise<{ id: number; clientId: string | null }> {
  if (!actor) throw new AppError("UNAUTHORIZED", PROPOSAL_MESSAGES.mustLogIn);
  assertRole(actor, "ambassador");
  const [me] = await db.select({ referralCode: user.referralCode, name: user.name }).from(user).where(eq(user.id, actor.id));
  if (!me?.referralCode) throw new AppError("FORBIDDEN", PROPOSAL_MESSAGES.referralMissing);
  const email = input.clientEmail.trim().toLowerCase();
  const referralCode = me.referralCode;
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: user.id, role: user.role, referredById: user.referredById })
      .from(user)
      .where(eq(user.email, email));
    // A client the ambassador referred: the person's organisation that this ambassador referred
    // (attribution is per organisation, docs/product.md#organisations) gets the proposal.
    const [referredOrganisation] = existing
      ? await tx
          .select({ id: membership.organisationId })
          .from(membership)
          .innerJoin(organisation, eq(organisation.id, membership.organisationId))
          .where(and(eq(membership.userId, existing.id), eq(organisation.referredById, actor.id)))
          .orderBy(asc(membership.createdAt), asc(membership.organisationId))
          .limit(1)
      : [];
    const referred = existing !== undefined && roleOf(existing.role) === "client" && referredOrganisation !== undefined;
    // Any address but a referred client's is answered and counted alike, account or not (issue #36:
    // no oracle of who has an account): the proposal waits unattached for whoever proves the address.
    await countAgainstDailyLimit(tx, `ambassador-proposals:${actor.id}`, AMBASSADOR_DAILY_LIMITS.proposals, PROPOSAL_MESSAGES.dailyLimit);
    if (!referred) {
      await countAgainstDailyLimit(
        tx,
        `ambassador-new-addresses:${actor.id}`,
        AMBASSADOR_DAILY_LIMITS.newAddresses,
        PROPOSAL_MESSAGES.newAddressLimit,
      );
    }
    const [row] = await tx
      .insert(proposal)
      .values({
        source: "ambassador",
        status: "submitted",
        ambassadorId: actor.id,
        clientId: referred ? existing!.id : null,
        organisationId: referred ? referredOrganisation!.id : null,
        clientName: input.clientName,
        clientEmail: email,
        projectName: input.projectName,
        projectDetails: input.projectDetails,
        budgetCents: input.budget,
        clientApprovedAt: null,
      })
      .returning();
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: row!.id,
      action: "created",
      after: { status: "submitted", source: "ambassador" },
    });
    // An ambassador's proposal is an offer on the agency's behalf: its version 1 (docs/product.md#offers).
    await makeAmbassadorFirstVersion(tx, actor, row!);
    const about = input.projectName ? `"${input.projectName}"` : "a new website";
    if (row!.clientId) {
      await queueUserUpdate(tx, row!.clientId, {
        subject: "A proposal was made for you",
        lines: [`An ambassador prepared a proposal for ${about}. Read its terms, then accept and sign them (or decline) on its page.`],
        link: { label: "Review the proposal", path: `/proposals/${row!.id}` },
      });
    } else if (!existing) {
      // A stranger's inbox: fixed company text naming the ambassador, and the link — nothing they typed.
      await queueNotification(tx, {
        to: email,
        subject: "A website proposal was prepared for you",
        lines: newAddressMailLines(me.name),
        link: { label: "Create your account", path: `/register?ref=${encodeURIComponent(referralCode)}` },
      });
    }
    await publishProposalEvent(tx, row!.id, "proposal.created", {}, actor.id);
    return { id: row!.id, clientId: row!.clientId };
  });
}

/**
 * The body of the mail to an address with no account (docs/product.md#ambassador-proposals):
 * fixed sentences naming the ambassador by their display name only (letters, spaces, hyphens and
 * apostrophes, at most 60 characters: no link or address can ride along) — never the project name,
 * the client's name or the details they typed.
 */
export function newAddressMailLines(ambassadorName: string): string[] {
  const name = ambassadorName
    .replace(/[^\p{L}\p{M}' -]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60)
    .trim();
  return [
    `${name ? `${name}, one of our ambassadors,` : "One of our ambassadors"} prepared a website proposal for this e-mail address.`,
    "To see it, create your free client account with this e-mail address using the link below, then confirm the address from the e-mail we send you.",
    "If you did not expect this message, ignore it: you will not hear from us about it again.",
  ];
}
