import type { Route } from "./+types/invoice-link-pdf";
import { servicesContext } from "#app/context";
import { clientInvoicePdf } from "#app/features/invoices/client-invoice-pdf.server";
import { openSignedInvoice } from "#app/features/payments/invoice-link.server";

/** `/i/:token/pdf`: the signed link's invoice as a PDF (docs/product.md#invoice-link); same rules as the page (else 404). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const { invoiceId, client } = await openSignedInvoice(db, params.token);
  return clientInvoicePdf(db, client, invoiceId);
}
