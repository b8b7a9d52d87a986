/**
 * The client's invoice as a PDF (docs/product.md#invoice-view, docs/product.md#invoice-link): one
 * mapping for `/view-invoice/:id/pdf` (signed in) and `/i/:token/pdf` (signed link).
 */
import type { Queryable } from "#app/db/client.server";
import type { Actor } from "#app/features/users/actor";
import { getSettings } from "#app/features/settings/settings.server";
import { billFromSettings, paymentDetails } from "./invoice-billing";
import { invoicePdfResponse } from "./invoice-pdf.server";
import { getInvoiceForClient } from "./invoices.server";

/**
 * @returns the PDF response of the client's invoice.
 * @throws {AppError} 404 when it is not the client's (as the invoice page), 403 unless a client.
 */
export async function clientInvoicePdf(db: Queryable, client: Actor, invoiceId: number): Promise<Response> {
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, client, invoiceId), getSettings(db)]);
  return invoicePdfResponse({
    number: invoice.number,
    issuedAt: invoice.createdAt,
    dueDate: invoice.dueDate,
    status: invoice.displayStatus,
    currency: settings.currency,
    company: billFromSettings(settings),
    payment: paymentDetails(settings, invoice),
    client: invoice.billTo,
    projectName: invoice.projectName,
    items: invoice.items,
    totalCents: invoice.totalCents,
    money: invoice.money,
    payments: invoice.payments,
  });
}
