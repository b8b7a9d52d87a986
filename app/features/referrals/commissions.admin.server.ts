/**
 * Admin ambassador commission tracking (docs/product.md#commissions,
 * docs/product.md#commissions).
 *
 * A proposal earns its ambassador a commission once the client approved it: rate (settings,
 * default 15 %) × base (the invoice total when there is one, else the budget), rounded half
 * up to the cent per proposal (`commission.ts`). "Owed" is the commission of approved
 * proposals not yet paid, at today's rate; "paid" is what was recorded when the admin
 * marked it paid (`commission_paid_cents`), so a later rate change does not rewrite history.
 *
 * Every function checks that the actor is an admin before reading or writing anything.
 */
import { and, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "#app/db/client.server";
import { readTally, type TallyBucket } from "#app/db/tally.server";
import { invoice, proposal, user, type ProposalStatus } from "#app/db/schema";
import { clientNameSql } from "#app/features/users/client-name.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueUserUpdate } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
import { AppError, notFound } from "#app/lib/errors";
import { DEFAULT_CURRENCY, formatCents } from "#app/lib/money";
import { EXPORT_BATCH_SIZE, keysetBatches } from "#app/lib/csv.server";
import {
  containsPattern,
  cursorKeySql,
  keysetPage,
  SEARCH_COUNT_CAP,
  type KeysetQuery,
  type Page,
  type PageRequest,
} from "#app/lib/pagination";
import { commissionBaseCents, commissionCents } from "./commission";

export const COMMISSION_MESSAGES = {
  notApproved: "Only client-approved proposals earn a commission. This proposal has not been approved by its client.",
  alreadyPaid: "This commission has already been marked as paid.",
  noBase: "This proposal has neither an invoice nor a budget, so there is no commission to pay.",
  notAmbassadorProposal: "This proposal has no ambassador.",
} as const;

/**
 * Commission of one proposal in SQL, the same arithmetic as {@link commissionCents}:
 * floor((base × rateBps + 5000) / 10000) with base = invoice total, else budget (bigint, so
 * large amounts cannot overflow).
 */
function commissionSql(rateBps: number): SQL<number> {
  return sql<number>`((coalesce(${invoice.totalCents}, ${proposal.budgetCents})::bigint * ${rateBps}::bigint + 5000) / 10000)`;
}

/** Owed and paid totals, in cents. */
export interface CommissionTotals {
  /** Approved, not yet paid: at the current rate. */
  owedCents: number;
  /** Marked paid: the amounts recorded at payment. */
  paidCents: number;
}

/** Aggregates owed and paid commission over the proposals matching `where`. */
function totalsSelection(rateBps: number) {
  const approved = sql`${proposal.clientApprovedAt} is not null`;
  return {
    owedCents:
      sql<number>`coalesce(sum(${commissionSql(rateBps)}) filter (where ${approved} and ${proposal.commissionPaidAt} is null), 0)`.mapWith(
        Number,
      ),
    paidCents:
      sql<number>`coalesce(sum(coalesce(${proposal.commissionPaidCents}, ${commissionSql(rateBps)})) filter (where ${proposal.commissionPaidAt} is not null), 0)`.mapWith(
        Number,
      ),
  };
}

/**
 * The owed and paid totals over all ambassadors from the trigger-kept commission tally
 * (migration `0004_commission_tally.sql`), equal to summing {@link commissionSql} per proposal:
 * bucket `paid` holds the amounts recorded at payment; bucket `owed:<m>` the approved, unpaid
 * proposals whose base has base mod 10000 = m, with `cents` = Σ (base div 10000). Since
 * floor((base·r + 5000) / 10000) = (base div 10000)·r + floor((m·r + 5000) / 10000), the
 * owed total at rate r is Σ cents·r + n·floor((m·r + 5000) / 10000).
 *
 * @param buckets - `readTally(db, "commission")`.
 * @param rateBps - today's rate in basis points.
 * @returns totals in cents.
 */
export function commissionTotalsFromTally(buckets: TallyBucket[], rateBps: number): CommissionTotals {
  let owedCents = 0;
  let paidCents = 0;
  for (const { bucket, n, cents } of buckets) {
    if (bucket === "paid") paidCents += cents;
    else if (bucket.startsWith("owed:"))
      owedCents += cents * rateBps + n * Math.floor((Number(bucket.slice(5)) * rateBps + 5_000) / 10_000);
  }
  return { owedCents, paidCents };
}

/** One ambassador in the admin list, with their commission totals (cents). */
export interface AdminAmbassadorRow extends CommissionTotals {
  id: string;
  name: string;
  email: string;
  referralCode: string | null;
  active: boolean;
  createdAt: string | null;
  referredClients: number;
  proposals: number;
  approvedProposals: number;
}

const ambassadorOrdering = { sort: user.createdAt, id: user.id };

/**
 * Lists ambassadors, newest first, with referral code, referred clients, proposals and
 * commission owed and paid (docs/product.md#commissions).
 *
 * @param filters.q - case-insensitive substring of name, e-mail or referral code.
 * @returns the page, plus totals over all ambassadors and the rate used (basis points).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listAmbassadorsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: AmbassadorListFilters,
  page: PageRequest,
): Promise<Page<AdminAmbassadorRow> & { totals: CommissionTotals; rateBps: number }> {
  assertRole(actor, "admin");
  const { commissionRateBps: rateBps } = await getSettings(db);
  const where = ambassadorListWhere(filters);
  const result = await keysetPage(
    db,
    { order: ambassadorOrdering, request: page, table: user, where, countCap: filters.q ? SEARCH_COUNT_CAP : undefined },
    (keyset) => fetchAmbassadorRows(db, keyset),
  );
  return {
    ...result,
    rateBps,
    totals: commissionTotalsFromTally(await readTally(db, "commission"), rateBps),
    items: await withCommissionStats(db, result.items, rateBps),
  };
}

/** Filters of the admin ambassador (commission) list and its CSV export. */
export interface AmbassadorListFilters {
  /** Case-insensitive substring of name, e-mail or referral code. */
  q?: string;
}

/** The list's WHERE clause (filters only, no keyset predicate), shared by pages and export. */
function ambassadorListWhere(filters: AmbassadorListFilters): SQL | undefined {
  const conditions: SQL[] = [eq(user.role, "ambassador")];
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(or(ilike(user.name, pattern), ilike(user.email, pattern), ilike(user.referralCode, pattern))!);
  }
  return and(...conditions);
}

/** The list's select, for one page or one export batch. */
function fetchAmbassadorRows(db: Queryable, keyset: KeysetQuery) {
  return db
    .select({
      id: user.id,
      cursorKey: cursorKeySql(ambassadorOrdering),
      name: user.name,
      email: user.email,
      referralCode: user.referralCode,
      banned: user.banned,
      createdAt: user.createdAt,
    })
    .from(user)
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

type AmbassadorBaseRow = Omit<Awaited<ReturnType<typeof fetchAmbassadorRows>>[number], "cursorKey">;

/** Adds referred clients, proposals and commission owed/paid to a page or batch of ambassadors (two grouped queries). */
async function withCommissionStats(db: Queryable, rows: AmbassadorBaseRow[], rateBps: number): Promise<AdminAmbassadorRow[]> {
  const ids = rows.map((row) => row.id);
  const stats = ids.length
    ? await db
        .select({
          ambassadorId: proposal.ambassadorId,
          proposals: count(),
          approved: sql<number>`count(*) filter (where ${proposal.clientApprovedAt} is not null)`.mapWith(Number),
          ...totalsSelection(rateBps),
        })
        .from(proposal)
        .leftJoin(invoice, eq(invoice.proposalId, proposal.id))
        .where(inArray(proposal.ambassadorId, ids))
        .groupBy(proposal.ambassadorId)
    : [];
  const referred = ids.length
    ? await db
        .select({ ambassadorId: user.referredById, n: count() })
        .from(user)
        .where(inArray(user.referredById, ids))
        .groupBy(user.referredById)
    : [];
  const statsById = new Map(stats.map((x) => [x.ambassadorId, x]));
  const referredById = new Map(referred.map((x) => [x.ambassadorId, x.n]));
  return rows.map(({ banned, createdAt, ...row }) => {
    const s = statsById.get(row.id);
    return {
      ...row,
      active: !banned,
      createdAt: toIsoOrNull(createdAt),
      referredClients: referredById.get(row.id) ?? 0,
      proposals: s?.proposals ?? 0,
      approvedProposals: s?.approved ?? 0,
      owedCents: s?.owedCents ?? 0,
      paidCents: s?.paidCents ?? 0,
    };
  });
}

/**
 * Every ambassador matching the list's filters with their commission owed and paid, newest
 * first, for the CSV export: the same filters, select and statistics as
 * {@link listAmbassadorsForAdmin}, read in keyset batches of 1,000 ambassadors.
 *
 * @returns an async iterable of rows (money in cents; one batch in memory at a time).
 * @throws {AppError} 403 unless the actor is an admin (before anything is read).
 */
export async function exportCommissionsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: AmbassadorListFilters,
): Promise<AsyncIterable<AdminAmbassadorRow>> {
  assertRole(actor, "admin");
  const { commissionRateBps: rateBps } = await getSettings(db);
  const rows = keysetBatches(ambassadorOrdering, ambassadorListWhere(filters), (keyset) => fetchAmbassadorRows(db, keyset));
  return (async function* () {
    let batch: AmbassadorBaseRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length === EXPORT_BATCH_SIZE) {
        yield* await withCommissionStats(db, batch, rateBps);
        batch = [];
      }
    }
    if (batch.length) yield* await withCommissionStats(db, batch, rateBps);
  })();
}

/** One proposal of an ambassador with its commission (cents). */
export interface AmbassadorProposalRow {
  id: number;
  projectName: string | null;
  clientName: string | null;
  clientEmail: string | null;
  status: ProposalStatus;
  clientApproved: boolean;
  budgetCents: number | null;
  invoiceTotalCents: number | null;
  /** Invoice total when there is one, else the budget. */
  baseCents: number | null;
  /** Paid amount when paid, else rate × base for approved proposals, else 0. */
  commissionCents: number;
  commissionPaidAt: string | null;
  createdAt: string | null;
}

/** One client the ambassador referred. */
export interface ReferredClientRow {
  id: string;
  name: string;
  email: string;
  createdAt: string | null;
}

/** The detail view of one ambassador (docs/product.md#commissions). */
export interface AmbassadorCommissions {
  ambassador: { id: string; name: string; email: string; referralCode: string | null; active: boolean };
  rateBps: number;
  totals: CommissionTotals;
  proposals: Page<AmbassadorProposalRow>;
  referredClients: Page<ReferredClientRow>;
}

const proposalOrdering = { sort: proposal.createdAt, id: proposal.id };

/**
 * One ambassador's referred clients and proposals, with the commission of each
 * client-approved proposal and the totals owed and paid.
 *
 * @param pages.proposals / pages.clients - keyset page requests of the two lists.
 * @throws {AppError} 403 unless the actor is an admin; 404 unless `ambassadorId` is an ambassador.
 */
export async function getAmbassadorCommissions(
  db: Queryable,
  actor: Actor,
  ambassadorId: string,
  pages: { proposals: PageRequest; clients: PageRequest },
): Promise<AmbassadorCommissions> {
  assertRole(actor, "admin");
  const [ambassador] = await db
    .select({ id: user.id, name: user.name, email: user.email, referralCode: user.referralCode, banned: user.banned })
    .from(user)
    .where(and(eq(user.id, ambassadorId), eq(user.role, "ambassador")));
  if (!ambassador) throw notFound("Ambassador not found");
  const { commissionRateBps: rateBps } = await getSettings(db);
  const client = alias(user, "client");
  const byAmbassador = eq(proposal.ambassadorId, ambassadorId);

  const proposals = await keysetPage(
    db,
    { order: proposalOrdering, request: pages.proposals, table: proposal, where: byAmbassador },
    (keyset) =>
      db
        .select({
          id: proposal.id,
          cursorKey: cursorKeySql(proposalOrdering),
          projectName: proposal.projectName,
          clientName: sql<string | null>`coalesce(${client.businessName}, ${client.name}, ${proposal.clientName})`,
          clientEmail: sql<string | null>`coalesce(${client.email}, ${proposal.clientEmail})`,
          status: proposal.status,
          clientApprovedAt: proposal.clientApprovedAt,
          budgetCents: proposal.budgetCents,
          invoiceTotalCents: invoice.totalCents,
          commissionPaidAt: proposal.commissionPaidAt,
          commissionPaidCents: proposal.commissionPaidCents,
          createdAt: proposal.createdAt,
        })
        .from(proposal)
        .leftJoin(client, eq(client.id, proposal.clientId))
        .leftJoin(invoice, eq(invoice.proposalId, proposal.id))
        .where(keyset.where)
        .orderBy(...keyset.orderBy)
        .limit(keyset.limit),
  );

  const referredWhere = eq(user.referredById, ambassadorId);
  const clientOrdering = { sort: user.createdAt, id: user.id };
  const referredClients = await keysetPage(
    db,
    { order: clientOrdering, request: pages.clients, table: user, where: referredWhere },
    (keyset) =>
      db
        .select({
          id: user.id,
          cursorKey: cursorKeySql(clientOrdering),
          name: clientNameSql(),
          email: user.email,
          createdAt: user.createdAt,
        })
        .from(user)
        .where(keyset.where)
        .orderBy(...keyset.orderBy)
        .limit(keyset.limit),
  );

  const [totals] = await db
    .select(totalsSelection(rateBps))
    .from(proposal)
    .leftJoin(invoice, eq(invoice.proposalId, proposal.id))
    .where(byAmbassador);

  return {
    ambassador: {
      id: ambassador.id,
      name: ambassador.name,
      email: ambassador.email,
      referralCode: ambassador.referralCode,
      active: !ambassador.banned,
    },
    rateBps,
    totals: { owedCents: totals?.owedCents ?? 0, paidCents: totals?.paidCents ?? 0 },
    proposals: {
      ...proposals,
      items: proposals.items.map(({ clientApprovedAt, commissionPaidCents, ...row }) => {
        const baseCents = commissionBaseCents(row);
        const approved = clientApprovedAt !== null;
        return {
          ...row,
          clientApproved: approved,
          baseCents,
          commissionCents: row.commissionPaidAt
            ? (commissionPaidCents ?? commissionCents(baseCents, rateBps))
            : approved
              ? commissionCents(baseCents, rateBps)
              : 0,
          commissionPaidAt: toIsoOrNull(row.commissionPaidAt),
          createdAt: toIsoOrNull(row.createdAt),
        };
      }),
    },
    referredClients: { ...referredClients, items: referredClients.items.map((row) => ({ ...row, createdAt: toIsoOrNull(row.createdAt) })) },
  };
}

/**
 * Mark as Paid (docs/product.md#commissions, only when the proposal is
 * client-approved). Records the amount paid (rate × base now) with the time and, in the same
 * transaction, one audit event `marked-paid` and a non-essential mail to the
 * ambassador (link /ambassador/earnings). Nothing is written or queued when refused.
 *
 * @returns the amount recorded, in cents.
 * @throws {AppError} 403 unless the actor is an admin; 404 unknown proposal; 409 not
 *   client-approved, no ambassador, already paid, or nothing to base the commission on.
 */
export async function markCommissionPaid(db: Database, actor: Actor, proposalId: number): Promise<{ paidCents: number }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        ambassadorId: proposal.ambassadorId,
        clientApprovedAt: proposal.clientApprovedAt,
        commissionPaidAt: proposal.commissionPaidAt,
        budgetCents: proposal.budgetCents,
      })
      .from(proposal)
      .where(eq(proposal.id, proposalId))
      .for("update");
    if (!row) throw notFound("Proposal not found");
    if (!row.ambassadorId) throw new AppError("CONFLICT", COMMISSION_MESSAGES.notAmbassadorProposal);
    if (!row.clientApprovedAt) throw new AppError("CONFLICT", COMMISSION_MESSAGES.notApproved);
    if (row.commissionPaidAt) throw new AppError("CONFLICT", COMMISSION_MESSAGES.alreadyPaid);
    const [inv] = await tx.select({ totalCents: invoice.totalCents }).from(invoice).where(eq(invoice.proposalId, proposalId));
    const { commissionRateBps } = await getSettings(tx);
    const base = commissionBaseCents({ invoiceTotalCents: inv?.totalCents, budgetCents: row.budgetCents });
    if (!base) throw new AppError("CONFLICT", COMMISSION_MESSAGES.noBase);
    const paidCents = commissionCents(base, commissionRateBps);
    const [updated] = await tx
      .update(proposal)
      .set({ commissionPaidAt: sql`now()`, commissionPaidCents: paidCents, updatedAt: sql`now()` })
      .where(eq(proposal.id, proposalId))
      .returning({ commissionPaidAt: proposal.commissionPaidAt, projectName: proposal.projectName });
    await recordAudit(tx, actor, {
      entity: "commission",
      entityId: proposalId,
      action: "marked-paid",
      before: { commissionPaidAt: null, commissionPaidCents: null },
      after: { commissionPaidAt: updated!.commissionPaidAt, commissionPaidCents: paidCents },
    });
    const { currency } = await getSettings(tx);
    const project = updated!.projectName || `proposal #${proposalId}`;
    await queueUserUpdate(tx, row.ambassadorId, {
      subject: `Commission paid: ${formatCents(paidCents, currency || DEFAULT_CURRENCY)}`,
      lines: [`Your commission of ${formatCents(paidCents, currency || DEFAULT_CURRENCY)} for ${project} was marked as paid.`],
      link: { label: "View your earnings", path: "/ambassador/earnings" },
    });
    return { paidCents };
  });
}

/**
 * Mark unpaid (docs/product.md#commissions-paying): the reversal of {@link markCommissionPaid} —
 * the payment time and the amount recorded are cleared, so the commission follows today's rate
 * and base again; one audit event `marked-unpaid` (the values before and after). The proposal
 * row is locked, so two reversals at once change it once. An unpaid commission changes nothing.
 *
 * @returns whether it changed, and the amount that had been recorded (cents).
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown proposal.
 */
export async function markCommissionUnpaid(
  db: Database,
  actor: Actor,
  proposalId: number,
): Promise<{ changed: boolean; paidCents: number | null }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ commissionPaidAt: proposal.commissionPaidAt, commissionPaidCents: proposal.commissionPaidCents })
      .from(proposal)
      .where(eq(proposal.id, proposalId))
      .for("update");
    if (!row) throw notFound("Proposal not found");
    if (!row.commissionPaidAt) return { changed: false, paidCents: null };
    await tx
      .update(proposal)
      .set({ commissionPaidAt: null, commissionPaidCents: null, updatedAt: sql`now()` })
      .where(eq(proposal.id, proposalId));
    await recordAudit(tx, actor, {
      entity: "commission",
      entityId: proposalId,
      action: "marked-unpaid",
      before: { commissionPaidAt: row.commissionPaidAt, commissionPaidCents: row.commissionPaidCents },
      after: { commissionPaidAt: null, commissionPaidCents: null },
    });
    return { changed: true, paidCents: row.commissionPaidCents };
  });
}
