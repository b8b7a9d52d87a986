import type { Route } from "./+types/invoice-pdf";
import { clientInvoicePdf } from "#app/features/invoices/client-invoice-pdf.server";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";

/** `/view-invoice/:invoiceId/pdf`: the client's own invoice as a PDF; same rules as the page (else 404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return clientInvoicePdf(db, actor, paramId(params.invoiceId, INVOICE_MESSAGES.notFound));
}
