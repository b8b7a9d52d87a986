/**
 * Receipts (docs/product.md#receipts): each payment and refund e-mails the invoice's client a
 * receipt through the outbox, in the transaction that recorded it, with a PDF receipt attached
 * (drawn with pdfkit like the invoice PDF).
 */
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import type { Queryable } from "#app/db/client.server";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { formatCents } from "#app/lib/money";
import { INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import type { InvoiceMoneyRow } from "./balance.server";
import type { PaymentRow } from "./payment-hooks.server";
import { signedInvoicePath } from "./invoice-link.server";
import { PAYMENT_METHOD_LABELS } from "./payments.messages";
import { formatMailDate, readerTimeZone } from "#app/features/mail/mail-dates.server";

/** What a receipt prints. Money in cents. */
export interface ReceiptDocument {
  company: string;
  invoiceNumber: string;
  payment: Pick<PaymentRow, "id" | "amountCents" | "method" | "receivedAt" | "reference">;
  money: Pick<InvoiceMoneyRow, "totalCents" | "paidCents" | "refundedCents" | "balanceCents" | "status">;
  currency: string;
  /** The zone its date is written in (the agency's; issue #41). */
  timeZone?: string;
}

/** A payment's receipt number, e.g. "R-42" (the payment row's id). */
export const receiptNumber = (paymentId: number): string => `R-${paymentId}`;

type PdfKit = typeof import("pdfkit");
let pdfkit: Promise<PdfKit> | undefined;

/** @returns the PDF receipt's bytes. */
export async function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  const PDFDocument = await (pdfkit ??= import("pdfkit").then((m) => (m as unknown as { default: PdfKit }).default));
  const refund = receipt.payment.amountCents < 0;
  const money = (cents: number) => formatCents(cents, receipt.currency);
  return new Promise((resolve, reject) => {
    const title = `${refund ? "Refund" : "Receipt"} for invoice ${receipt.invoiceNumber}`;
    const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: title, Author: receipt.company } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc
      .font("Helvetica-Bold")
      .fontSize(20)
      .text(receipt.company || "Receipt");
    doc.moveDown();
    doc.fontSize(16).text(title);
    doc.moveDown();
    doc.font("Helvetica").fontSize(11);
    const lines: [string, string][] = [
      [refund ? "Refunded" : "Amount paid", money(Math.abs(receipt.payment.amountCents))],
      ["Date", formatMailDate(receipt.payment.receivedAt, receipt.timeZone ?? "UTC")],
      ["Method", PAYMENT_METHOD_LABELS[receipt.payment.method]],
      ["Reference", receipt.payment.reference || "—"],
      ["Receipt number", receiptNumber(receipt.payment.id)],
      ["Invoice total", money(receipt.money.totalCents)],
      ["Paid", money(receipt.money.paidCents)],
      ...(receipt.money.refundedCents > 0 ? [["Refunded", money(receipt.money.refundedCents)] as [string, string]] : []),
      ["Balance due", money(receipt.money.balanceCents)],
      ["Status", INVOICE_STATUS_LABELS[receipt.money.status]],
    ];
    for (const [label, value] of lines) doc.text(`${label}: ${value}`);
    doc.end();
  });
}

/**
 * Queues the receipt of one payment or refund (essential mail: sent whatever their preference) to
 * each owner and billing person of the invoice's organisation (else the invoice's client), each
 * with a link of their own, in the caller's transaction (docs/product.md#organisation-notifications).
 */
export async function queuePaymentReceipt(
  tx: Queryable,
  input: {
    clientId: string;
    organisationId?: number | null;
    invoiceId: number;
    payment: PaymentRow;
    money: InvoiceMoneyRow;
    currency: string;
  },
): Promise<void> {
  const settings = await getSettings(tx);
  const refund = input.payment.amountCents < 0;
  const amount = formatCents(Math.abs(input.payment.amountCents), input.currency);
  const balance = formatCents(input.money.balanceCents, input.currency);
  const pdf = await renderReceiptPdf({
    company: companyNameOf(settings),
    invoiceNumber: input.money.number,
    payment: input.payment,
    money: input.money,
    currency: input.currency,
    timeZone: settings.timeZone,
  });
  const method = PAYMENT_METHOD_LABELS[input.payment.method];
  for (const person of await organisationPeople(tx, input.organisationId, MONEY_ROLES, input.clientId)) {
    // Date, method and receipt number in the mail itself (issue #41), the date in the reader's zone.
    const date = formatMailDate(input.payment.receivedAt, await readerTimeZone(tx, person));
    await queueUserNotice(tx, person, {
      subject: refund ? `Refund of ${amount} on invoice ${input.money.number}` : `Receipt: ${amount} paid on invoice ${input.money.number}`,
      lines: [
        refund
          ? `We refunded ${amount} on invoice ${input.money.number}.`
          : `Thank you: we received ${amount} for invoice ${input.money.number}.`,
        `Date: ${date}. Method: ${method}. Receipt number: ${receiptNumber(input.payment.id)}.`,
        `Balance due: ${balance}.`,
        "The receipt is attached as a PDF.",
      ],
      link: { label: "View your invoice", path: await signedInvoicePath(tx, input.invoiceId, input.clientId, undefined, person) },
      attachments: [
        {
          filename: `${refund ? "refund" : "receipt"}-${input.money.number}-${input.payment.id}.pdf`,
          contentType: "application/pdf",
          content: pdf.toString("base64"),
          encoding: "base64",
        },
      ],
    });
  }
}
