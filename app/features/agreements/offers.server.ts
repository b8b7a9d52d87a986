/**
 * The agency's offer (docs/product.md#offers): the admin writes it on `/admin/proposals/:id`, saves
 * drafts the client never sees, and sends it — which makes a numbered version
 * (`versions.server.ts`), mails the client and moves the proposal to "Awaiting acceptance". An
 * ambassador's proposal gets its version 1 when submitted. The client reads only sent versions.
 */
import { eq, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "#app/db/client.server";
import { proposal, proposalOffer, type ProposalStatus } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError, notFound } from "#app/lib/errors";
import { centsToInput, MAX_CENTS } from "#app/lib/money";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { publishProposalEvent } from "#app/features/live/live-events.server";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { isCompletedStatus } from "#app/features/proposals/proposal-rules";
import { getProposalForClient, readProposalFor } from "#app/features/proposals/proposal-detail.server";
import { AGREEMENT_MESSAGES } from "./agreements.messages";
import { depositCents, priceItems, type VersionTerms } from "./terms";
import {
  currentVersion,
  makeVersion,
  readAgreement,
  sameTerms,
  termsFor,
  type HistoryAcceptance,
  type OfferTermsInput,
  type StoredVersion,
  type TermsHistory,
} from "./versions.server";
import { depositText } from "./terms-diff.server";
import { scheduleProblem } from "./offer.schema";
import type { ScheduleDue, ScheduleLineTerms } from "./schedule";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { assertClientCanPay } from "#app/features/invoices/client-can-pay.server";

/** The offer form's values as text (what the inputs show). */
export interface OfferFormDefaults {
  projectName: string;
  scope: string;
  items: { description: string; quantity: string; unitPrice: string }[];
  timeline: string;
  depositKind: "none" | "amount" | "percent";
  depositValue: string;
  validUntil: string;
  /** The milestones of the payment schedule (#37), as the rows show them; `[]` = no schedule. */
  schedule: ScheduleRowText[];
  finalLabel: string;
  finalDueKind: "date" | "days_after_signing" | "milestone";
  finalDueDate: string;
  finalDueDays: string;
}

/** One milestone row of the offer form, as text. */
export interface ScheduleRowText {
  label: string;
  shareKind: "amount" | "percent";
  shareValue: string;
  dueKind: "date" | "days_after_signing" | "milestone";
  dueDate: string;
  dueDays: string;
}

function dueText(due: ScheduleDue): Pick<ScheduleRowText, "dueKind" | "dueDate" | "dueDays"> {
  return {
    dueKind: due.kind === "signing" ? "milestone" : due.kind,
    dueDate: due.kind === "date" ? due.date : "",
    dueDays: due.kind === "days_after_signing" ? String(due.days) : "",
  };
}

/** The current version as both pages show it. */
export interface CurrentVersionView {
  number: number;
  sha256: string;
  createdAt: Date;
  createdByName: string;
  terms: VersionTerms;
  /** The deposit in words ("30 % ($900.00)"), "None". */
  depositText: string;
  depositCents: number | null;
}

/** A standing acceptance of the current version. */
export interface AcceptanceView {
  versionNumber: number;
  typedName: string;
  acceptedAt: Date;
  certificateId: string;
}

/** What the admin's offer section shows. */
export interface AdminOfferView {
  form: OfferFormDefaults;
  /** The draft holds terms that differ from the current version (or there is no version yet). */
  unsentChanges: boolean;
  current: CurrentVersionView | null;
  acceptance: AcceptanceView | null;
  history: TermsHistory;
}

/** What the client's page shows of the agreement: only sent versions, never the draft. */
export interface ClientAgreementView {
  current: CurrentVersionView | null;
  acceptance: AcceptanceView | null;
  /** The client may accept the current version now. */
  canAccept: boolean;
  history: TermsHistory;
}

function inputFromTerms(terms: VersionTerms): OfferTermsInput {
  return {
    projectName: terms.projectName,
    scope: terms.scope,
    items: terms.items.map((i) => ({ description: i.description, quantity: i.quantity, unitPriceCents: i.unitPriceCents })),
    timeline: terms.timeline,
    deposit: terms.deposit,
    schedule: (terms.schedule ?? []).map((line) => ({ label: line.label, share: line.share, due: line.due })),
    validUntil: terms.validUntil,
  };
}

function toForm(input: OfferTermsInput): OfferFormDefaults {
  return {
    projectName: input.projectName,
    scope: input.scope,
    items: input.items.map((i) => ({
      description: i.description,
      quantity: String(i.quantity),
      unitPrice: centsToInput(i.unitPriceCents),
    })),
    timeline: input.timeline,
    depositKind: input.deposit?.kind ?? "none",
    depositValue: input.deposit ? (input.deposit.kind === "amount" ? centsToInput(input.deposit.value) : String(input.deposit.value)) : "",
    validUntil: input.validUntil ?? "",
    ...scheduleForm(input.schedule ?? []),
  };
}

/** The schedule as the form's rows: the milestones, then the final payment's fields. */
function scheduleForm(
  lines: readonly ScheduleLineTerms[],
): Pick<OfferFormDefaults, "schedule" | "finalLabel" | "finalDueKind" | "finalDueDate" | "finalDueDays"> {
  const final = lines.at(-1);
  const milestones = lines.slice(0, -1);
  const finalDue = final ? dueText(final.due) : { dueKind: "milestone" as const, dueDate: "", dueDays: "" };
  return {
    schedule: milestones.map((line) => ({
      label: line.label,
      shareKind: line.share.kind === "percent" ? "percent" : "amount",
      shareValue:
        line.share.kind === "percent" ? String(line.share.value / 100) : line.share.kind === "amount" ? centsToInput(line.share.value) : "",
      ...dueText(line.due),
    })),
    finalLabel: final?.label ?? "Final payment",
    finalDueKind: finalDue.dueKind,
    finalDueDate: finalDue.dueDate,
    finalDueDays: finalDue.dueDays,
  };
}

/** The offer a request suggests: its details as the scope, its budget as one line item. */
function fromRequest(p: typeof proposal.$inferSelect): OfferTermsInput {
  return {
    projectName: p.projectName ?? "",
    scope: p.projectDetails,
    items: [{ description: p.projectName || "Website project", quantity: 1, unitPriceCents: p.budgetCents ?? 0 }],
    timeline: p.timeline ?? "",
    deposit: null,
    schedule: [],
    validUntil: null,
  };
}

async function readDraft(q: Queryable, proposalId: number): Promise<OfferTermsInput | null> {
  const [row] = await q.select().from(proposalOffer).where(eq(proposalOffer.proposalId, proposalId));
  if (!row) return null;
  return {
    projectName: row.projectName,
    scope: row.scope,
    items: row.items,
    timeline: row.timeline,
    deposit: row.depositKind && row.depositValue !== null ? { kind: row.depositKind, value: row.depositValue } : null,
    schedule: row.schedule ?? [],
    validUntil: row.validUntil,
  };
}

function currentView(v: StoredVersion | null): CurrentVersionView | null {
  if (!v) return null;
  return {
    number: v.number,
    sha256: v.sha256,
    createdAt: v.createdAt,
    createdByName: v.createdByName,
    terms: v.terms,
    depositText: depositText(v.terms),
    depositCents: depositCents(v.terms.deposit, v.terms.totalCents),
  };
}

/** The standing acceptance when it is of the current version (an older one is shown in the History only). */
function acceptanceOf(standing: HistoryAcceptance | null, current: CurrentVersionView | null): AcceptanceView | null {
  if (!standing || !current || standing.versionNumber !== current.number) return null;
  return {
    versionNumber: standing.versionNumber,
    typedName: standing.typedName,
    acceptedAt: standing.acceptedAt,
    certificateId: standing.certificateId,
  };
}

/**
 * The admin's offer section: the form (the draft, else the current version, else the request),
 * the current version, its standing acceptance and the History.
 *
 * @throws {AppError} 403 unless an admin; 404 "Proposal not found".
 */
export async function getOfferForAdmin(q: Queryable, actor: Actor, proposalId: number): Promise<AdminOfferView> {
  assertRole(actor, "admin");
  // The proposal page reads the same row for its detail: one statement per request (issue #42).
  const p = (await readProposalFor(q, actor, proposalId))?.p;
  if (!p) throw notFound(PROPOSAL_MESSAGES.notFound);
  const [draft, { current: version, standing, history }] = await Promise.all([readDraft(q, proposalId), readAgreement(q, proposalId)]);
  const current = currentView(version);
  const formInput = draft ?? (version ? inputFromTerms(version.terms) : fromRequest(p));
  const unsentChanges = !version || sameTerms(version.terms, await termsFor(q, proposalId, formInput, version.number)) === false;
  return { form: toForm(formInput), unsentChanges, current, acceptance: acceptanceOf(standing, current), history };
}

/**
 * The client's view of the agreement (docs/product.md#offers): the current sent version, its
 * standing acceptance, whether they may accept it now, and the History. Never the draft.
 *
 * @throws {AppError} 403 unless a client; 404 "Proposal not found" for a proposal they may not see.
 */
export async function getAgreementForClient(q: Queryable, actor: Actor, proposalId: number): Promise<ClientAgreementView> {
  assertRole(actor, "client");
  // The client's visibility checked in the statement, shared with the page's detail (issue #42).
  const p = (await readProposalFor(q, actor, proposalId))?.p;
  if (!p) throw notFound(PROPOSAL_MESSAGES.notFound);
  const { current: version, standing, history } = await readAgreement(q, proposalId);
  const current = currentView(version);
  const acceptance = acceptanceOf(standing, current);
  return { current, acceptance, canAccept: current !== null && acceptance === null && acceptRefusal(p) === null, history };
}

/** Why the client may not accept now (declined, closed), or null. */
export function acceptRefusal(p: { clientDeclinedAt: Date | null; status: ProposalStatus }): string | null {
  if (p.clientDeclinedAt) return AGREEMENT_MESSAGES.declinedAlready;
  if (isCompletedStatus(p.status)) return AGREEMENT_MESSAGES.closed;
  return null;
}

/**
 * Checks the server-side money rules of an offer: the total's ceiling, the deposit within the total,
 * and a payment schedule that adds up to the total exactly in cents (#37).
 *
 * @throws {AppError} 400 on `items`, `depositValue` or `schedule`.
 */
function checkMoney(input: OfferTermsInput, currency: string): void {
  const { totalCents } = priceItems(input.items);
  if (totalCents > MAX_CENTS) throw fieldError("items", "The total must be at most $10,000,000.00.");
  if (input.deposit?.kind === "amount" && input.deposit.value > totalCents) {
    throw fieldError("depositValue", "The deposit cannot be more than the total.");
  }
  const schedule = input.schedule ?? [];
  if (schedule.length > 0 && schedule.at(-1)!.share.kind !== "rest")
    throw fieldError("schedule", "The final payment is the rest of the total.");
  const problem = scheduleProblem(totalCents, depositCents(input.deposit, totalCents), schedule, currency);
  if (problem) throw fieldError("schedule", problem);
}

async function upsertDraft(tx: Transaction, actor: Actor, proposalId: number, input: OfferTermsInput): Promise<void> {
  const values = {
    projectName: input.projectName,
    scope: input.scope,
    items: input.items,
    timeline: input.timeline,
    depositKind: input.deposit?.kind ?? null,
    depositValue: input.deposit?.value ?? null,
    schedule: input.schedule ?? [],
    validUntil: input.validUntil,
    updatedBy: actor.id,
    updatedAt: sql`now()`,
  };
  await tx
    .insert(proposalOffer)
    .values({ proposalId, ...values })
    .onConflictDoUpdate({ target: proposalOffer.proposalId, set: values });
}

/**
 * Saves the offer as a draft, or sends it (docs/product.md#offers).
 *
 * Draft: stored for the agency only (audited as `offer:draft-saved`, shown to admins only).
 * Send: when the terms differ from the current version (or there is none), makes the next version
 * (voiding a standing acceptance), clears a decline, moves the proposal to `awaiting_acceptance`
 * and mails the client a link; when nothing changed, no version is made.
 *
 * @param input - validated form output (cents, `YYYY-MM-DD`).
 * @param options.cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`): sending an
 *   offer that asks money (a deposit or a payment schedule) needs it or the Settings' payment instructions (#37).
 * @returns the message to show, and the version made (null for a draft or no change).
 * @throws {AppError} 403 unless an admin; 404 "Proposal not found"; 400 on `items` when the total
 *   exceeds $10,000,000.00, on `depositValue` when an amount exceeds the total; 409
 *   `INVOICE_MESSAGES.instructionsFirst` when sending an offer that asks money the client could not pay.
 */
export async function saveOffer(
  db: Database,
  actor: Actor,
  proposalId: number,
  input: OfferTermsInput,
  mode: "draft" | "send",
  options: { cardPayments: boolean },
): Promise<{ message: string; version: number | null; voided: number | null }> {
  assertRole(actor, "admin");
  checkMoney(input, currencyOf(await getSettings(db)));
  if (mode === "send" && (input.deposit !== null || (input.schedule?.length ?? 0) > 0)) await assertClientCanPay(db, options.cardPayments);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(proposal).where(eq(proposal.id, proposalId)).for("update");
    if (!row) throw notFound(PROPOSAL_MESSAGES.notFound);
    await upsertDraft(tx, actor, proposalId, input);
    if (mode === "draft") {
      await recordAudit(tx, actor, { entity: "offer", entityId: proposalId, proposalId, action: "draft-saved", after: { draft: true } });
      return { message: AGREEMENT_MESSAGES.draftSaved, version: null, voided: null };
    }
    const current = await currentVersion(tx, proposalId);
    if (current && sameTerms(current.terms, await termsFor(tx, proposalId, input, 0))) {
      return { message: AGREEMENT_MESSAGES.unchanged, version: null, voided: null };
    }
    const made = await makeVersion(tx, actor, row, input, { event: current ? "version-made" : "sent" });
    await moveToAwaitingAcceptance(tx, actor, row);
    const label = row.projectName || input.projectName || `Proposal #${row.id}`;
    if (row.clientId) {
      await queueUserNotice(tx, row.clientId, {
        subject: current ? `Offer updated (version ${made.number}): ${label}` : `Your offer is ready: ${label}`,
        lines: [
          current
            ? `The agency changed the offer for "${label}". Version ${made.number} replaces version ${current.number}.`
            : `The agency sent you its offer for "${label}".`,
          `Total: ${made.terms.items.length} line item${made.terms.items.length === 1 ? "" : "s"}, ${formatTotal(made.terms)}.`,
          made.terms.validUntil ? `The offer is valid until ${made.terms.validUntil}.` : "",
          "Read the full terms, then accept and sign them (or decline) on your proposal's page.",
        ].filter(Boolean),
        link: { label: `Read version ${made.number}`, path: `/proposals/${row.id}` },
        thread: row.id,
      });
    }
    await publishProposalEvent(tx, row.id, "proposal.offer-sent", {}, actor.id);
    return { message: AGREEMENT_MESSAGES.sent(made.number), version: made.number, voided: made.voided };
  });
}

function formatTotal(terms: VersionTerms): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: terms.currency }).format(terms.totalCents / 100);
}

/**
 * A new version waits for the client: clears the approval and a decline, and moves the status to
 * `awaiting_acceptance` (audited as a status change) — an ambassador's `submitted` proposal keeps
 * its status until it was accepted once.
 */
async function moveToAwaitingAcceptance(tx: Transaction, actor: Actor, row: typeof proposal.$inferSelect): Promise<void> {
  const keep = row.status === "submitted" && !row.clientApprovedAt;
  const status: ProposalStatus = keep ? row.status : "awaiting_acceptance";
  await tx
    .update(proposal)
    .set({ status, clientApprovedAt: null, clientDeclinedAt: null, declineReason: null, updatedAt: sql`now()` })
    .where(eq(proposal.id, row.id));
  if (status !== row.status) {
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: row.id,
      action: "status-changed",
      before: { status: row.status },
      after: { status },
    });
  }
}

/**
 * Version 1 of an ambassador's proposal, made when it is submitted (docs/product.md#offers): an
 * offer on the agency's behalf — its details as the scope, its budget as one line item.
 *
 * @param row - the new proposal, in the submission's transaction.
 */
export async function makeAmbassadorFirstVersion(tx: Transaction, actor: Actor, row: typeof proposal.$inferSelect): Promise<void> {
  const input = fromRequest(row);
  await upsertDraft(tx, actor, row.id, input);
  await makeVersion(tx, actor, row, input, { event: "version-made" });
}

/**
 * A client's proposal with its agreement, as the proposal page and the signing page load them
 * (docs/product.md#proposal-pages, #accept-and-sign): an ambassador proposal from before offers
 * existed gets its version 1 first ({@link ensureAmbassadorVersion}).
 *
 * @returns the proposal as {@link getProposalForClient} gives it, and `agreement`.
 * @throws {AppError} 403 unless a client; 404 "Proposal not found" for a proposal they may not see.
 */
export async function getClientProposalWithAgreement(db: Database, actor: Actor, proposalId: number) {
  const found = await getProposalForClient(db, actor, proposalId);
  if (found.proposal.source === "ambassador") await ensureAmbassadorVersion(db, proposalId);
  return { ...found, agreement: await getAgreementForClient(db, actor, proposalId) };
}

/**
 * An ambassador proposal made before offers existed has no version: its version 1 is made the
 * first time its client opens it (from its stored request), so it can be accepted and signed.
 */
export async function ensureAmbassadorVersion(db: Database, proposalId: number): Promise<void> {
  if (await currentVersion(db, proposalId)) return;
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(proposal).where(eq(proposal.id, proposalId)).for("update");
    if (!row || row.source !== "ambassador" || !row.ambassadorId || (await currentVersion(tx, proposalId))) return;
    const input = fromRequest(row);
    await upsertDraft(tx, { id: row.ambassadorId, role: "ambassador", email: "" }, row.id, input);
    await makeVersion(tx, { id: row.ambassadorId, role: "ambassador", email: "" }, row, input, { event: "version-made" });
  });
}
