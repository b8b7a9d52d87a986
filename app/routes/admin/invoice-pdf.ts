import type { Route } from "./+types/invoice-pdf";
import { billFromSettings, paymentDetails } from "#app/features/invoices/invoice-billing";
import { invoicePdfResponse } from "#app/features/invoices/invoice-pdf.server";
import { getInvoiceForAdmin } from "#app/features/invoices/invoices.admin.server";
import { getSettings } from "#app/features/settings/settings.server";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { paramId } from "#app/lib/ids";
import { listPaymentsForAdmin } from "#app/features/payments/record-payment.server";
import { actorAndDb } from "#app/features/users/session.server";

/** `/admin/invoices/:invoiceId/pdf`: any invoice as a PDF, read as the admin (else 403/404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const invoice = await getInvoiceForAdmin(db, actor, paramId(params.invoiceId, INVOICE_MESSAGES.notFound));
  const settings = await getSettings(db);
  return invoicePdfResponse({
    number: invoice.number,
    issuedAt: new Date(invoice.createdAt ?? Date.now()),
    dueDate: invoice.dueDate,
    status: invoice.displayStatus,
    currency: settings.currency,
    company: billFromSettings(settings),
    payment: paymentDetails(settings, invoice),
    client: {
      name: invoice.clientName ?? "",
      email: invoice.clientEmail ?? "",
      phone: invoice.clientPhone ?? "",
      website: invoice.clientWebsite ?? "",
    },
    projectName: invoice.projectName,
    items: invoice.items,
    totalCents: invoice.totalCents,
    money: {
      depositCents: invoice.depositCents ?? 0,
      paidCents: invoice.paidCents,
      refundedCents: invoice.refundedCents,
      balanceCents: invoice.balanceCents,
    },
    payments: await listPaymentsForAdmin(db, actor, invoice.id),
  });
}
