/**
 * Admin view of ambassadors' commissions and payouts (docs/product.md#commissions-ledger,
 * docs/product.md#admin-ambassadors, ADR 017).
 *
 * Each ambassador's balance comes from the commission ledger (`ledger.server.ts` writes it):
 * pending (within the hold), payable (past the hold, not paid out; negative after a refund that
 * followed a payout) and paid out. "Create payout" takes all payable entries of one ambassador
 * whose sum is positive into one payout. The grand totals read the trigger-kept tally (entity
 * `commission`, buckets `unpaid` / `paid`, migration 0021) plus the pending entries, which are
 * few (those of the last hold period), through `commission_entries_open_payable_idx`.
 *
 * Every function checks that the actor is an admin before reading or writing anything.
 */
import { formatMailDate, readerTimeZone } from "#app/features/mail/mail-dates.server";
import { and, count, desc, eq, gt, ilike, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "#app/db/client.server";
import { readTally } from "#app/db/tally.server";
import { commissionEntries, payouts, proposal, user, type PayoutMethod } from "#app/db/schema";
import { clientNameSql } from "#app/features/users/client-name.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { now } from "#app/lib/clock.server";
import { toIsoOrNull } from "#app/lib/dates";
import { conflict, notFound } from "#app/lib/errors";
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
import { COMMISSION_STATE_LABELS, payoutTotalCents, type CommissionTotals } from "./commission";
import {
  fetchLedgerRows,
  ledgerOrdering,
  ledgerPage,
  ledgerTotals,
  ledgerTotalsByAmbassadorQuery,
  toLedgerRow,
  type LedgerRow,
} from "./ledger-queries.server";
import { fetchPayoutRows, payoutOrdering, payoutPage, toPayoutRow, type PayoutRow } from "./payout-queries.server";
import { PAYOUT_MESSAGES, PAYOUT_METHOD_LABELS } from "./payouts.messages";

export type { CommissionTotals, PayoutRow };

/**
 * The grand totals over all ambassadors at `at`: paid out and not yet paid out from the tally,
 * split into pending and payable by the (few) entries still within their hold.
 */
export async function grandCommissionTotals(q: Queryable, at: Date): Promise<CommissionTotals> {
  const buckets = await readTally(q, "commission");
  const cents = (bucket: string) => buckets.find((b) => b.bucket === bucket)?.cents ?? 0;
  const [pending] = await q
    .select({ cents: sql<number>`coalesce(sum(${commissionEntries.amountCents}), 0)`.mapWith(Number) })
    .from(commissionEntries)
    .where(and(isNull(commissionEntries.payoutId), gt(commissionEntries.payableAt, at)));
  const pendingCents = pending?.cents ?? 0;
  return { pendingCents, payableCents: cents("unpaid") - pendingCents, paidOutCents: cents("paid") };
}

/** One ambassador in the admin list, with their ledger totals (cents). */
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

/** Filters of the admin ambassador (commission) list and its CSV export. */
export interface AmbassadorListFilters {
  /** Case-insensitive substring of name, e-mail or referral code. */
  q?: string;
}

/**
 * Lists ambassadors, newest first, with referral code, referred clients, proposals and their
 * commission balances: pending, payable and paid out (docs/product.md#admin-ambassadors).
 *
 * @returns the page, plus the grand totals, today's rate (basis points) and hold (days).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listAmbassadorsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: AmbassadorListFilters,
  page: PageRequest,
): Promise<Page<AdminAmbassadorRow> & { totals: CommissionTotals; rateBps: number; holdDays: number }> {
  assertRole(actor, "admin");
  const { commissionRateBps: rateBps, commissionHoldDays: holdDays } = await getSettings(db);
  const at = now();
  const result = await keysetPage(
    db,
    {
      order: ambassadorOrdering,
      request: page,
      table: user,
      where: ambassadorListWhere(filters),
      countCap: filters.q ? SEARCH_COUNT_CAP : undefined,
    },
    (keyset) => fetchAmbassadorRows(db, keyset),
  );
  return {
    ...result,
    rateBps,
    holdDays,
    totals: await grandCommissionTotals(db, at),
    items: await withCommissionStats(db, result.items, at),
  };
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

/**
 * Adds referred clients, proposals and ledger totals to a page or batch of ambassadors: three grouped
 * subqueries joined to the page's ids, one statement (issue #42).
 */
async function withCommissionStats(db: Queryable, rows: AmbassadorBaseRow[], at: Date): Promise<AdminAmbassadorRow[]> {
  const ids = rows.map((row) => row.id);
  if (!ids.length) return [];
  const byProposals = db
    .select({
      ambassadorId: proposal.ambassadorId,
      proposals: sql<number>`count(*)`.as("proposals"),
      approved: sql<number>`count(*) filter (where ${proposal.clientApprovedAt} is not null)`.as("approved"),
    })
    .from(proposal)
    .where(inArray(proposal.ambassadorId, ids))
    .groupBy(proposal.ambassadorId)
    .as("by_proposals");
  const referredClient = alias(user, "referred_client");
  const byReferrals = db
    .select({ ambassadorId: referredClient.referredById, n: sql<number>`count(*)`.as("referred") })
    .from(referredClient)
    .where(inArray(referredClient.referredById, ids))
    .groupBy(referredClient.referredById)
    .as("by_referrals");
  const ledger = ledgerTotalsByAmbassadorQuery(db, ids, at).as("ledger");
  const found = await db
    .select({
      id: user.id,
      proposals: byProposals.proposals,
      approved: byProposals.approved,
      referred: byReferrals.n,
      pendingCents: ledger.pendingCents,
      payableCents: ledger.payableCents,
      paidOutCents: ledger.paidOutCents,
    })
    .from(user)
    .leftJoin(byProposals, eq(byProposals.ambassadorId, user.id))
    .leftJoin(byReferrals, eq(byReferrals.ambassadorId, user.id))
    .leftJoin(ledger, eq(ledger.ambassadorId, user.id))
    .where(inArray(user.id, ids));
  const statsById = new Map(found.map((x) => [x.id, x]));
  return rows.map(({ banned, createdAt, ...row }) => {
    const s = statsById.get(row.id);
    return {
      ...row,
      active: !banned,
      createdAt: toIsoOrNull(createdAt),
      referredClients: Number(s?.referred ?? 0),
      proposals: Number(s?.proposals ?? 0),
      approvedProposals: Number(s?.approved ?? 0),
      pendingCents: Number(s?.pendingCents ?? 0),
      payableCents: Number(s?.payableCents ?? 0),
      paidOutCents: Number(s?.paidOutCents ?? 0),
    };
  });
}

/**
 * Every ambassador matching the list's filters with their balances, newest first, for the CSV
 * export (the list's filters, select and statistics), in keyset batches of 1,000 ambassadors.
 *
 * @throws {AppError} 403 unless the actor is an admin (before anything is read).
 */
export async function exportCommissionsForAdmin(
  db: Queryable,
  actor: Actor,
  filters: AmbassadorListFilters,
): Promise<AsyncIterable<AdminAmbassadorRow>> {
  assertRole(actor, "admin");
  const at = now();
  const rows = keysetBatches(ambassadorOrdering, ambassadorListWhere(filters), (keyset) => fetchAmbassadorRows(db, keyset));
  return (async function* () {
    let batch: AmbassadorBaseRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length === EXPORT_BATCH_SIZE) {
        yield* await withCommissionStats(db, batch, at);
        batch = [];
      }
    }
    if (batch.length) yield* await withCommissionStats(db, batch, at);
  })();
}

/** The detail view of one ambassador (docs/product.md#admin-ambassadors). */
export interface AmbassadorCommissions {
  ambassador: { id: string; name: string; email: string; referralCode: string | null; active: boolean };
  totals: CommissionTotals;
  /** The payout "Create payout" would make now (cents), or null when the payable balance is not positive. */
  payoutCents: number | null;
  entries: Page<LedgerRow>;
  payouts: Page<PayoutRow>;
  referredClients: Page<ReferredClientRow>;
}

/** One client the ambassador referred. */
export interface ReferredClientRow {
  id: string;
  name: string;
  email: string;
  createdAt: string | null;
}

/**
 * One ambassador's ledger, payouts and referred clients, with their totals.
 *
 * @param pages - keyset page requests of the three lists.
 * @throws {AppError} 403 unless the actor is an admin; 404 unless `ambassadorId` is an ambassador.
 */
export async function getAmbassadorCommissions(
  db: Queryable,
  actor: Actor,
  ambassadorId: string,
  pages: { entries: PageRequest; payouts: PageRequest; clients: PageRequest },
): Promise<AmbassadorCommissions> {
  assertRole(actor, "admin");
  const ambassador = await findAmbassador(db, ambassadorId);
  const at = now();
  const entries = await ledgerPage(db, ambassadorId, pages.entries, at);
  const payoutsOfAmbassador = await payoutPage(db, ambassadorId, pages.payouts);
  const clientOrdering = { sort: user.createdAt, id: user.id };
  const referredClients = await keysetPage(
    db,
    { order: clientOrdering, request: pages.clients, table: user, where: eq(user.referredById, ambassadorId) },
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
  const totals = await ledgerTotals(db, ambassadorId, at);
  return {
    ambassador,
    totals,
    payoutCents: totals.payableCents > 0 ? totals.payableCents : null,
    entries,
    payouts: payoutsOfAmbassador,
    referredClients: { ...referredClients, items: referredClients.items.map((row) => ({ ...row, createdAt: toIsoOrNull(row.createdAt) })) },
  };
}

async function findAmbassador(q: Queryable, ambassadorId: string) {
  const [row] = await q
    .select({ id: user.id, name: user.name, email: user.email, referralCode: user.referralCode, banned: user.banned })
    .from(user)
    .where(and(eq(user.id, ambassadorId), eq(user.role, "ambassador")));
  if (!row) throw notFound("Ambassador not found");
  const { banned, ...rest } = row;
  return { ...rest, active: !banned };
}

/** What "Create payout" takes (validated by `payoutSchema`). */
export interface PayoutInput {
  /** The bank or PayPal reference, 1–200 characters. */
  reference: string;
  method: PayoutMethod;
  /** When the money was sent (UTC instant; a date's midnight UTC from the form). */
  paidAt: Date;
}

/** Arbitrary constant for the per-ambassador payout advisory lock. */
const PAYOUT_LOCK_ID = 727_274_025;

/** Most entries listed one by one in the statement e-mail (the rest are summed in one line). */
const STATEMENT_LINES = 50;

/**
 * Create payout (docs/product.md#commissions-payouts): takes every payable entry of the
 * ambassador (past its hold, not paid out — refunds included) into one payout when their sum is
 * positive, marks them paid out, and in the same transaction records the audit event
 * `payout/created`, and queues the ambassador's statement e-mail (every entry and the total). A
 * negative or zero payable balance creates nothing: it carries over and is netted against the
 * next payout. Two payouts of one ambassador at once are serialised (advisory lock), so an entry
 * is never paid twice: the second finds nothing payable.
 *
 * @returns the payout's id, total (cents), number of entries and the ambassador's name.
 * @throws {AppError} 403 unless an admin; 404 unknown ambassador; 409 when the payable balance is not positive.
 */
export async function createPayout(
  db: Database,
  actor: Actor,
  ambassadorId: string,
  input: PayoutInput,
): Promise<{ payoutId: number; totalCents: number; entries: number; ambassadorName: string }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const ambassador = await findAmbassador(tx, ambassadorId);
    await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_ID}, hashtext(${ambassadorId}))`);
    const at = now();
    const payable = await tx
      .select({ id: commissionEntries.id, amountCents: commissionEntries.amountCents, currency: commissionEntries.currency })
      .from(commissionEntries)
      .where(
        and(eq(commissionEntries.ambassadorId, ambassadorId), isNull(commissionEntries.payoutId), lte(commissionEntries.payableAt, at)),
      )
      .for("update");
    const totalCents = payoutTotalCents(payable);
    if (totalCents === null) {
      const balance = payable.reduce((sum, e) => sum + e.amountCents, 0);
      const { currency } = await getSettings(tx);
      throw conflict(PAYOUT_MESSAGES.nothingPayable(formatCents(balance, currency || DEFAULT_CURRENCY)));
    }
    const currency = payable[0]?.currency ?? DEFAULT_CURRENCY;
    const [payout] = await tx
      .insert(payouts)
      .values({
        ambassadorId,
        totalCents,
        currency,
        reference: input.reference,
        method: input.method,
        paidAt: input.paidAt,
        createdBy: actor.id,
        createdAt: at,
      })
      .returning({ id: payouts.id });
    const ids = payable.map((e) => e.id);
    await tx.update(commissionEntries).set({ payoutId: payout!.id }).where(inArray(commissionEntries.id, ids));
    await recordAudit(tx, actor, {
      entity: "payout",
      entityId: payout!.id,
      action: "created",
      after: {
        ambassadorId,
        ambassadorEmail: ambassador.email,
        totalCents,
        currency,
        entries: ids.length,
        reference: input.reference,
        method: input.method,
        paidAt: input.paidAt,
      },
    });
    await queueUserNotice(tx, ambassadorId, await payoutStatement(tx, payout!.id, { totalCents, currency, ...input }));
    return { payoutId: payout!.id, totalCents, entries: ids.length, ambassadorName: ambassador.name };
  });
}

/** The statement e-mail of a payout: every entry (up to {@link STATEMENT_LINES}) and the total. */
async function payoutStatement(q: Queryable, payoutId: number, p: PayoutInput & { totalCents: number; currency: string }) {
  const money = (cents: number) => formatCents(cents, p.currency);
  const rows = (
    await fetchLedgerRows(q, {
      where: eq(commissionEntries.payoutId, payoutId),
      orderBy: [desc(ledgerOrdering.sort), desc(ledgerOrdering.id)],
      limit: STATEMENT_LINES + 1,
    })
  ).map((row) => toLedgerRow(row, now()));
  const [counted] = await q.select({ n: count() }).from(commissionEntries).where(eq(commissionEntries.payoutId, payoutId));
  const shown = rows.slice(0, STATEMENT_LINES);
  // Dates in words (issue #41): the payout's day is a calendar date; entries in the reader's zone.
  const [payoutRow] = await q.select({ ambassadorId: payouts.ambassadorId }).from(payouts).where(eq(payouts.id, payoutId));
  const zone = await readerTimeZone(q, payoutRow?.ambassadorId);
  const lines = [
    `Your commission payout of ${money(p.totalCents)} was sent on ${formatMailDate(p.paidAt, "UTC")} by ${PAYOUT_METHOD_LABELS[p.method].toLowerCase()}, reference ${p.reference}.`,
    "Statement:",
    ...shown.map(
      (row) =>
        `${formatMailDate(new Date(row.createdAt), zone)} · ${row.clientName ?? "—"} · ${row.invoiceNumber ?? "—"} · ${row.kind === "refund" ? "refund" : row.kind === "historical" ? "paid before the ledger" : "payment"} ${money(row.baseCents)} × ${row.rateBps / 100} % = ${money(row.amountCents)}`,
    ),
  ];
  const more = (counted?.n ?? 0) - shown.length;
  if (more > 0) lines.push(`…and ${more} more entries (see your earnings page).`);
  lines.push(`Total: ${money(p.totalCents)}.`);
  return {
    subject: `Commission payout: ${money(p.totalCents)}`,
    lines,
    link: { label: "View your earnings", path: "/ambassador/earnings" },
  };
}

/**
 * Every payout, newest first, for the CSV of all payouts (keyset batches of 1,000).
 *
 * @throws {AppError} 403 unless an admin (before anything is read).
 */
export async function exportPayoutsForAdmin(db: Queryable, actor: Actor): Promise<AsyncIterable<PayoutRow>> {
  assertRole(actor, "admin");
  const rows = keysetBatches(payoutOrdering, undefined, (keyset) => fetchPayoutRows(db, keyset));
  return (async function* () {
    for await (const row of rows) yield toPayoutRow(row);
  })();
}

/**
 * One payout and its entries, for the CSV of one payout.
 *
 * @returns the payout and its entries (an async iterable, batches of 1,000).
 * @throws {AppError} 403 unless an admin; 404 for an unknown payout.
 */
export async function exportPayoutForAdmin(
  db: Queryable,
  actor: Actor,
  payoutId: number,
): Promise<{ payout: PayoutRow; entries: AsyncIterable<LedgerRow & { payout: PayoutRow }> }> {
  assertRole(actor, "admin");
  const [row] = await fetchPayoutRows(db, { where: eq(payouts.id, payoutId), orderBy: [], limit: 1 });
  if (!row) throw notFound(PAYOUT_MESSAGES.notFound);
  const payout = toPayoutRow(row);
  const at = now();
  const rows = keysetBatches(ledgerOrdering, eq(commissionEntries.payoutId, payoutId), (keyset) => fetchLedgerRows(db, keyset));
  return {
    payout,
    entries: (async function* () {
      for await (const entry of rows) yield { ...toLedgerRow(entry, at), payout };
    })(),
  };
}

export { COMMISSION_STATE_LABELS };
