/**
 * Who an invoice is from and to, and how to pay it (docs/product.md#invoice-view,
 * docs/product.md#invoice-pdf): shared by the invoice page and both PDFs.
 */
import { buildPaymentLink } from "#app/features/settings/settings-rules";

/** The agency, from Settings. Empty strings for fields not set. */
export interface BillFrom {
  name: string;
  /** Multi-line. */
  address: string;
  email: string;
  taxId: string;
}

/** The client, from their account (else the proposal's name and e-mail). */
export interface BillTo {
  name: string;
  email: string;
  phone: string;
  website: string;
}

/** How to pay: the Settings' instructions and, for an unpaid invoice, the Pay now link. */
export interface PaymentDetails {
  /** Multi-line text, "" when not set. */
  instructions: string;
  /** The template with the number and amount filled in; null when no template is set or the invoice is paid. */
  payLink: string | null;
}

/** @returns the bill-from block of the settings. */
export function billFromSettings(settings: { companyName: string; companyAddress: string; supportEmail: string; taxId: string }): BillFrom {
  return { name: settings.companyName, address: settings.companyAddress, email: settings.supportEmail, taxId: settings.taxId };
}

/**
 * @param invoice.status - stored status; a paid invoice gets no Pay now link.
 * @param invoice.totalCents - the total in cents, substituted as `{amount}` (e.g. `1234.50`).
 * @returns the payment instructions and link of an invoice.
 */
export function paymentDetails(
  settings: { paymentInstructions: string; paymentLinkTemplate: string; currency: string },
  invoice: { number: string; totalCents: number; status: "unpaid" | "paid" },
): PaymentDetails {
  const payLink =
    invoice.status === "paid"
      ? null
      : buildPaymentLink(settings.paymentLinkTemplate, {
          number: invoice.number,
          amountCents: invoice.totalCents,
          currency: settings.currency,
        });
  return { instructions: settings.paymentInstructions, payLink };
}
