import type { Route } from "./+types/invoice-pdf";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { invoicePdfResponse } from "#app/features/invoices/invoice-pdf.server";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { getSettings } from "#app/features/settings/settings.server";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";

/** `/view-invoice/:invoiceId/pdf`: the client's own invoice as a PDF; same rules as the page (else 404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const invoiceId = paramId(params.invoiceId, INVOICE_MESSAGES.notFound);
  const [invoice, settings] = await Promise.all([getInvoiceForClient(db, actor, invoiceId), getSettings(db)]);
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
