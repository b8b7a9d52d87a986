/**
 * One proposal read in full (docs/product.md#proposal-pages): the client's proposal page
 * `/proposals/:proposalId` and the admin's `/admin/proposals/:proposalId`. Each reader checks the
 * actor's right itself: an admin reads any proposal; a client reads only what project status lists
 * for them (their own requests, and ambassador proposals addressed to them once their address is
 * verified); anything else is the same 404 "Proposal not found".
 */
import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "#app/db/client.server";
import { memoPeek, memoRead } from "#app/db/request-memo.server";
import { proposal, user, type ProposalStatus, type WebsiteGoal } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { clientActions, type ClientProposalActions } from "./proposal-rules";
import { PROPOSAL_MESSAGES } from "./proposals.messages";
import { emailVerified, visibleToClient } from "./client-visibility.server";
import { hasOrganisationRole, MONEY_ROLES } from "#app/features/organisations/access.server";
import { listInvoicesOfProposal } from "#app/features/invoices/proposal-invoices.server";

/** Every field of a proposal's request and its state. Money in cents; instants UTC. */
export interface ProposalDetail {
  id: number;
  source: "client" | "ambassador";
  projectName: string | null;
  projectDetails: string;
  timeline: string | null;
  budgetCents: number | null;
  targetAudience: string | null;
  designInspiration: string | null;
  numberOfPages: number | null;
  websiteGoal: WebsiteGoal | null;
  status: ProposalStatus;
  revisionComment: string | null;
  clientApprovedAt: Date | null;
  clientDeclinedAt: Date | null;
  declineReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The client: their account when they have one, else the name and address the ambassador gave. */
  client: { id: string | null; name: string | null; email: string | null };
  /** The ambassador who submitted it (ambassador proposals), else null. */
  ambassador: { id: string; name: string; email: string } | null;
  /** The proposal's invoices, oldest first (#37: deposit, milestones, extras); [] before the first. */
  invoices: { id: number; number: string }[];
}

const clientUser = alias(user, "detail_client");
const ambassadorUser = alias(user, "detail_ambassador");

/** The request memo's key of {@link readProposalFor}: everything that decides the answer. */
function proposalReadKey(actor: Actor, verified: boolean, proposalId: number): string {
  return `proposal-detail:${actor.role}:${actor.id}:${actor.organisationId ?? ""}:${actor.organisationRole ?? ""}:${verified}:${proposalId}`;
}

/**
 * The proposal row with its client's and ambassador's names, as `actor` may read it: any for an
 * admin, else {@link visibleToClient}'s. Read once per request (issue #42: the page's detail and
 * its agreement or offer share it), keyed by everything that decides the answer — the actor, their
 * organisation and role there, their address's verification and the proposal — so one actor's
 * answer is never another's. `actorName` is the actor's display name (their name, else their
 * e-mail), as the conversation keeps it on their messages.
 *
 * @returns the row, or null when there is none the actor may read.
 * @throws {AppError} 403 unless an admin or a client.
 */
export async function readProposalFor(q: Queryable, actor: Actor, proposalId: number) {
  if (actor.role !== "admin") assertRole(actor, "client");
  const verified = actor.role === "admin" || (await emailVerified(q, actor));
  return memoRead(q, proposalReadKey(actor, verified, proposalId), async () => {
    const where = actor.role === "admin" ? eq(proposal.id, proposalId) : and(eq(proposal.id, proposalId), visibleToClient(actor, verified));
    const [row] = await q
      .select({
        p: proposal,
        clientName: clientUser.businessName,
        clientUserName: clientUser.name,
        clientEmail: clientUser.email,
        ambassadorId: ambassadorUser.id,
        ambassadorName: ambassadorUser.name,
        ambassadorEmail: ambassadorUser.email,
        actorName: sql<string>`coalesce((select nullif(${user.name}, '') from ${user} where ${user.id} = ${actor.id}), ${actor.email}::text)`,
      })
      .from(proposal)
      .leftJoin(clientUser, eq(clientUser.id, proposal.clientId))
      .leftJoin(ambassadorUser, eq(ambassadorUser.id, proposal.ambassadorId))
      .where(where);
    return row ?? null;
  });
}

/**
 * {@link readProposalFor}'s answer when this request already read it, without reading (issue #42:
 * the conversation's access check on a proposal page, whose proposal the page read first).
 *
 * @returns the row (null: none the actor may read), or undefined when this request has not read it
 *   (or the actor's address verification is not known without a statement).
 */
export function knownProposalFor(
  q: Queryable,
  actor: Actor,
  proposalId: number,
): Promise<Awaited<ReturnType<typeof readProposalFor>>> | undefined {
  if (actor.role !== "admin" && actor.role !== "client") return undefined;
  if (actor.role === "client" && typeof actor.emailVerified !== "boolean") return undefined;
  return memoPeek(q, proposalReadKey(actor, actor.role === "admin" || actor.emailVerified === true, proposalId));
}

/** Both readers' detail: the proposal, its client, ambassador, then its invoices. */
async function readDetail(q: Queryable, actor: Actor, proposalId: number): Promise<ProposalDetail | null> {
  const row = await readProposalFor(q, actor, proposalId);
  if (!row) return null;
  const { p } = row;
  return {
    id: p.id,
    source: p.source,
    projectName: p.projectName,
    projectDetails: p.projectDetails,
    timeline: p.timeline,
    budgetCents: p.budgetCents,
    targetAudience: p.targetAudience,
    designInspiration: p.designInspiration,
    numberOfPages: p.numberOfPages,
    websiteGoal: p.websiteGoal,
    status: p.status,
    revisionComment: p.revisionComment,
    clientApprovedAt: p.clientApprovedAt,
    clientDeclinedAt: p.clientDeclinedAt,
    declineReason: p.declineReason,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    client: {
      id: p.clientId,
      name: row.clientName ?? row.clientUserName ?? p.clientName,
      email: row.clientEmail ?? p.clientEmail,
    },
    ambassador:
      row.ambassadorId !== null ? { id: row.ambassadorId, name: row.ambassadorName ?? "", email: row.ambassadorEmail ?? "" } : null,
    invoices: (await listInvoicesOfProposal(q, p.id)).map(({ id, number }) => ({ id, number })),
  };
}

/**
 * The admin's proposal page (docs/product.md#proposal-pages): any proposal, every field.
 *
 * @param proposalId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @throws {AppError} 403 unless an admin; 404 "Proposal not found" for an unknown id.
 */
export async function getProposalForAdmin(q: Queryable, actor: Actor, proposalId: number): Promise<ProposalDetail> {
  assertRole(actor, "admin");
  const detail = await readDetail(q, actor, proposalId);
  if (!detail) throw notFound(PROPOSAL_MESSAGES.notFound);
  return detail;
}

/**
 * The client's proposal page (docs/product.md#proposal-pages): a proposal project status lists
 * for them, every field, with what they may do with it now. The ambassador's e-mail is left out.
 *
 * @throws {AppError} 403 unless a client; 404 "Proposal not found" for an unknown id, another
 *   client's proposal, or an ambassador proposal while the client's address is unverified.
 */
export async function getProposalForClient(
  q: Queryable,
  actor: Actor,
  proposalId: number,
): Promise<{ proposal: ProposalDetail; allowed: ClientProposalActions }> {
  assertRole(actor, "client");
  const detail = await readDetail(q, actor, proposalId);
  if (!detail) throw notFound(PROPOSAL_MESSAGES.notFound);
  // A member's role covers no money (docs/product.md#organisations): the invoice is not named to them.
  const invoicesShown = hasOrganisationRole(actor, MONEY_ROLES) ? detail.invoices : [];
  return {
    proposal: { ...detail, invoices: invoicesShown, ambassador: detail.ambassador ? { ...detail.ambassador, email: "" } : null },
    allowed: clientActions(detail, detail.invoices.length > 0),
  };
}
