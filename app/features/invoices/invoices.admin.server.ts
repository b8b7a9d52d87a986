/**
 * Admin invoice use-cases (docs/product.md#admin-invoices, /admin/generate-invoice,
 * /admin/invoices/edit; docs/product.md#invoice-statuses; docs/product.md#invoices; docs/product.md#invoices-editing; docs/product.md#admin-invoices).
 *
 * - The total is always the sum of the items, computed here (never taken from a form).
 * - Numbers are sequential per calendar year (UTC), `INV-2026-0001`, allocated from the
 *   `invoice_counter` row in the invoice's own transaction: unique and gapless under
 *   concurrency (a concurrent generation waits on the counter row; a rollback returns it).
 * - `overdue` is derived (unpaid and due date before today UTC): see `invoice-status.ts`
 *   and {@link invoiceFilterSql}, its SQL form.
 * - One invoice per proposal (unique index); deleting an invoice unlinks its proposal by
 *   construction (the link is the invoice's foreign key).
 *
 * Every function checks that the actor is an admin before reading or writing anything.
 */
import { and, asc, count, eq, gte, ilike, lt, or, sql, sum, type SQL } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { readTally, tallyCount } from "#app/db/tally.server";
import { invoice, invoiceCounter, invoiceItem, proposal, user } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { formatCents, MAX_CENTS } from "#app/lib/money";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { keysetBatches, mapRows } from "#app/lib/csv.server";
import { formatCalendarDate } from "#app/lib/dates";
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
import { invoiceDisplayStatus, todayUtc, type InvoiceDisplayStatus } from "./invoice-status";
import { INVOICE_MESSAGES, invoiceTotalCents, MAX_INVOICE_ITEMS, type InvoiceFilter, type InvoiceInput } from "./invoices.schema";

/** The client's name and e-mail as an invoice shows them: the account's, else the proposal's (user joined on the client). */
const clientNameSql = sql<string | null>`coalesce(${user.businessName}, ${user.name}, ${proposal.clientName})`;
const clientEmailSql = sql<string | null>`coalesce(${user.email}, ${proposal.clientEmail})`;

/** What an invoice row shows, in the admin list, its CSV export and on one invoice (joins: proposal, client user). */
export const adminInvoiceColumns = {
  id: invoice.id,
  number: invoice.number,
  proposalId: invoice.proposalId,
  projectName: proposal.projectName,
  clientName: clientNameSql,
  clientEmail: clientEmailSql,
  dueDate: invoice.dueDate,
  status: invoice.status,
  totalCents: invoice.totalCents,
  paidAt: invoice.paidAt,
  version: invoice.version,
  createdAt: invoice.createdAt,
};

export { INVOICE_MESSAGES };

/**
 * The SQL form of {@link invoiceDisplayStatus} for list filters: `paid`; `pending` = unpaid
 * and due today or later; `overdue` = unpaid and due before `today`.
 *
 * @param today - `YYYY-MM-DD`, today in UTC ({@link todayUtc}).
 * @returns the WHERE condition, or undefined for `all`.
 */
export function invoiceFilterSql(filter: InvoiceFilter, today: string): SQL | undefined {
  switch (filter) {
    case "paid":
      return eq(invoice.status, "paid");
    case "pending":
      return and(eq(invoice.status, "unpaid"), gte(invoice.dueDate, today));
    case "overdue":
      return and(eq(invoice.status, "unpaid"), lt(invoice.dueDate, today));
    default:
      return undefined;
  }
}

/** Validates items again on the server (a use-case may be called without the form schema). */
function checkedItems(input: InvoiceInput): { items: InvoiceInput["items"]; totalCents: number } {
  if (input.items.length === 0) throw fieldError("items", "Add at least one item.");
  if (input.items.length > MAX_INVOICE_ITEMS) throw fieldError("items", `An invoice can have at most ${MAX_INVOICE_ITEMS} items.`);
  const items = input.items.map((item, index) => {
    const description = item.description.trim();
    if (!description) throw fieldError(`items[${index}].description`, "Description is required.");
    if (!Number.isSafeInteger(item.amountCents) || item.amountCents < 0 || item.amountCents > MAX_CENTS) {
      throw fieldError(`items[${index}].amount`, "Enter an amount like 5000 or $5,000.50");
    }
    return { description: description.slice(0, 200), amountCents: item.amountCents };
  });
  const totalCents = invoiceTotalCents(items);
  if (totalCents > MAX_CENTS) throw fieldError("items", INVOICE_MESSAGES.totalTooLarge);
  const date = new Date(`${input.dueDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.dueDate) || !Number.isFinite(date.getTime()) || date.toISOString().slice(0, 10) !== input.dueDate) {
    throw fieldError("dueDate", "Enter a real due date.");
  }
  return { items, totalCents };
}

/** @returns whether `error` is PostgreSQL's unique violation (both drivers expose `code`). */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

/** The proposal an invoice is being generated for (docs/product.md#invoices-generating). */
export interface ProposalToInvoice {
  id: number;
  projectName: string | null;
  projectDetails: string;
  clientId: string | null;
  clientName: string | null;
  clientEmail: string | null;
  budgetCents: number | null;
  invoiceId: number | null;
  invoiceNumber: string | null;
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
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
    })
    .from(proposal)
    .leftJoin(user, eq(user.id, proposal.clientId))
    .leftJoin(invoice, eq(invoice.proposalId, proposal.id))
    .where(eq(proposal.id, proposalId));
  if (!row) throw notFound("Proposal not found");
  return row;
}

/**
 * Generates the invoice of a proposal (docs/product.md#proposals: the proposal then links to
 * /view-invoice/{id}): status unpaid, clientId = the proposal's client, total = sum of the
 * items, number = the year's next `INV-YYYY-NNNN`. All in one transaction.
 *
 * @param input - items (cents) and due date `YYYY-MM-DD`.
 * @param now - the current instant; its UTC year numbers the invoice.
 * @returns the invoice id, number and total (cents).
 * @throws {AppError} 403 unless the actor is an admin; 404 unknown proposal; 409 the proposal
 *   already has an invoice or its client has no account yet; 400 invalid items or due date.
 */
export async function generateInvoice(
  db: Database,
  actor: Actor,
  proposalId: number,
  input: InvoiceInput,
  now: Date = new Date(),
): Promise<{ id: number; number: string; totalCents: number }> {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedItems(input);
  try {
    return await db.transaction(async (tx) => {
      // Lock the proposal: a second generation for it waits here, then sees the invoice.
      const [target] = await tx
        .select({ id: proposal.id, clientId: proposal.clientId })
        .from(proposal)
        .where(eq(proposal.id, proposalId))
        .for("update");
      if (!target) throw notFound("Proposal not found");
      const [existing] = await tx.select({ id: invoice.id }).from(invoice).where(eq(invoice.proposalId, proposalId));
      if (existing) throw new AppError("CONFLICT", INVOICE_MESSAGES.alreadyInvoiced);
      if (!target.clientId) throw new AppError("CONFLICT", INVOICE_MESSAGES.noClientAccount);

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
          clientId: target.clientId,
          dueDate: input.dueDate,
          status: "unpaid",
          totalCents,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: invoice.id });
      await tx.insert(invoiceItem).values(items.map((item, position) => ({ invoiceId: created!.id, position, ...item })));
      await recordAudit(tx, actor, {
        entity: "invoice",
        entityId: created!.id,
        action: "created",
        proposalId,
        before: null,
        after: { number, proposalId, clientId: target.clientId, dueDate: input.dueDate, status: "unpaid", totalCents, items },
      });
      await queueUserNotice(
        tx,
        target.clientId,
        invoiceNotice(created!.id, number, totalCents, input.dueDate, currency(await getSettings(tx)), "issued"),
      );
      return { id: created!.id, number, totalCents };
    });
  } catch (error) {
    // Lost a race the lock did not cover (e.g. a proposal inserted concurrently): same answer.
    if (!(error instanceof AppError) && isUniqueViolation(error)) throw new AppError("CONFLICT", INVOICE_MESSAGES.alreadyInvoiced);
    throw error;
  }
}

/** @returns `INV-<year>-<n>` with n zero-padded to four digits (more digits past 9999). */
export function formatInvoiceNumber(year: number, n: number): string {
  return `INV-${year}-${String(n).padStart(4, "0")}`;
}

/** An invoice with its items, as the admin edit page shows it: its list row and more. Money in cents. */
export interface AdminInvoice extends AdminInvoiceRow {
  /** The client account's phone and website (bill-to on the PDF), null when not given. */
  clientPhone: string | null;
  clientWebsite: string | null;
  /** Raised at every edit; the edit form carries it back (docs/product.md#invoices). */
  version: number;
  items: { description: string; amountCents: number }[];
}

/**
 * Reads one invoice with its items (docs/product.md#invoices-editing).
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function getInvoiceForAdmin(db: Queryable, actor: Actor, invoiceId: number, now: Date = new Date()): Promise<AdminInvoice> {
  assertRole(actor, "admin");
  const [row] = await db
    .select({ ...adminInvoiceColumns, clientPhone: user.phone, clientWebsite: user.website })
    .from(invoice)
    .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
    .leftJoin(user, eq(user.id, invoice.clientId))
    .where(eq(invoice.id, invoiceId));
  if (!row) throw notFound(INVOICE_MESSAGES.notFound);
  const items = await db
    .select({ description: invoiceItem.description, amountCents: invoiceItem.amountCents })
    .from(invoiceItem)
    .where(eq(invoiceItem.invoiceId, invoiceId))
    .orderBy(asc(invoiceItem.position), asc(invoiceItem.id));
  return {
    ...row,
    paidAt: toIsoOrNull(row.paidAt),
    createdAt: toIsoOrNull(row.createdAt),
    displayStatus: invoiceDisplayStatus(row, now),
    items,
  };
}

/**
 * Replaces an unpaid invoice's items and due date; the total is recomputed (docs/product.md#invoice-statuses
 * invoices: items, total, dueDate). A paid invoice is a settled record and is not edited.
 * In the same transaction: one audit event `updated` with the changed fields
 * (dueDate, totalCents, items) before and after, and an essential notice to the client
 * (link /view-invoice/:id). Saving identical values changes nothing: no audit, no mail.
 * Every change raises the invoice's `version`; a save carrying an older `input.version` (the
 * page was loaded before another admin's save) is refused and writes nothing
 * (docs/product.md#invoices).
 *
 * @returns the new total in cents.
 * @throws {AppError} 403 unless the actor is an admin; 404 unknown invoice; 409 paid invoice,
 *   or "This invoice was changed by someone else; reload to see it." for a stale version;
 *   400 invalid items or due date.
 */
export async function updateInvoice(db: Database, actor: Actor, invoiceId: number, input: InvoiceInput): Promise<{ totalCents: number }> {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedItems(input);
  return db.transaction(async (tx) => {
    await lockProposalOfInvoice(tx, invoiceId);
    const [current] = await tx
      .select({
        status: invoice.status,
        number: invoice.number,
        clientId: invoice.clientId,
        dueDate: invoice.dueDate,
        totalCents: invoice.totalCents,
        version: invoice.version,
      })
      .from(invoice)
      .where(eq(invoice.id, invoiceId))
      .for("update");
    if (!current) throw notFound(INVOICE_MESSAGES.notFound);
    if (current.status === "paid") throw new AppError("CONFLICT", INVOICE_MESSAGES.paidLocked);
    if (input.version !== undefined && input.version !== current.version)
      throw new AppError("CONFLICT", INVOICE_MESSAGES.changedBySomeoneElse);
    const oldItems = await tx
      .select({ description: invoiceItem.description, amountCents: invoiceItem.amountCents })
      .from(invoiceItem)
      .where(eq(invoiceItem.invoiceId, invoiceId))
      .orderBy(asc(invoiceItem.position), asc(invoiceItem.id));
    const { before, after } = changedFields(
      { dueDate: current.dueDate, totalCents: current.totalCents, items: oldItems },
      { dueDate: input.dueDate, totalCents, items },
    );
    if (!after) return { totalCents };
    await tx.delete(invoiceItem).where(eq(invoiceItem.invoiceId, invoiceId));
    await tx.insert(invoiceItem).values(items.map((item, position) => ({ invoiceId, position, ...item })));
    await tx
      .update(invoice)
      .set({ dueDate: input.dueDate, totalCents, version: sql`${invoice.version} + 1`, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId));
    await recordAudit(tx, actor, { entity: "invoice", entityId: invoiceId, action: "updated", before, after });
    if (current.clientId)
      await queueUserNotice(
        tx,
        current.clientId,
        invoiceNotice(invoiceId, current.number, totalCents, input.dueDate, currency(await getSettings(tx)), "updated"),
      );
    return { totalCents };
  });
}

function currency(settings: { currency: string }): string {
  return settings.currency || "USD";
}

/** The client's notice of an issued or edited invoice (essential: sent whatever their preference). */
function invoiceNotice(id: number, number: string, totalCents: number, dueDate: string, currencyCode: string, kind: "issued" | "updated") {
  const amount = formatCents(totalCents, currencyCode);
  return {
    subject: kind === "issued" ? `New invoice ${number}` : `Invoice ${number} was updated`,
    lines: [
      kind === "issued"
        ? `Invoice ${number} for ${amount} was issued to you.`
        : `Invoice ${number} was updated. The new total is ${amount}.`,
      `It is due on ${formatCalendarDate(dueDate)}.`,
    ],
    link: { label: "View your invoice", path: `/view-invoice/${id}` },
  };
}

/**
 * Locks (FOR SHARE) the proposal of an invoice before the invoice itself is locked or changed:
 * the commission tally's invoice trigger locks that proposal too (migration 0004), so taking
 * proposal → invoice in that order, as generating an invoice and deleting a proposal do,
 * keeps a concurrent approval, payment or deletion from deadlocking with this transaction.
 * Does nothing for an unknown invoice (the caller answers 404).
 */
async function lockProposalOfInvoice(tx: Queryable, invoiceId: number): Promise<void> {
  await tx
    .select({ id: proposal.id })
    .from(proposal)
    .where(eq(proposal.id, sql`(select ${invoice.proposalId} from ${invoice} where ${invoice.id} = ${invoiceId})`))
    .for("share");
}

/**
 * Locks an invoice row (`FOR UPDATE`, inside the caller's transaction) and reads what Mark Paid /
 * Mark unpaid change, so two status changes at once apply one after the other.
 *
 * @returns the invoice number, status and payment time.
 * @throws {AppError} 404 for an unknown invoice.
 */
async function lockPaymentState(tx: Queryable, invoiceId: number) {
  const [current] = await tx
    .select({ number: invoice.number, status: invoice.status, paidAt: invoice.paidAt, proposalId: invoice.proposalId })
    .from(invoice)
    .where(eq(invoice.id, invoiceId))
    .for("update");
  if (!current) throw notFound(INVOICE_MESSAGES.notFound);
  return current;
}

/**
 * Mark Paid (docs/product.md#invoice-statuses: unpaid → paid). `paidAt` records the time. In the same transaction
 * one audit event `marked-paid` (status and paidAt before/after). Marking a paid
 * invoice again changes nothing and records nothing.
 *
 * @returns the invoice number and whether it changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function markInvoicePaid(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const current = await lockPaymentState(tx, invoiceId);
    if (current.status === "paid") return { number: current.number, changed: false };
    const [row] = await tx
      .update(invoice)
      .set({ status: "paid", paidAt: sql`coalesce(${invoice.paidAt}, now())`, version: sql`${invoice.version} + 1`, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId))
      .returning({ paidAt: invoice.paidAt });
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "marked-paid",
      proposalId: current.proposalId,
      before: { status: current.status, paidAt: current.paidAt },
      after: { status: "paid", paidAt: row!.paidAt },
    });
    return { number: current.number, changed: true };
  });
}

/**
 * Mark unpaid (docs/product.md#invoices-paying): the reversal of {@link markInvoicePaid} — a paid
 * invoice goes back to `unpaid` and its payment time is cleared, recorded as one audit event
 * `marked-unpaid` (status and paidAt before/after). The invoice row is locked, so two reversals at
 * once change it once. An unpaid invoice changes nothing.
 *
 * @returns the invoice number and whether it changed.
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function markInvoiceUnpaid(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; changed: boolean }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const current = await lockPaymentState(tx, invoiceId);
    if (current.status === "unpaid") return { number: current.number, changed: false };
    await tx
      .update(invoice)
      .set({ status: "unpaid", paidAt: null, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId));
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "marked-unpaid",
      proposalId: current.proposalId,
      before: { status: current.status, paidAt: current.paidAt },
      after: { status: "unpaid", paidAt: null },
    });
    return { number: current.number, changed: true };
  });
}

/**
 * Deletes an invoice and its items (docs/product.md#proposals: its proposal is unlinked — by construction,
 * the link is this invoice's foreign key). The page asks for confirmation first (docs/product.md#invoices).
 * In the same transaction one audit event `deleted` with the invoice as it was.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown invoice.
 */
export async function deleteInvoice(db: Database, actor: Actor, invoiceId: number): Promise<{ number: string; proposalId: number }> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    await lockProposalOfInvoice(tx, invoiceId);
    const [row] = await tx.delete(invoice).where(eq(invoice.id, invoiceId)).returning();
    if (!row) throw notFound(INVOICE_MESSAGES.notFound);
    const { number, proposalId, clientId, dueDate, status, totalCents, paidAt } = row;
    await recordAudit(tx, actor, {
      entity: "invoice",
      entityId: invoiceId,
      action: "deleted",
      before: { number, proposalId, clientId, dueDate, status, totalCents, paidAt },
      after: null,
    });
    return { number, proposalId };
  });
}

/** One row of the admin invoice list. Money in cents; dates `YYYY-MM-DD`; instants ISO. */
export interface AdminInvoiceRow {
  id: number;
  number: string;
  proposalId: number;
  projectName: string | null;
  clientName: string | null;
  clientEmail: string | null;
  dueDate: string;
  status: "unpaid" | "paid";
  displayStatus: InvoiceDisplayStatus;
  totalCents: number;
  createdAt: string | null;
  paidAt: string | null;
}

const ordering = { sort: invoice.createdAt, id: invoice.id };

/**
 * Lists invoices, newest first (docs/product.md#admin-invoices), filtered by all / paid / pending /
 * overdue (docs/product.md#admin-lists) against today in UTC, and searched by number, project or client.
 *
 * @param filters.q - case-insensitive substring of the number, project name, client e-mail or business.
 * @param now - the current instant (tests pass a fixed one).
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function listInvoicesForAdmin(
  db: Queryable,
  actor: Actor,
  filters: InvoiceListFilters,
  page: PageRequest,
  now: Date = new Date(),
): Promise<Page<AdminInvoiceRow>> {
  assertRole(actor, "admin");
  const where = await invoiceListWhere(db, filters, now);
  // Without a search, "all" and "paid" totals are tally buckets (pending and overdue depend on today: counted).
  const buckets = filters.q || (filters.filter !== "all" && filters.filter !== "paid") ? undefined : await readTally(db, "invoice");
  const total = buckets && tallyCount(buckets, (status) => filters.filter === "all" || status === "paid");
  const result = await keysetPage(
    db,
    { order: ordering, request: page, table: invoice, where, countCap: filters.q ? SEARCH_COUNT_CAP : undefined, total },
    (keyset) => fetchInvoiceRows(db, keyset),
  );
  return { ...result, items: result.items.map((row) => toAdminInvoiceRow(row, now)) };
}

/** Filters of the admin invoice list (and its CSV export). */
export interface InvoiceListFilters {
  filter: InvoiceFilter;
  /** Case-insensitive substring of the number, project name, client e-mail or business. */
  q?: string;
}

/** The list's WHERE clause (filters only, no keyset predicate), shared by pages and export. */
async function invoiceListWhere(db: Queryable, filters: InvoiceListFilters, now: Date): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  const byStatus = invoiceFilterSql(filters.filter, todayUtc(now));
  if (byStatus) conditions.push(byStatus);
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    const ofMatchingProjects = await matchingIdsCondition(invoice.proposalId, () =>
      db.select({ id: proposal.id }).from(proposal).where(ilike(proposal.projectName, pattern)),
    );
    const ofMatchingClients = await matchingIdsCondition(invoice.clientId, () =>
      db
        .select({ id: user.id })
        .from(user)
        .where(or(ilike(user.email, pattern), ilike(user.businessName, pattern), ilike(user.name, pattern))),
    );
    conditions.push(or(ilike(invoice.number, pattern), ofMatchingProjects, ofMatchingClients)!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The list's select and joins, for one page or one export batch. */
function fetchInvoiceRows(db: Queryable, keyset: KeysetQuery) {
  return db
    .select({ ...adminInvoiceColumns, cursorKey: cursorKeySql(ordering) })
    .from(invoice)
    .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
    .leftJoin(user, eq(user.id, invoice.clientId))
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

/**
 * One selected invoice (see {@link adminInvoiceColumns}) as the admin list and the CSV export show it:
 * with its display status on `now`'s date and ISO instants.
 */
export function toAdminInvoiceRow(
  row: Omit<Awaited<ReturnType<typeof fetchInvoiceRows>>[number], "cursorKey">,
  now: Date,
): AdminInvoiceRow {
  return { ...row, displayStatus: invoiceDisplayStatus(row, now), createdAt: toIsoOrNull(row.createdAt), paidAt: toIsoOrNull(row.paidAt) };
}

/**
 * Every invoice matching the list's filters, newest first, for the CSV export:
 * the same filters and select as {@link listInvoicesForAdmin}, read in keyset batches of
 * 1,000 rows.
 *
 * @returns an async iterable of rows (one batch in memory at a time).
 * @throws {AppError} 403 unless the actor is an admin (before anything is read).
 */
export async function exportInvoicesForAdmin(
  db: Queryable,
  actor: Actor,
  filters: InvoiceListFilters,
  now: Date = new Date(),
): Promise<AsyncIterable<AdminInvoiceRow>> {
  assertRole(actor, "admin");
  const rows = keysetBatches(ordering, await invoiceListWhere(db, filters, now), (keyset) => fetchInvoiceRows(db, keyset));
  return mapRows(rows, (row) => toAdminInvoiceRow(row, now));
}

/** Invoice totals for the admin dashboard. Money in cents. */
export interface InvoiceSummary {
  count: number;
  paidCount: number;
  unpaidCount: number;
  overdueCount: number;
  /** Sum of unpaid invoices (pending and overdue). */
  unpaidCents: number;
  /** Sum of overdue invoices (unpaid, due before today UTC). */
  overdueCents: number;
  paidCents: number;
}

/**
 * Counts and sums invoices by display status (docs/product.md#admin-dashboard; unpaid and
 * overdue totals in money), against today in UTC.
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function invoiceSummary(db: Queryable, actor: Actor, now: Date = new Date()): Promise<InvoiceSummary> {
  assertRole(actor, "admin");
  const buckets = await readTally(db, "invoice");
  // Overdue depends on today's date, so it is counted from the partial index invoice_unpaid_due_idx.
  const [overdue] = await db
    .select({ n: count(), cents: sum(invoice.totalCents).mapWith(Number) })
    .from(invoice)
    .where(invoiceFilterSql("overdue", todayUtc(now)));
  const paid = buckets.find((b) => b.bucket === "paid");
  const unpaid = buckets.filter((b) => b.bucket !== "paid");
  return {
    count: tallyCount(buckets),
    paidCount: paid?.n ?? 0,
    paidCents: paid?.cents ?? 0,
    unpaidCount: tallyCount(unpaid),
    unpaidCents: unpaid.reduce((total, b) => total + b.cents, 0),
    overdueCount: overdue?.n ?? 0,
    overdueCents: overdue?.cents ?? 0,
  };
}
