/**
 * One invoice with its items, as the admin's invoice page and PDF show it
 * (docs/product.md#invoices-editing, docs/product.md#invoice-pdf).
 */
import { eq } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, proposal, user } from "#app/db/schema";
import { invoiceItemsSql } from "./invoice-items.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { toIsoOrNull } from "#app/lib/dates";
import { notFound } from "#app/lib/errors";
import { adminInvoiceColumns, type AdminInvoiceRow } from "./invoice-admin-row.server";
import { invoiceDisplayStatus } from "./invoice-status";
import { businessDay } from "#app/features/settings/settings.server";
import { INVOICE_MESSAGES } from "./invoices.messages";

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
    .select({ ...adminInvoiceColumns, clientPhone: user.phone, clientWebsite: user.website, items: invoiceItemsSql })
    .from(invoice)
    .leftJoin(proposal, eq(proposal.id, invoice.proposalId))
    .leftJoin(user, eq(user.id, invoice.clientId))
    .where(eq(invoice.id, invoiceId));
  if (!row) throw notFound(INVOICE_MESSAGES.notFound);
  return {
    ...row,
    paidAt: toIsoOrNull(row.paidAt),
    createdAt: toIsoOrNull(row.createdAt),
    disputedAt: toIsoOrNull(row.disputedAt),
    balanceCents: Math.max(0, row.totalCents - row.paidCents),
    displayStatus: invoiceDisplayStatus(row, now, (await businessDay(db, now)).timeZone),
  };
}
