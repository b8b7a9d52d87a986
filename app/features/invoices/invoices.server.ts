/**
 * The client's reads of their invoices (docs/product.md#invoice-view,
 * docs/product.md#client-invoices, docs/product.md#client-dashboard): one invoice, the list
 * of all of them, and the balance. Invoices are created and changed by the admin console
 * (`invoices.admin.server.ts`), whose status conditions ({@link invoiceFilterSql}) these
 * reads share, so "overdue" means the same on both sides.
 */
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { memoRead } from "#app/db/request-memo.server";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice, payments, proposal, user } from "#app/db/schema";
import { invoiceItemsSql } from "./invoice-items.server";
import { invoiceBalanceSql, invoiceMoneyColumns } from "#app/features/payments/balance.server";
import { deriveInvoiceMoney, type InvoiceMoney } from "#app/features/payments/invoice-money";
import { clientEmailSql, clientNameSql } from "#app/features/users/client-name.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";
import { inOrganisation, MONEY_ROLES, requireOrganisationRole } from "#app/features/organisations/access.server";
import { numberedPage, totalOverSql, type NumberedPage } from "#app/lib/pagination";
import { invoiceFilterSql } from "./invoice-filter.server";
import type { BillTo } from "./invoice-billing";
import { invoiceDisplayStatus, type InvoiceDisplayStatus } from "./invoice-status";
import { businessDay } from "#app/features/settings/settings.server";
import { INVOICE_MESSAGES } from "./invoices.messages";

/**
 * The invoices a client may see: their current organisation's, when their role there covers money
 * (owner, billing — docs/product.md#organisations), membership checked in the statement; read
 * through the owner index `invoice_organisation_idx` only (issue #30).
 */
function ownedByClient(actor: Actor): SQL {
  return inOrganisation(invoice.organisationId, actor, MONEY_ROLES);
}

/** An invoice as its client sees it. Money in cents; `dueDate` a calendar date `YYYY-MM-DD`. */
export interface ClientInvoice {
  id: number;
  number: string;
  /** The proposal it bills, or null for an invoice of its own (#37). */
  proposalId: number | null;
  projectName: string | null;
  dueDate: string;
  status: "unpaid" | "paid";
  /** paid, pending, or overdue (unpaid and due before today, UTC). */
  displayStatus: InvoiceDisplayStatus;
  totalCents: number;
  /** Paid, refunded, balance, deposit and the amount due now, derived from the payments. */
  money: InvoiceMoney;
  /** Set while a card dispute is open. */
  disputedAt: Date | null;
  /** Payments and refunds, oldest first (refunds negative). */
  payments: ClientPayment[];
  paidAt: Date | null;
  createdAt: Date;
  items: { description: string; amountCents: number }[];
  /** The client's business name (else name), e-mail, phone and website from their account. */
  billTo: BillTo;
}

/** A payment or refund as the client sees it (cents; refunds negative). */
export interface ClientPayment {
  id: number;
  amountCents: number;
  method: "card" | "bank_transfer" | "cash" | "other";
  receivedAt: Date;
  reference: string | null;
  refundOf: number | null;
}

/**
 * Reads one of the client's invoices with its items in order: an invoice of their current
 * organisation, for an owner or a billing person there.
 *
 * @param invoiceId - a valid serial id (the route parses it: app/lib/ids.ts).
 * @param now - the current instant, for the derived overdue status.
 * @throws {AppError} 403 unless a client; 404 "Invoice not found" for an unknown id, another
 *   organisation's invoice, or a member whose role does not cover money (never revealing which).
 */
export async function getInvoiceForClient(db: Database, actor: Actor, invoiceId: number, now: Date = new Date()): Promise<ClientInvoice> {
  assertRole(actor, "client");
  const id = invoiceId;
  const [row] = await db
    .select({
      id: invoice.id,
      number: invoice.number,
      proposalId: invoice.proposalId,
      projectName: proposal.projectName,
      dueDate: invoice.dueDate,
      status: invoice.status,
      totalCents: invoice.totalCents,
      ...invoiceMoneyColumns,
      paidAt: invoice.paidAt,
      createdAt: invoice.createdAt,
      items: invoiceItemsSql,
      // The payments and refunds, oldest first, in the same statement (read only once the row passed the check).
      payments: invoicePaymentsSql,
      billTo: {
        name: clientNameSql(proposal.clientName),
        email: sql<string>`coalesce(${clientEmailSql(proposal.clientEmail)}, '')`,
        phone: sql<string>`coalesce(${user.phone}, '')`,
        website: sql<string>`coalesce(${user.website}, '')`,
      },
    })
    .from(invoice)
    .leftJoin(proposal, eq(proposal.id, invoice.proposalId))
    .leftJoin(user, eq(user.id, actor.id))
    .where(and(eq(invoice.id, id), ownedByClient(actor)));
  if (!row) throw notFound(INVOICE_MESSAGES.notFound);
  const { timeZone } = await businessDay(db, now);
  return {
    ...row,
    displayStatus: invoiceDisplayStatus(row, now, timeZone),
    money: deriveInvoiceMoney(row, now, timeZone),
    payments: row.payments.map(([id, amountCents, method, receivedAt, reference, refundOf]) => ({
      id,
      amountCents,
      method,
      receivedAt: new Date(receivedAt),
      reference,
      refundOf,
    })),
  };
}

/**
 * The payments and refunds of the invoice in the query (`invoice` in FROM), oldest first, as one JSON
 * array of `[id, amount cents, method, received (ms since the epoch), reference, refund of]`.
 */
const invoicePaymentsSql = sql<[number, number, ClientPayment["method"], number, string | null, number | null][]>`(select coalesce(
  json_agg(json_build_array(p.id, p.amount_cents, p.method, floor(extract(epoch from p.received_at) * 1000)::float8, p.reference, p.refund_of)
    order by p.received_at, p.id), '[]'::json) from ${payments} p where p.invoice_id = ${sql.raw(`"invoice"."id"`)})`;

/** Invoices per page of the client's invoice list. */
export const CLIENT_INVOICES_PAGE_SIZE = 20;

/** One row of the client's invoice list. Money in cents; `dueDate` `YYYY-MM-DD`. */
export interface ClientInvoiceRow {
  id: number;
  number: string;
  projectName: string | null;
  createdAt: Date;
  dueDate: string;
  totalCents: number;
  /** Paid so far and the balance due, cents (derived from the payments). */
  paidCents: number;
  refundedCents: number;
  balanceCents: number;
  /** The deposit asked first, cents, or null (#37: the dashboard says "Pay your deposit"). */
  depositCents: number | null;
  status: "unpaid" | "paid";
  /** The derived status (invoice-money.ts). */
  displayStatus: InvoiceDisplayStatus;
}

/**
 * All of the client's invoices, whatever the status of their project, newest first
 * (docs/product.md#client-invoices), in numbered pages.
 *
 * @param options.page - 1-based, clamped to the last page; `pageSize` defaults to {@link CLIENT_INVOICES_PAGE_SIZE}.
 * @param now - the current instant, for the derived overdue status.
 * @throws {AppError} 403 unless a client; 404 for a member whose role does not cover money.
 */
export async function listClientInvoices(
  db: Queryable,
  actor: Actor,
  options: { page: number; pageSize?: number },
  now: Date = new Date(),
): Promise<NumberedPage<ClientInvoiceRow>> {
  assertRole(actor, "client");
  requireOrganisationRole(actor, MONEY_ROLES, INVOICE_MESSAGES.notFound);
  const pageSize = options.pageSize ?? CLIENT_INVOICES_PAGE_SIZE;
  // One statement: the page's rows counted with the whole list (a window over every row before the limit).
  const found = await numberedPage(
    options.page,
    pageSize,
    (page) =>
      clientInvoiceRowsQuery(db, actor, { total: totalOverSql() })
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    async () => (await db.select({ total: count() }).from(invoice).where(ownedByClient(actor)))[0]?.total ?? 0,
  );
  return { ...found, items: await withDisplayStatus(db, found.items, now) };
}

/** The client's invoices newest first (as {@link listClientInvoices} lists them), with `extra` columns. */
function clientInvoiceRowsQuery<Extra extends Record<string, SQL<unknown> | SQL.Aliased<unknown>>>(
  db: Queryable,
  actor: Actor,
  extra: Extra,
) {
  return db
    .select({
      id: invoice.id,
      number: invoice.number,
      projectName: proposal.projectName,
      createdAt: invoice.createdAt,
      dueDate: invoice.dueDate,
      totalCents: invoice.totalCents,
      paidCents: invoiceMoneyColumns.paidCents,
      refundedCents: invoiceMoneyColumns.refundedCents,
      depositCents: invoice.depositCents,
      status: invoice.status,
      ...extra,
    })
    .from(invoice)
    .leftJoin(proposal, eq(proposal.id, invoice.proposalId))
    .where(ownedByClient(actor))
    .orderBy(desc(invoice.createdAt), desc(invoice.id));
}

type InvoiceRowColumns = Omit<ClientInvoiceRow, "balanceCents" | "displayStatus">;

/** Adds the balance and the derived status (in the agency's zone at `now`) to each row. */
async function withDisplayStatus(db: Queryable, rows: readonly InvoiceRowColumns[], now: Date): Promise<ClientInvoiceRow[]> {
  const { timeZone } = await businessDay(db, now);
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    projectName: row.projectName,
    createdAt: row.createdAt,
    dueDate: row.dueDate,
    totalCents: row.totalCents,
    paidCents: row.paidCents,
    refundedCents: row.refundedCents,
    depositCents: row.depositCents,
    status: row.status,
    balanceCents: Math.max(0, row.totalCents - row.paidCents),
    displayStatus: invoiceDisplayStatus(row, now, timeZone),
  }));
}

/**
 * The client's invoices as {@link listClientInvoices} lists them (newest first), `limit` of them
 * from `offset`, without counting them all (one statement).
 *
 * @param now - the current instant, for the overdue status.
 * @throws {AppError} 403 unless a client.
 */
export async function listClientInvoiceRows(
  db: Queryable,
  actor: Actor,
  options: { limit: number; offset?: number },
  now: Date = new Date(),
): Promise<ClientInvoiceRow[]> {
  assertRole(actor, "client");
  const rows = await clientInvoiceRowsQuery(db, actor, {})
    .limit(options.limit)
    .offset(options.offset ?? 0);
  return withDisplayStatus(db, rows, now);
}

/** How many of the client's newest invoices the dashboard's next steps look at. */
export const DASHBOARD_INVOICE_ROWS = 50;

/**
 * The dashboard's invoices (docs/product.md#client-dashboard): the newest
 * {@link DASHBOARD_INVOICE_ROWS} rows for its next steps and the balance of them all, in one
 * statement (the balance as window sums over every invoice before the limit) read once per request.
 *
 * @param now - the current instant (the same for both reads of one request).
 * @throws {AppError} 403 unless a client.
 */
export function clientInvoiceOverview(
  db: Queryable,
  actor: Actor,
  now: Date,
): Promise<{ rows: ClientInvoiceRow[]; balance: ClientBalance }> {
  assertRole(actor, "client");
  const key = `client-invoice-overview:${actor.id}:${actor.organisationId ?? ""}:${actor.organisationRole ?? ""}:${now.getTime()}`;
  return memoRead(db, key, async () => {
    const { today } = await businessDay(db, now);
    const found = await clientInvoiceRowsQuery(db, actor, balanceColumns(today, "over ()")).limit(DASHBOARD_INVOICE_ROWS);
    return { rows: await withDisplayStatus(db, found, now), balance: balanceOf(found[0]) };
  });
}
/** The client's balance (docs/product.md#client-dashboard). Money in cents. */
export interface ClientBalance {
  /** Invoices with a balance due, overdue or not: how many and the sum of their balances. */
  outstandingCount: number;
  outstandingCents: number;
  /** Of those, the overdue ones (balance due, due before today UTC): how many and the sum of their balances. */
  overdueCount: number;
  overdueCents: number;
  /** Earliest due date (`YYYY-MM-DD`) of the unpaid invoices not yet overdue, or null. */
  nextDueDate: string | null;
}

/**
 * Sums the balances due of the client's invoices with the admin list's own status conditions
 * ({@link invoiceFilterSql}: overdue = a balance due and due before today in the agency's zone; due today is not
 * overdue; a partly paid invoice counts with what is left of it). Invoices of a deleted proposal are gone with it (the foreign key cascades), so
 * they never count; invoices without a proposal count like any other (#37).
 *
 * @param now - the current instant (tests pass a fixed one).
 * @throws {AppError} 403 unless a client.
 */
export async function clientBalance(db: Queryable, actor: Actor, now: Date = new Date()): Promise<ClientBalance> {
  assertRole(actor, "client");
  const { today } = await businessDay(db, now);
  const [row] = await db
    .select(balanceColumns(today, ""))
    .from(invoice)
    .leftJoin(proposal, eq(proposal.id, invoice.proposalId))
    .where(ownedByClient(actor));
  return balanceOf(row);
}

/**
 * The sums of {@link ClientBalance} as select columns: plain aggregates (`window` ""), or window
 * aggregates over the whole list beside its rows (`window` "over ()").
 *
 * @param today - the agency's business day (`YYYY-MM-DD`): due before it is overdue.
 */
function balanceColumns(today: string, window: "" | "over ()") {
  const unpaid = sql`${invoice.status} = 'unpaid'`;
  const overdue = invoiceFilterSql("overdue", today)!;
  const pending = sql`${unpaid} and ${invoice.dueDate} >= ${today}`;
  const over = sql.raw(window);
  return {
    outstandingCount: sql<number>`count(*) filter (where ${unpaid}) ${over}`.mapWith(Number),
    outstandingCents: sql<number>`coalesce(sum(${invoiceBalanceSql}) filter (where ${unpaid}) ${over}, 0)`.mapWith(Number),
    overdueCount: sql<number>`count(*) filter (where ${overdue}) ${over}`.mapWith(Number),
    overdueCents: sql<number>`coalesce(sum(${invoiceBalanceSql}) filter (where ${overdue}) ${over}, 0)`.mapWith(Number),
    nextDueDate: sql<string | null>`(min(${invoice.dueDate}) filter (where ${pending}) ${over})::text`,
  };
}

/** @returns the balance of a row with {@link balanceColumns} (none: no invoice, nothing due). */
function balanceOf(row: ClientBalance | undefined): ClientBalance {
  return {
    outstandingCount: row?.outstandingCount ?? 0,
    outstandingCents: row?.outstandingCents ?? 0,
    overdueCount: row?.overdueCount ?? 0,
    overdueCents: row?.overdueCents ?? 0,
    nextDueDate: row?.nextDueDate ?? null,
  };
}
