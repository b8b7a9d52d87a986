/**
 * Ambassador dashboard and earnings queries (docs/product.md#ambassadors, docs/product.md#earnings
 * ambassador users and proposals, docs/product.md#commissions), and the client's
 * referring ambassador (dashboard info card). Commission arithmetic is in `commission.ts`.
 */
import { ANY_ROLE, inOrganisation } from "#app/features/organisations/access.server";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { notFound } from "#app/lib/errors";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "#app/db/client.server";
import { organisation, proposal, user, type ProposalStatus } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { now } from "#app/lib/clock.server";
import type { Page, PageRequest } from "#app/lib/pagination";
import type { CommissionTotals } from "./commission";
import { ledgerPage, ledgerTotals, type LedgerRow } from "./ledger-queries.server";
import { payoutCoverage, payoutPage, type PayoutCoverage, type PayoutRow } from "./payout-queries.server";

/** Most rows one dashboard list shows (newest first). */
const DASHBOARD_LIST_LIMIT = 200;
/** Proposals per page of the ambassador dashboard. */
export const DASHBOARD_PAGE_SIZE = 10;

/** What the ambassador's dashboard shows. */
export interface AmbassadorDashboard {
  /** Lowercased referral code, or null when missing (the page then explains it). */
  referralCode: string | null;
  /** Counts for the summary (docs/product.md#ambassador-dashboard). */
  summary: { referredClients: number; proposals: number; byStatus: Partial<Record<ProposalStatus, number>> };
  /** The proposals page shown: its number (1-based), size and how many pages there are. */
  page: { number: number; size: number; pages: number };
  /** Clients who registered through the referral link, newest first. */
  referredClients: { id: string; businessName: string | null; name: string; email: string; createdAt: Date }[];
  /** One page of the ambassador's proposals, newest first. */
  proposals: {
    id: number;
    clientName: string | null;
    clientEmail: string | null;
    projectName: string | null;
    status: ProposalStatus;
    budgetCents: number | null;
    clientApprovedAt: Date | null;
    clientDeclinedAt: Date | null;
    declineReason: string | null;
    /** True once the addressed person has a client account. */
    clientRegistered: boolean;
    createdAt: Date;
  }[];
}

/**
 * Ambassador dashboard (docs/product.md#ambassador-dashboard): referral code, referred clients
 * (organisations whose `referredById` is the ambassador), and the ambassador's proposals with status and
 * client approval.
 *
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorDashboard(db: Database, actor: Actor, page = 1): Promise<AmbassadorDashboard> {
  assertRole(actor, "ambassador");
  const pageNumber = Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
  const [me] = await db.select({ referralCode: user.referralCode }).from(user).where(eq(user.id, actor.id));
  // Attribution is per organisation (docs/product.md#organisations): the organisations referred,
  // each named by its business name and its first owner's contact. (The outer id is written
  // qualified: drizzle writes a selected column unqualified, which would name the subquery's own.)
  const firstOwner = (column: "name" | "email") =>
    sql<string>`coalesce((select u.${sql.raw(column)} from membership m join "user" u on u.id = m.user_id where m.organisation_id = "organisation"."id" and m.role = 'owner' order by m.created_at, m.user_id limit 1), '')`;
  const referredClients = await db
    .select({
      id: sql<string>`${organisation.id}::text`,
      businessName: organisation.name,
      name: firstOwner("name"),
      email: firstOwner("email"),
      createdAt: organisation.createdAt,
    })
    .from(organisation)
    .where(eq(organisation.referredById, actor.id))
    .orderBy(desc(organisation.createdAt), desc(organisation.id))
    .limit(DASHBOARD_LIST_LIMIT);
  const rows = await db
    .select({
      id: proposal.id,
      clientName: proposal.clientName,
      clientEmail: proposal.clientEmail,
      projectName: proposal.projectName,
      status: proposal.status,
      budgetCents: proposal.budgetCents,
      clientApprovedAt: proposal.clientApprovedAt,
      clientDeclinedAt: proposal.clientDeclinedAt,
      declineReason: proposal.declineReason,
      clientId: proposal.clientId,
      createdAt: proposal.createdAt,
    })
    .from(proposal)
    .where(eq(proposal.ambassadorId, actor.id))
    .orderBy(desc(proposal.createdAt), desc(proposal.id))
    .limit(DASHBOARD_PAGE_SIZE)
    .offset((pageNumber - 1) * DASHBOARD_PAGE_SIZE);
  const byStatus = await db
    .select({ status: proposal.status, n: count() })
    .from(proposal)
    .where(eq(proposal.ambassadorId, actor.id))
    .groupBy(proposal.status);
  const [clients] = await db.select({ n: count() }).from(organisation).where(eq(organisation.referredById, actor.id));
  const proposalCount = byStatus.reduce((sum, row) => sum + row.n, 0);
  return {
    summary: {
      referredClients: clients!.n,
      proposals: proposalCount,
      byStatus: Object.fromEntries(byStatus.map((row) => [row.status, row.n])) as Partial<Record<ProposalStatus, number>>,
    },
    page: { number: pageNumber, size: DASHBOARD_PAGE_SIZE, pages: Math.max(1, Math.ceil(proposalCount / DASHBOARD_PAGE_SIZE)) },
    referralCode: me?.referralCode ?? null,
    referredClients,
    proposals: rows.map(({ clientId, ...row }) => ({ ...row, clientRegistered: clientId !== null })),
  };
}

/** The earnings page: the ledger (one page), its totals in cents, today's rate and hold. */
export interface AmbassadorEarnings {
  /** Today's rate for new approvals (basis points); each entry shows the rate frozen on its proposal. */
  rateBps: number;
  holdDays: number;
  currency: string;
  entries: Page<LedgerRow>;
  totals: CommissionTotals;
}

/**
 * Earnings (docs/product.md#earnings, docs/product.md#commissions-ledger): the ambassador's
 * commission ledger, newest first — one entry per payment or refund on the invoice of a proposal
 * they submitted and the client approved: date, client, invoice, payment, rate, commission and
 * state (Pending until the hold passes, then Payable, then Paid out) — and the totals pending,
 * payable and paid out. Only the actor's own entries are read.
 *
 * @param page - keyset page request of the ledger (25 per page by default).
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorEarnings(
  db: Queryable,
  actor: Actor,
  page: PageRequest = { size: EARNINGS_PAGE_SIZE },
): Promise<AmbassadorEarnings> {
  assertRole(actor, "ambassador");
  const settings = await getSettings(db);
  const at = now();
  return {
    rateBps: settings.commissionRateBps,
    holdDays: settings.commissionHoldDays,
    currency: settings.currency,
    entries: await ledgerPage(db, actor.id, page, at),
    totals: await ledgerTotals(db, actor.id, at),
  };
}

/**
 * The dashboard's commission totals (docs/product.md#ambassador-dashboard): pending, payable and
 * paid out, in cents.
 *
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorCommissionTotals(db: Queryable, actor: Actor): Promise<CommissionTotals & { currency: string }> {
  assertRole(actor, "ambassador");
  const { currency } = await getSettings(db);
  return { ...(await ledgerTotals(db, actor.id, now())), currency };
}

/** Ledger entries per page of the earnings page. */
export const EARNINGS_PAGE_SIZE = 25;

/** Payouts per page of the ambassador's Payouts page. */
export const PAYOUTS_PAGE_SIZE = 25;

/** One payout as its ambassador sees it: no admin's e-mail. Money in cents, instants ISO (UTC). */
export interface AmbassadorPayout extends Omit<PayoutRow, "createdByEmail" | "ambassadorName" | "ambassadorEmail"> {
  /** What it paid, per proposal (or billing plan). */
  covered: PayoutCoverage[];
}

/**
 * The ambassador's Payouts page (docs/product.md#commissions-ledger, issue #41): their own
 * payouts, newest first, 25 per page (keyset), each with the proposals and invoices whose
 * commissions it paid. Only the acting ambassador's payouts are read: the ambassador id is the
 * actor's, never a parameter.
 *
 * @param page - the keyset page request (`?after=` / `?before=`).
 * @returns the page of payouts (amounts in cents, `paidAt` an ISO instant, UTC).
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorPayouts(
  db: Queryable,
  actor: Actor,
  page: PageRequest = { size: PAYOUTS_PAGE_SIZE },
): Promise<Page<AmbassadorPayout>> {
  assertRole(actor, "ambassador");
  const payouts = await payoutPage(db, actor.id, page);
  const coverage = await payoutCoverage(
    db,
    payouts.items.map((p) => p.id),
  );
  return {
    ...payouts,
    items: payouts.items.map(({ createdByEmail: _admin, ambassadorName: _name, ambassadorEmail: _email, ...payout }) => ({
      ...payout,
      covered: coverage.get(payout.id) ?? [],
    })),
  };
}

/**
 * The ambassador who referred the client's current organisation (docs/product.md#client-dashboard), or null.
 *
 * @throws {AppError} 403 unless a client.
 */
export async function getReferringAmbassador(db: Database, actor: Actor): Promise<{ name: string } | null> {
  assertRole(actor, "client");
  const referrer = alias(user, "referrer");
  // The ambassador who referred the person's current organisation (attribution is per organisation).
  const [row] = await db
    .select({ name: referrer.name })
    .from(organisation)
    .innerJoin(referrer, and(eq(referrer.id, organisation.referredById), eq(referrer.role, "ambassador")))
    .where(inOrganisation(organisation.id, actor, ANY_ROLE));
  return row ?? null;
}

/**
 * The client of one of the ambassador's earlier proposals, to prefill "Submit another proposal for
 * this client" (docs/product.md#ambassador-dashboard).
 *
 * @returns the client's name and e-mail as the earlier proposal gave them.
 * @throws {AppError} 403 unless an ambassador; 404 when the proposal is not the ambassador's.
 */
export async function getProposalClientForAmbassador(
  db: Database,
  actor: Actor,
  proposalId: number,
): Promise<{ clientName: string; clientEmail: string }> {
  assertRole(actor, "ambassador");
  const [row] = await db
    .select({ clientName: proposal.clientName, clientEmail: proposal.clientEmail })
    .from(proposal)
    .where(and(eq(proposal.id, proposalId), eq(proposal.ambassadorId, actor.id)));
  if (!row) throw notFound("Proposal not found");
  return { clientName: row.clientName ?? "", clientEmail: row.clientEmail ?? "" };
}
