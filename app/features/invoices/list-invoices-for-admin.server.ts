/**
 * The admin invoice list and its CSV export (docs/product.md#admin-invoices, docs/product.md#csv-exports):
 * newest first, filtered by derived status against today in UTC, searched by number, project or client.
 */
import { and, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { readTally, tallyCount } from "#app/db/tally.server";
import { invoice, proposal, user } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
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
import { adminInvoiceColumns, type AdminInvoiceRow } from "./invoice-admin-row.server";
import { invoiceFilterSql } from "./invoice-filter.server";
import { invoiceDisplayStatus } from "./invoice-status";
import { businessDay } from "#app/features/settings/settings.server";
import type { InvoiceFilter } from "./invoices.schema";

const ordering = { sort: invoice.createdAt, id: invoice.id };

/**
 * Lists invoices, newest first (docs/product.md#admin-invoices), filtered by all / Unpaid / Partially paid /
 * Overdue / Paid / Refunded (docs/product.md#admin-lists) against today in UTC, and searched by number, project or client.
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
  // Without a search, the "all" total is the tally (the other filters depend on today or on payments: counted).
  const buckets = filters.q || filters.filter !== "all" ? undefined : await readTally(db, "invoice");
  const total = buckets && tallyCount(buckets);
  const result = await keysetPage(
    db,
    { order: ordering, request: page, table: invoice, where, countCap: filters.q ? SEARCH_COUNT_CAP : undefined, total },
    (keyset) => fetchInvoiceRows(db, keyset),
  );
  const { timeZone } = await businessDay(db, now);
  return { ...result, items: result.items.map((row) => toAdminInvoiceRow(row, now, timeZone)) };
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
  const byStatus = invoiceFilterSql(filters.filter, (await businessDay(db, now)).today);
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
    .leftJoin(proposal, eq(proposal.id, invoice.proposalId))
    .leftJoin(user, eq(user.id, invoice.clientId))
    .where(keyset.where)
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
}

/**
 * One selected invoice (see {@link adminInvoiceColumns}) as the admin list and the CSV export show it:
 * with its display status on `now`'s date in `timeZone` (the agency's) and ISO instants.
 */
export function toAdminInvoiceRow(
  row: Omit<Awaited<ReturnType<typeof fetchInvoiceRows>>[number], "cursorKey">,
  now: Date,
  timeZone = "UTC",
): AdminInvoiceRow {
  return {
    ...row,
    displayStatus: invoiceDisplayStatus(row, now, timeZone),
    balanceCents: Math.max(0, row.totalCents - row.paidCents),
    disputedAt: toIsoOrNull(row.disputedAt),
    createdAt: toIsoOrNull(row.createdAt),
    paidAt: toIsoOrNull(row.paidAt),
  };
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
  const { timeZone } = await businessDay(db, now);
  return mapRows(rows, (row) => toAdminInvoiceRow(row, now, timeZone));
}
