/**
 * Invoice PDF (issue #6): number, dates, company, client, items, total, status — drawn with
 * pdfkit. The route applies the same access rules as the invoice page.
 */
import PDFDocument from "pdfkit";
import { formatCents } from "#app/lib/money";
import { formatDate, INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import type { InvoiceDisplayStatus } from "./invoice-status";

/** Everything printed on the invoice. Money in cents; dates as `YYYY-MM-DD` or instants (UTC). */
export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  dueDate: string;
  status: InvoiceDisplayStatus;
  currency: string;
  company: { name: string; email: string };
  client: { name: string; email: string };
  projectName: string | null;
  items: { description: string; amountCents: number }[];
  totalCents: number;
}

/**
 * Renders the invoice.
 *
 * @returns the PDF file's bytes.
 */
export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
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
      .text(invoice.company.name || "Invoice", left, 56);
    if (invoice.company.email) doc.font("Helvetica").fontSize(10).fillColor("#444").text(invoice.company.email);
    doc.fillColor("#000").font("Helvetica-Bold").fontSize(18).text(`Invoice ${invoice.number}`, left, 56, { width, align: "right" });
    doc.font("Helvetica").fontSize(10).text(`Status: ${INVOICE_STATUS_LABELS[invoice.status].toUpperCase()}`, { width, align: "right" });

    doc.moveDown(3);
    const top = doc.y;
    doc.font("Helvetica-Bold").fontSize(10).text("Bill to", left, top);
    doc.font("Helvetica").text(invoice.client.name).text(invoice.client.email);
    if (invoice.projectName) doc.text(`Project: ${invoice.projectName}`);
    doc.font("Helvetica-Bold").text("Issued", left + width / 2, top, { width: width / 2, align: "right" });
    doc.font("Helvetica").text(formatDate(invoice.issuedAt), { width: width / 2, align: "right" });
    doc.font("Helvetica-Bold").text("Due", { width: width / 2, align: "right" });
    doc.font("Helvetica").text(formatDate(invoice.dueDate), { width: width / 2, align: "right" });

    doc.moveDown(2);
    let y = Math.max(doc.y, top + 90);
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
