/**
 * Generating an invoice (docs/product.md#invoices-generating, docs/product.md#invoice-numbers).
 *
 * - The total is always the sum of the items, computed here (never taken from a form).
 * - Numbers are sequential per calendar year (UTC), `INV-2026-0001`, allocated from the
 *   `invoice_counter` row in the invoice's own transaction: unique and gapless under
 *   concurrency (a concurrent generation waits on the counter row; a rollback returns it).
 * - A proposal may have several invoices (#37: deposit, milestones, extras). A page that shows the
 *   invoices it knew passes their count; a generation that finds another one meanwhile is refused,
 *   so a double submission or two admins at once never issue the same invoice twice.
 */
import { count, eq, sql } from "drizzle-orm";
import { isUniqueViolation } from "#app/db/errors";
import type { Database, Queryable } from "#app/db/client.server";
import { auditEvent, invoice, invoiceCounter, invoiceItem, proposal, user } from "#app/db/schema";
import { publishAudit } from "#app/features/live/live-events.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import { AppError, notFound } from "#app/lib/errors";
import { clientEmailSql, clientNameSql } from "./invoice-admin-row.server";
import { checkedItems } from "./invoice-items.server";
import { currencyOf, invoiceNotice } from "./invoice-notice.server";
import { syncInvoiceStatus } from "#app/features/payments/balance.server";
import { defaultDepositCents } from "#app/features/payments/deposit.server";
import { getOfferForInvoice } from "#app/features/agreements/offer-deposit.server";
import { signedInvoicePath } from "#app/features/payments/invoice-link.server";
import { type InvoiceInput } from "./invoices.schema";
import { listInvoicesOfProposal, type ProposalInvoice } from "./proposal-invoices.server";
import { INVOICE_MESSAGES } from "./invoices.messages";
import { assertClientCanPay } from "./client-can-pay.server";

/** The proposal an invoice is being generated for (docs/product.md#invoices-generating). */
export interface ProposalToInvoice {
  id: number;
  projectName: string | null;
  projectDetails: string;
  clientId: string | null;
  clientName: string | null;
  clientEmail: string | null;
  budgetCents: number | null;
  /** The invoices already generated for it, oldest first. */
  invoices: ProposalInvoice[];
}

/**
 * Reads a proposal for the generate-invoice page.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown proposal.
 */
export async function getProposalToInvoice(db: Queryable, actor: Actor, proposalId: number): Promise<ProposalToInvoice> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({
      id: proposal.id,
      projectName: proposal.projectName,
      projectDetails: proposal.projectDetails,
      clientId: proposal.clientId,
      clientName: clientNameSql,
      clientEmail: clientEmailSql,
      budgetCents: proposal.budgetCents,
    })
    .from(proposal)
    .leftJoin(user, eq(user.id, proposal.clientId))
    .where(eq(proposal.id, proposalId));
  if (!row) throw notFound("Proposal not found");
  return { ...row, invoices: await listInvoicesOfProposal(db, proposalId) };
}

/**
 * Generates the invoice of a proposal (docs/product.md#proposals: the proposal then links to
 * /view-invoice/{id}): status unpaid, clientId = the proposal's client, total = sum of the
 * items, number = the year's next `INV-YYYY-NNNN`. All in one transaction.
 *
 * @param input - items (cents) and due date `YYYY-MM-DD`.
 * @param now - the current instant; its UTC year numbers the invoice.
 * @param options.knownInvoices - how many invoices of the proposal the admin's page showed; when
 *   given and the proposal has another count now, nothing is written (409).
 * @returns the invoice id, number and total (cents).
 * @param options.cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`); without it
 *   the Settings must say how to pay (#37: an invoice the client cannot pay is never sent). Every caller says.
 * @throws {AppError} 403 unless the actor is an admin; 404 unknown proposal; 409 the proposal got
 *   another invoice since the page was loaded, or its client has no account yet, or — without card
 *   payments — the Settings have neither payment instructions nor a payment link (#37); 400 invalid items or due date.
 */
export async function generateInvoice(
  db: Database,
  actor: Actor,
  proposalId: number,
  input: InvoiceInput,
  now: Date = new Date(),
  options: { knownInvoices?: number; cardPayments: boolean },
): Promise<{ id: number; number: string; totalCents: number }> {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedItems(input);
  try {
    return await db.transaction(async (tx) => {
      // Lock the proposal: a concurrent generation for it waits here, then sees the new invoice.
      const [target] = await tx
        .select({ id: proposal.id, clientId: proposal.clientId, organisationId: proposal.organisationId })
        .from(proposal)
        .where(eq(proposal.id, proposalId))
        .for("update");
      if (!target) throw notFound("Proposal not found");
      await assertClientCanPay(tx, options.cardPayments);
      if (options.knownInvoices !== undefined) {
        const [counted] = await tx.select({ n: count() }).from(invoice).where(eq(invoice.proposalId, proposalId));
        if ((counted?.n ?? 0) !== options.knownInvoices) throw new AppError("CONFLICT", INVOICE_MESSAGES.alreadyInvoiced);
      }
      if (!target.clientId) throw new AppError("CONFLICT", INVOICE_MESSAGES.noClientAccount);

      return issueInvoice(tx, actor, {
        proposalId,
        clientId: target.clientId,
        organisationId: target.organisationId,
        items,
        dueDate: input.dueDate,
        // The accepted offer's deposit (#26), else Settings' default (docs/product.md#deposits).
        depositCents: await defaultDepositCents(tx, totalCents, (await getOfferForInvoice(tx, proposalId))?.deposit ?? null),
        now,
      });
    });
  } catch (error) {
    // Lost a race on the number counter's first row of a year: same answer, nothing written.
    if (!(error instanceof AppError) && isUniqueViolation(error)) throw new AppError("CONFLICT", INVOICE_MESSAGES.alreadyInvoiced);
    throw error;
  }
}

export { assertClientCanPay, clientCanPay } from "./client-can-pay.server";

/** What {@link issueInvoice} writes. Money in cents; `dueDate` `YYYY-MM-DD`. */
export interface InvoiceToIssue {
  proposalId: number | null;
  /** The person it is issued to (its signed links are theirs). */
  clientId: string;
  /** The organisation it belongs to; null only with a proposal (its organisation is taken). */
  organisationId: number | null;
  items: { description: string; amountCents: number }[];
  dueDate: string;
  depositCents: number | null;
  now: Date;
  /** What the mail says first (default: "Invoice … was issued to you."). */
  mailLead?: string;
  /** Who the audit names when no person acted (a job): e.g. "Payment schedule". */
  systemActor?: string;
}

/**
 * Writes one invoice in the caller's transaction (#37: generating, accepting an offer with a deposit,
 * a schedule line falling due): the year's next number, the items (total = their sum), the derived
 * status, the audit event `created`, and a mail with a signed link to each owner and billing person
 * of its organisation. The caller has checked the actor's right and locked the proposal.
 *
 * @param actor - the person acting, or null for a job (the audit then names `input.systemActor`).
 * @returns the invoice id, number and total (cents).
 */
export async function issueInvoice(
  tx: Queryable,
  actor: Actor | null,
  input: InvoiceToIssue,
): Promise<{ id: number; number: string; totalCents: number }> {
  const { proposalId, clientId, items, now } = input;
  const totalCents = items.reduce((sum, item) => sum + item.amountCents, 0);
  const year = now.getUTCFullYear();
  const [counter] = await tx
    .insert(invoiceCounter)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounter.year, set: { lastNumber: sql`${invoiceCounter.lastNumber} + 1` } })
    .returning({ n: invoiceCounter.lastNumber });
  const number = formatInvoiceNumber(year, counter!.n);
  const [created] = await tx
    .insert(invoice)
    .values({
      number,
      proposalId,
      clientId,
      organisationId: input.organisationId,
      dueDate: input.dueDate,
      status: "unpaid",
      totalCents,
      depositCents: input.depositCents,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: invoice.id, organisationId: invoice.organisationId });
  await tx.insert(invoiceItem).values(items.map((item, position) => ({ invoiceId: created!.id, position, ...item })));
  await syncInvoiceStatus(tx, created!.id);
  const audit = {
    entity: "invoice" as const,
    entityId: created!.id,
    action: "created",
    proposalId,
    before: null,
    after: { number, proposalId, clientId, dueDate: input.dueDate, status: "unpaid", totalCents, items },
  };
  if (actor) await recordAudit(tx, actor, audit);
  else {
    await tx.insert(auditEvent).values({
      actorId: null,
      actorEmail: input.systemActor ?? "System",
      entity: audit.entity,
      entityId: String(audit.entityId),
      action: audit.action,
      before: null,
      after: JSON.parse(JSON.stringify(audit.after)),
      proposalId,
    });
    await publishAudit(tx, audit);
  }
  // To each owner and billing person of the organisation, with a link of their own.
  const currency = currencyOf(await getSettings(tx));
  for (const person of await organisationPeople(tx, created!.organisationId, MONEY_ROLES, clientId)) {
    const notice = invoiceNotice(
      created!.id,
      number,
      totalCents,
      input.dueDate,
      currency,
      "issued",
      await signedInvoicePath(tx, created!.id, clientId, now, person),
    );
    await queueUserNotice(tx, person, input.mailLead ? { ...notice, lines: [input.mailLead, ...notice.lines] } : notice);
  }
  return { id: created!.id, number, totalCents };
}

/** @returns `INV-<year>-<n>` with n zero-padded to four digits (more digits past 9999). */
export function formatInvoiceNumber(year: number, n: number): string {
  return `INV-${year}-${String(n).padStart(4, "0")}`;
}
