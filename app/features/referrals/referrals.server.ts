/**
 * Ambassador dashboard and earnings queries (docs/product.md#ambassadors, docs/product.md#earnings
 * ambassador users and proposals, docs/product.md#commissions), and the client's
 * referring ambassador (dashboard info card). Commission arithmetic is in `commission.ts`.
 */
import { and, count, desc, eq, isNotNull } from "drizzle-orm";
import { notFound } from "#app/lib/errors";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "#app/db/client.server";
import { invoice, proposal, user, type ProposalStatus } from "#app/db/schema";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { commissionBaseCents, commissionCents } from "./commission";

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
 * (`user.referredById` = the ambassador), and the ambassador's proposals with status and
 * client approval.
 *
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorDashboard(db: Database, actor: Actor, page = 1): Promise<AmbassadorDashboard> {
  assertRole(actor, "ambassador");
  const pageNumber = Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
  const [me] = await db.select({ referralCode: user.referralCode }).from(user).where(eq(user.id, actor.id));
  const referredClients = await db
    .select({ id: user.id, businessName: user.businessName, name: user.name, email: user.email, createdAt: user.createdAt })
    .from(user)
    .where(eq(user.referredById, actor.id))
    .orderBy(desc(user.createdAt))
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
  const [clients] = await db.select({ n: count() }).from(user).where(eq(user.referredById, actor.id));
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

/** One commission line of the earnings page. Money in cents. */
export interface EarningRow {
  proposalId: number;
  clientName: string | null;
  projectName: string | null;
  /** UTC instant the client approved it. */
  approvedAt: Date;
  /** The invoice total when there is an invoice, else the budget (null: neither known). */
  baseCents: number | null;
  /** `"invoice"` or `"budget"`: what the base is. */
  baseSource: "invoice" | "budget" | null;
  commissionCents: number;
  paidAt: Date | null;
}

/** The earnings page: lines and totals in cents, and the rate used. */
export interface AmbassadorEarnings {
  rateBps: number;
  currency: string;
  rows: EarningRow[];
  totals: { earnedCents: number; pendingCents: number; paidCents: number };
}

/**
 * Earnings (docs/product.md#earnings): for every proposal of the ambassador that
 * the client approved, commission = commissionCents(commissionBaseCents({ invoice total,
 * budget }), settings.commissionRateBps) — or, once paid, the amount the admin paid
 * (`commissionPaidCents`, frozen at payment, so a later rate change does not rewrite it).
 * Earned = all of them; pending payment = those with commissionPaidAt null; paid = those
 * with commissionPaidAt set (earned = pending + paid).
 *
 * @throws {AppError} 403 unless an ambassador.
 */
export async function getAmbassadorEarnings(db: Database, actor: Actor): Promise<AmbassadorEarnings> {
  assertRole(actor, "ambassador");
  const settings = await getSettings(db);
  const rows = await db
    .select({
      proposalId: proposal.id,
      clientName: proposal.clientName,
      projectName: proposal.projectName,
      approvedAt: proposal.clientApprovedAt,
      budgetCents: proposal.budgetCents,
      invoiceTotalCents: invoice.totalCents,
      paidAt: proposal.commissionPaidAt,
      paidCents: proposal.commissionPaidCents,
    })
    .from(proposal)
    .leftJoin(invoice, eq(invoice.proposalId, proposal.id))
    .where(and(eq(proposal.ambassadorId, actor.id), isNotNull(proposal.clientApprovedAt)))
    .orderBy(desc(proposal.clientApprovedAt), desc(proposal.id));
  const lines: EarningRow[] = rows.map((row) => {
    const baseCents = commissionBaseCents(row);
    return {
      proposalId: row.proposalId,
      clientName: row.clientName,
      projectName: row.projectName,
      approvedAt: row.approvedAt!,
      baseCents,
      baseSource: row.invoiceTotalCents != null ? "invoice" : row.budgetCents != null ? "budget" : null,
      commissionCents: row.paidAt && row.paidCents != null ? row.paidCents : commissionCents(baseCents, settings.commissionRateBps),
      paidAt: row.paidAt,
    };
  });
  const sum = (list: EarningRow[]) => list.reduce((total, line) => total + line.commissionCents, 0);
  const paidCents = sum(lines.filter((line) => line.paidAt));
  const pendingCents = sum(lines.filter((line) => !line.paidAt));
  return {
    rateBps: settings.commissionRateBps,
    currency: settings.currency,
    rows: lines,
    totals: { earnedCents: paidCents + pendingCents, pendingCents, paidCents },
  };
}

/**
 * The ambassador who referred a client (docs/product.md#client-dashboard), or null.
 *
 * @throws {AppError} 403 unless a client.
 */
export async function getReferringAmbassador(db: Database, actor: Actor): Promise<{ name: string } | null> {
  assertRole(actor, "client");
  const referrer = alias(user, "referrer");
  const [row] = await db
    .select({ name: referrer.name })
    .from(user)
    .innerJoin(referrer, and(eq(referrer.id, user.referredById), eq(referrer.role, "ambassador")))
    .where(eq(user.id, actor.id));
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
