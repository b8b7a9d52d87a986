/**
 * The "Certificate of acceptance" PDF (docs/product.md#certificates), drawn with pdfkit like the
 * invoices: the agency's name and logo, the proposal and version, the full terms, the signer's
 * typed name and account e-mail, the time in UTC and in the signer's zone, IP, user agent, the
 * SHA-256 of the version's canonical form and the certificate id.
 */
import { pngDecodes } from "#app/features/settings/png-check.server";
import { formatCents } from "#app/lib/money";
import { formatDateTime } from "#app/lib/dates";
import { depositText, itemsText } from "./terms-diff.server";
import type { VersionTerms } from "./terms";

/** Everything printed on a certificate. Instants UTC. */
export interface CertificateDocument {
  certificateId: string;
  agencyName: string;
  /** PNG or JPEG bytes of the agency's logo, or null. */
  logo: Buffer | null;
  proposalId: number;
  proposalName: string;
  terms: VersionTerms;
  sha256: string;
  typedName: string;
  email: string;
  /** The organisation signed for (null: an acceptance from before organisations). */
  organisationName?: string | null;
  acceptedAt: Date;
  timeZone: string;
  ip: string | null;
  userAgent: string | null;
  /** Voided by a later version: printed at the top (a downloaded copy still tells). */
  voidedByVersion: number | null;
  /** Where anyone can check it (`<origin>/verify/<id>`), when known. */
  verifyUrl: string | null;
}

type PdfKit = typeof import("pdfkit");
let pdfkit: Promise<PdfKit> | undefined;

/** @returns the certificate's PDF bytes. */
export async function renderCertificatePdf(cert: CertificateDocument): Promise<Buffer> {
  const PDFDocument = await (pdfkit ??= import("pdfkit").then((m) => (m as unknown as { default: PdfKit }).default));
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 56,
      info: { Title: `Certificate of acceptance ${cert.certificateId}`, Author: cert.agencyName },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    const left = doc.page.margins.left;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    const t = cert.terms;
    const money = (cents: number) => formatCents(cents, t.currency);

    let top = 56;
    // A damaged PNG would crash the process inside pdfkit's asynchronous decoder: checked first.
    const pngSignature = cert.logo?.subarray(0, 4).toString("latin1") === "\x89PNG";
    if (cert.logo && (!pngSignature || pngDecodes(cert.logo))) {
      try {
        doc.image(cert.logo, left, top, { height: 40 });
        top += 52;
      } catch {
        // A logo pdfkit cannot draw is left out; the name is printed anyway.
      }
    }
    doc.font("Helvetica-Bold").fontSize(16).fillColor("#000").text(cert.agencyName, left, top, { width });
    doc.moveDown(0.5);
    doc.fontSize(22).text("Certificate of acceptance", { width });
    if (cert.voidedByVersion !== null) {
      doc
        .moveDown(0.3)
        .fontSize(12)
        .fillColor("#b91c1c")
        .text(`VOIDED: this acceptance was voided by version ${cert.voidedByVersion} of the terms.`, { width });
      doc.fillColor("#000");
    }
    doc.moveDown(0.8);

    const row = (label: string, value: string) => {
      doc.font("Helvetica-Bold").fontSize(10).text(`${label}: `, { continued: true, width }).font("Helvetica").text(value, { width });
    };
    row("Certificate id", cert.certificateId);
    row("Proposal", `${cert.proposalName} (#${cert.proposalId})`);
    row("Version", String(t.version));
    row("Accepted by (typed name)", cert.typedName);
    row("Account e-mail", cert.email);
    if (cert.organisationName) row("On behalf of", cert.organisationName);
    row("Accepted at (UTC)", `${cert.acceptedAt.toISOString()}`);
    row(`Accepted at (${cert.timeZone})`, formatDateTime(cert.acceptedAt, cert.timeZone));
    row("IP address", cert.ip ?? "unknown");
    row("User agent", cert.userAgent ?? "unknown");
    row("SHA-256 of the terms' canonical form", cert.sha256);
    if (cert.verifyUrl) row("Check it at", cert.verifyUrl);

    doc.moveDown(1);
    doc.font("Helvetica-Bold").fontSize(14).text(`The terms accepted (version ${t.version})`, { width });
    doc.moveDown(0.4);
    const section = (title: string, body: string) => {
      doc.font("Helvetica-Bold").fontSize(11).text(title, { width });
      doc
        .font("Helvetica")
        .fontSize(10)
        .text(body || "—", { width });
      doc.moveDown(0.6);
    };
    section("Project name", t.projectName);
    section("Scope", t.scope);
    section("Line items", itemsText(t));
    section("Total", money(t.totalCents));
    section("Deposit", depositText(t));
    section("Estimated timeline", t.timeline);
    section("Valid until", t.validUntil ?? "Not set");
    section("Terms and conditions", t.termsAndConditions ?? "None");

    doc.moveDown(0.5);
    doc
      .font("Helvetica-Oblique")
      .fontSize(9)
      .fillColor("#444")
      .text(
        "This is a typed-name electronic acceptance with an audit trail, not a qualified electronic signature. The SHA-256 is computed over the canonical JSON form of the terms (keys sorted, UTF-8, no whitespace) as documented by the agency's portal.",
        { width },
      );
    doc.end();
  });
}
