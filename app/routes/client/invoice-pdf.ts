import type { Route } from "./+types/invoice-pdf";
import { servicesContext } from "#app/context";
import { invoicePdfResponse } from "#app/features/invoices/invoice-pdf.server";
import { getInvoiceForClient } from "#app/features/invoices/invoices.server";
import { getSettings } from "#app/features/settings/settings.server";
import { throwAsResponse } from "#app/lib/intent.server";
import { requireUser } from "#app/lib/session.server";

/** `/view-invoice/:invoiceId/pdf` (issue #6): the client's own invoice as a PDF; same rules as the page (else 404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const actor = requireUser(context);
  try {
    const [invoice, settings] = await Promise.all([getInvoiceForClient(db, actor, params.invoiceId), getSettings(db)]);
    return await invoicePdfResponse({
      number: invoice.number,
      issuedAt: invoice.createdAt,
      dueDate: invoice.dueDate,
      status: invoice.displayStatus,
      currency: settings.currency,
      company: { name: settings.companyName, email: settings.supportEmail },
      client: { name: actor.businessName ?? actor.name, email: actor.email },
      projectName: invoice.projectName,
      items: invoice.items,
      totalCents: invoice.totalCents,
    });
  } catch (error) {
    throwAsResponse(error);
  }
}
