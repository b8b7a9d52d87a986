/**
 * Invoice PDF (docs/product.md#invoice-pdf): number, dates, bill-from (company, address,
 * support e-mail, tax ID), bill-to (business, e-mail, phone, website), items, total, status,
 * payment instructions and the payment link — drawn with pdfkit. The route applies the same
 * access rules as the invoice page.
 * pdfkit (≈ 25 MB of memory once loaded, fonts included) is imported on the first PDF, not at server start.
 */
import { formatCents } from "#app/lib/money";
import type { BillFrom, BillTo, PaymentDetails } from "./invoice-billing";
import { formatDate, INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import type { InvoiceDisplayStatus } from "./invoice-status";

/** Everything printed on the invoice. Money in cents; dates as `YYYY-MM-DD` or instants (UTC). */
export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  dueDate: string;
  status: InvoiceDisplayStatus;
  currency: string;
  company: BillFrom;
  client: BillTo;
  payment: PaymentDetails;
  projectName: string | null;
  items: { description: string; amountCents: number }[];
  totalCents: number;
  /** Derived money (docs/product.md#payments): deposit, paid, refunded, balance; absent = nothing paid yet. */
  money?: { depositCents: number; paidCents: number; refundedCents: number; balanceCents: number };
  /** Payments (positive) and refunds (negative), oldest first. */
  payments?: { receivedAt: Date | string; amountCents: number; method: string }[];
}

/**
 * Renders the invoice.
 *
 * @returns the PDF file's bytes.
 */
type PdfKit = typeof import("pdfkit");
let pdfkit: Promise<PdfKit> | undefined;

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const PDFDocument = await (pdfkit ??= import("pdfkit").then((m) => (m as unknown as { default: PdfKit }).default));
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: `Invoice ${invoice.number}`, Author: invoice.company.name } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    const money = (cents: number) => formatCents(cents, invoice.currency);
    const left = doc.page.margins.left;
    const right = doc.page.width - doc.page.margins.right;
    const width = right - left;

    doc
      .font("Helvetica-Bold")
      .fontSize(22)
      // The agency's name from Settings; without one, nothing (never "Invoice" above "Invoice INV-…", #37).
      .text(invoice.company.name || " ", left, 56, { width: width / 2 });
    const nameBottom = doc.y;
    doc.fillColor("#000").font("Helvetica-Bold").fontSize(18).text(`Invoice ${invoice.number}`, left, 56, { width, align: "right" });
    doc.font("Helvetica").fontSize(10).text(`Status: ${INVOICE_STATUS_LABELS[invoice.status].toUpperCase()}`, { width, align: "right" });

    doc.moveDown(2);
    const top = Math.max(doc.y, nameBottom + 12, 110);
    const column = (width - 24) / 2;
    // Bill from (left) and bill to (right).
    doc.font("Helvetica-Bold").fontSize(10).fillColor("#000").text("From", left, top, { width: column });
    doc.font("Helvetica").fillColor("#222");
    for (const line of [
      invoice.company.name,
      invoice.company.address,
      invoice.company.email,
      invoice.company.taxId ? `Tax ID: ${invoice.company.taxId}` : "",
    ]) {
      if (line) doc.text(line, { width: column });
    }
    const fromBottom = doc.y;
    doc
      .font("Helvetica-Bold")
      .fillColor("#000")
      .text("Bill to", left + column + 24, top, { width: column });
    doc.font("Helvetica").fillColor("#222");
    for (const line of [invoice.client.name, invoice.client.email, invoice.client.phone, invoice.client.website]) {
      if (line) doc.text(line, { width: column });
    }
    const toBottom = doc.y;

    let detailsTop = Math.max(fromBottom, toBottom) + 16;
    doc.fillColor("#000");
    const details: [string, string][] = [
      ["Project", invoice.projectName ?? "Website project"],
      ["Issued", formatDate(invoice.issuedAt)],
      ["Due", formatDate(invoice.dueDate)],
    ];
    for (const [label, value] of details) {
      doc.font("Helvetica-Bold").text(`${label}: `, left, detailsTop, { continued: true }).font("Helvetica").text(value);
      detailsTop = doc.y;
    }

    doc.moveDown(2);
    let y = doc.y;
    doc.font("Helvetica-Bold").text("Description", left, y).text("Amount", left, y, { width, align: "right" });
    y += 16;
    doc.moveTo(left, y).lineTo(right, y).strokeColor("#999").stroke();
    y += 8;
    doc.font("Helvetica");
    for (const item of invoice.items) {
      const height = doc.heightOfString(item.description, { width: width - 120 });
      if (y + height > doc.page.height - doc.page.margins.bottom - 40) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      doc.text(item.description, left, y, { width: width - 120 });
      doc.text(money(item.amountCents), left, y, { width, align: "right" });
      y += height + 8;
    }
    doc.moveTo(left, y).lineTo(right, y).stroke();
    y += 10;
    doc
      .font("Helvetica-Bold")
      .fontSize(12)
      .text(`Total ${money(invoice.totalCents)}`, left, y, { width, align: "right" });
    doc.fontSize(10).font("Helvetica");
    const m = invoice.money;
    if (m) {
      const line = (label: string, value: string, bold = false) => {
        doc.font(bold ? "Helvetica-Bold" : "Helvetica").text(`${label} ${value}`, left, doc.y + 4, { width, align: "right" });
      };
      if (m.depositCents) line("Deposit asked", money(m.depositCents));
      for (const p of invoice.payments ?? []) {
        const day = (typeof p.receivedAt === "string" ? p.receivedAt : p.receivedAt.toISOString()).slice(0, 10);
        line(
          p.amountCents < 0 ? `Refunded ${formatDate(day)}` : `Paid ${formatDate(day)} (${p.method.replace("_", " ")})`,
          money(-p.amountCents),
        );
      }
      line("Balance due", money(m.balanceCents), true);
      doc.font("Helvetica");
    }
    const stillDue = !m || m.balanceCents > 0;
    if (stillDue && (invoice.payment.instructions || invoice.payment.payLink)) {
      doc.moveDown(2);
      if (doc.y > doc.page.height - doc.page.margins.bottom - 80) doc.addPage();
      doc.font("Helvetica-Bold").text("How to pay", left, doc.y, { width });
      doc.font("Helvetica");
      if (invoice.payment.instructions) doc.text(invoice.payment.instructions, { width });
      if (invoice.payment.payLink) {
        doc
          .moveDown(0.5)
          .fillColor("#1d3fa3")
          .text(`Pay online: ${invoice.payment.payLink}`, { width, link: invoice.payment.payLink, underline: true });
        doc.fillColor("#000");
      }
    }
    doc.end();
  });
}

/** The PDF as an HTTP response (inline, named after the invoice number). */
export async function invoicePdfResponse(invoice: InvoiceDocument): Promise<Response> {
  const bytes = await renderInvoicePdf(invoice);
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${invoice.number.replace(/[^\w.-]/g, "_")}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
