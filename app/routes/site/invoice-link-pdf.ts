import type { Route } from "./+types/invoice-link-pdf";
import { servicesContext } from "#app/context";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { invoicePdfResponse } from "#app/features/invoices/invoice-pdf.server";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { openSignedInvoice } from "#app/features/payments/invoice-link.server";
import { getSettings } from "#app/features/settings/settings.server";

/** `/i/:token/pdf`: the signed link's invoice as a PDF (docs/product.md#invoice-link); same rules as the page (else 404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const { invoiceId, client } = await openSignedInvoice(db, params.token);
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
