/**
 * Accept and sign (docs/product.md#accept-and-sign): the client accepts the current version by
 * typing their full name and ticking "I have read and agree to these terms"; the server records who,
 * what (version + SHA-256 of its canonical form), when (UTC), from where (IP, user agent) and issues
 * a certificate (docs/product.md#certificates) — mailed to the client and the admins, downloadable
 * by them, checkable by anyone at `/verify/<certificate id>`.
 */
import { formatMailTime, rememberTimeZone } from "#app/features/mail/mail-dates.server";
import { currentCommissionRateSql, syncProposalCommissions } from "#app/features/referrals/ledger.server";
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "#app/db/client.server";
import { brandLogo, organisation, proposal, proposalAcceptance, proposalVersion, user } from "#app/db/schema";
import { lockMembership, OWNER_ROLES } from "#app/features/organisations/access.server";
import { ORGANISATION_MESSAGES } from "#app/features/organisations/organisations.messages";
import { emailVerified, visibleToClient } from "#app/features/proposals/client-visibility.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError, notFound, rateLimited } from "#app/lib/errors";
import { hitRateLimit } from "#app/lib/rate-limit.server";
import { recordAudit } from "#app/features/audit/audit.server";
import { notifyAdmin, queueUserNotice } from "#app/features/mail/notifications.server";
import { publishProposalEvent } from "#app/features/live/live-events.server";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { lockOwnProposal } from "#app/features/proposals/proposals.server";
import { firstValidTimeZone } from "#app/lib/dates";
import { AGREEMENT_MESSAGES } from "./agreements.messages";
import { acceptRefusal } from "./offers.server";
import { currentVersion, standingAcceptance } from "./versions.server";
import { issueDepositInvoice } from "./deposit-invoice.server";
import { startWorkWhenReady } from "./start-work.server";
import { recordScheduleAtAcceptance } from "./payment-schedule.server";
import { renderCertificatePdf, type CertificateDocument } from "./certificate-pdf.server";
import type { VersionTerms } from "./terms";

/** What the route knows of the request. */
export interface AcceptanceMeta {
  ip: string | null;
  userAgent: string | null;
  /** The signer's IANA zone (browser cookie), checked here; else the agency's. */
  timeZone: string | null;
  /** The site's origin, for the verify link printed on the certificate. */
  origin: string | null;
}

/** The client's acceptance as posted. */
export interface AcceptanceInput {
  typedName: string;
  /** The version the page showed. */
  version: number;
  /** The hash the page showed, when posted. */
  sha256?: string;
}

/** Verify requests allowed per IP and minute. */
export const VERIFY_LIMIT = { limit: 30, windowMs: 60_000 } as const;

/**
 * Accepts the current version (docs/product.md#accept-and-sign), in one transaction with the
 * proposal locked: records the acceptance, marks the proposal approved (an `awaiting_acceptance`
 * proposal moves to `planning`), and mails the certificate PDF to the client and the admins.
 *
 * @param input - trimmed typed name (1–120 characters, checked again here), the version shown.
 * With a deposit asked (#37), the invoice is issued in the same transaction (deposit-invoice.server.ts);
 * the proposal moves to "In progress" once nothing is due before the work (start-work.server.ts).
 *
 * @returns `changed: false` when this version was already accepted; the certificate id; the invoice
 *   issued for the deposit (null when none was asked, or the proposal had an invoice already).
 * @throws {AppError} 400 on `typedName`; 403 unless a client owner of the proposal's organisation
 *   (docs/product.md#organisations: only an owner signs; or for the proposal's own ambassador); 404 "Proposal not found"; 409 when there is nothing to accept, the proposal was
 *   declined or is closed, or the version shown is no longer current (`details.currentVersion`).
 */
export async function acceptOffer(
  db: Database,
  actor: Actor,
  proposalId: number,
  input: AcceptanceInput,
  meta: AcceptanceMeta,
): Promise<{ changed: boolean; certificateId: string; version: number; invoiceId: number | null }> {
  assertRole(actor, "client");
  const typedName = input.typedName.trim();
  if (!typedName)
    throw new AppError("INVALID_INPUT", AGREEMENT_MESSAGES.nameRequired, { fieldErrors: { typedName: [AGREEMENT_MESSAGES.nameRequired] } });
  if (typedName.length > 120)
    throw new AppError("INVALID_INPUT", AGREEMENT_MESSAGES.nameTooLong, { fieldErrors: { typedName: [AGREEMENT_MESSAGES.nameTooLong] } });
  // Only an owner signs for the organisation (docs/product.md#organisations).
  if (actor.organisationRole && actor.organisationRole !== "owner") throw new AppError("FORBIDDEN", ORGANISATION_MESSAGES.ownersOnly);
  return db.transaction(async (tx) => {
    const row = await lockOwnProposal(tx, actor, proposalId);
    const organisationId = await lockMembership(tx, actor, OWNER_ROLES, ORGANISATION_MESSAGES.ownersOnly);
    const [signedFor] = await tx.select({ name: organisation.name }).from(organisation).where(eq(organisation.id, organisationId));
    const current = await currentVersion(tx, proposalId);
    if (!current) throw new AppError("CONFLICT", AGREEMENT_MESSAGES.nothingToAccept);
    const standing = await standingAcceptance(tx, proposalId);
    if (standing && standing.versionNumber === current.number && input.version === current.number) {
      return { changed: false, certificateId: standing.certificateId, version: current.number, invoiceId: null };
    }
    const refusal = acceptRefusal(row);
    if (refusal) throw new AppError("CONFLICT", refusal);
    if (input.version !== current.number || (input.sha256 !== undefined && input.sha256 !== current.sha256)) {
      throw new AppError("CONFLICT", AGREEMENT_MESSAGES.stale(input.version, current.number));
    }
    const [signer] = await tx.select({ email: user.email }).from(user).where(eq(user.id, actor.id));
    const settings = await getSettings(tx);
    const certificateId = randomBytes(16).toString("base64url");
    const timeZone = firstValidTimeZone(meta.timeZone, settings.timeZone);
    await rememberTimeZone(tx, actor.id, meta.timeZone);
    const [acceptance] = await tx
      .insert(proposalAcceptance)
      .values({
        proposalId,
        versionId: current.id,
        versionNumber: current.number,
        userId: actor.id,
        typedName,
        email: signer?.email ?? actor.email,
        sha256: current.sha256,
        ip: meta.ip?.slice(0, 100) ?? null,
        userAgent: meta.userAgent?.slice(0, 1_000) ?? null,
        timeZone,
        certificateId,
        organisationName: signedFor?.name ?? null,
      })
      .returning();
    const nextStatus = row.status === "awaiting_acceptance" ? "planning" : row.status;
    // Accepting is the client's approval: the ambassador's commission rate is frozen now (kept from a
    // first acceptance a later version voided) and payments already made earn their entries (#25).
    await tx
      .update(proposal)
      .set({
        clientApprovedAt: acceptance!.acceptedAt,
        status: nextStatus,
        commissionRateBps: sql`coalesce(${proposal.commissionRateBps}, ${currentCommissionRateSql()})`,
      })
      .where(eq(proposal.id, proposalId));
    await syncProposalCommissions(tx, proposalId);
    // #37: the deposit is billed at once (the client pays in the same sitting); without one the work starts now.
    // With a payment schedule (#37), its lines are written and the deposit line is issued now.
    const scheduled = await recordScheduleAtAcceptance(tx, actor, proposalId, current.terms, acceptance!.acceptedAt);
    const invoiceId = scheduled.scheduled
      ? scheduled.invoiceId
      : await issueDepositInvoice(
          tx,
          actor,
          { proposalId, clientId: row.clientId ?? actor.id, organisationId: row.organisationId },
          current.terms,
          acceptance!.acceptedAt,
        );
    await recordAudit(tx, actor, {
      entity: "offer",
      entityId: proposalId,
      proposalId,
      action: "accepted",
      after: { version: current.number, sha256: current.sha256, typedName, certificateId },
    });
    if (nextStatus !== row.status) {
      await recordAudit(tx, actor, {
        entity: "proposal",
        entityId: proposalId,
        action: "status-changed",
        before: { status: row.status },
        after: { status: nextStatus },
      });
    }
    const label = row.projectName || current.terms.projectName || `Proposal #${proposalId}`;
    const pdf = await renderCertificatePdf(
      await certificateDocument(tx, { ...acceptance!, voidedByVersion: null }, current.terms, label, meta.origin),
    );
    const attachments = [
      {
        filename: `certificate-${certificateId}.pdf`,
        contentType: "application/pdf",
        content: pdf.toString("base64"),
        encoding: "base64" as const,
      },
    ];
    const lines = [
      `${typedName} (${acceptance!.email})${signedFor ? ` for ${signedFor.name}` : ""} accepted version ${current.number} of "${label}" on ${formatMailTime(acceptance!.acceptedAt, timeZone)}.`,
      `SHA-256 of the terms: ${current.sha256}`,
      `Certificate id: ${certificateId}. The certificate of acceptance is attached.`,
    ];
    await queueUserNotice(tx, actor.id, {
      subject: `Certificate of acceptance: ${label}, version ${current.number}`,
      lines,
      link: { label: "Open your proposal", path: `/proposals/${proposalId}` },
      attachments,
      thread: proposalId,
    });
    await notifyAdmin(tx, {
      subject: `Offer accepted: ${label}, version ${current.number}`,
      lines,
      link: { label: "Open the proposal", path: `/admin/proposals/${proposalId}` },
      attachments,
    });
    await startWorkWhenReady(tx, actor, proposalId);
    await publishProposalEvent(tx, proposalId, "proposal.approved", {}, actor.id);
    return { changed: true, certificateId, version: current.number, invoiceId };
  });
}

/** The certificate's printed facts, from its acceptance row. */
async function certificateDocument(
  q: Queryable | Transaction,
  a: typeof proposalAcceptance.$inferSelect,
  terms: VersionTerms,
  proposalName: string,
  origin: string | null,
): Promise<CertificateDocument> {
  const settings = await getSettings(q);
  const [logo] = await q.select({ contentType: brandLogo.contentType, data: brandLogo.dataBase64 }).from(brandLogo);
  const usableLogo =
    logo && (logo.contentType === "image/png" || logo.contentType === "image/jpeg") ? Buffer.from(logo.data, "base64") : null;
  return {
    certificateId: a.certificateId,
    agencyName: companyNameOf(settings),
    logo: usableLogo,
    proposalId: a.proposalId,
    proposalName,
    terms,
    sha256: a.sha256,
    typedName: a.typedName,
    email: a.email,
    organisationName: a.organisationName,
    acceptedAt: a.acceptedAt,
    timeZone: a.timeZone,
    ip: a.ip,
    userAgent: a.userAgent,
    voidedByVersion: a.voidedByVersion,
    verifyUrl: origin ? `${origin}/verify/${a.certificateId}` : null,
  };
}

/**
 * The certificate PDF for download (docs/product.md#certificates): an admin, or a person of the
 * proposal's organisation who may see it (the proposal page's rule). Anyone else, a certificate of another proposal than
 * `proposalId`, or an unknown id: the same 404.
 *
 * @returns the PDF bytes and its file name.
 * @throws {AppError} 404 "Certificate not found".
 */
export async function getCertificatePdf(
  db: Database,
  actor: Actor,
  proposalId: number,
  certificateId: string,
  origin: string | null,
): Promise<{ bytes: Buffer; filename: string }> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(certificateId)) throw notFound(AGREEMENT_MESSAGES.certificateNotFound);
  const [found] = await db
    .select({ a: proposalAcceptance, terms: proposalVersion.terms, p: proposal })
    .from(proposalAcceptance)
    .innerJoin(proposalVersion, eq(proposalVersion.id, proposalAcceptance.versionId))
    .innerJoin(proposal, eq(proposal.id, proposalAcceptance.proposalId))
    .where(and(eq(proposalAcceptance.certificateId, certificateId), eq(proposalAcceptance.proposalId, proposalId)));
  if (!found) throw notFound(AGREEMENT_MESSAGES.certificateNotFound);
  const allowed =
    actor.role === "admin" ||
    (actor.role === "client" &&
      (
        await db
          .select({ id: proposal.id })
          .from(proposal)
          .where(and(eq(proposal.id, proposalId), visibleToClient(actor, await emailVerified(db, actor))))
      ).length > 0);
  if (!allowed) throw notFound(AGREEMENT_MESSAGES.certificateNotFound);
  const terms = found.terms as unknown as VersionTerms;
  const label = found.p.projectName || terms.projectName || `Proposal #${proposalId}`;
  const bytes = await renderCertificatePdf(await certificateDocument(db, found.a, terms, label, origin));
  return { bytes, filename: `certificate-${certificateId}.pdf` };
}

/** What `/verify/<id>` shows: nothing but these. */
export interface VerifiedCertificate {
  agencyName: string;
  proposalName: string;
  /** The acceptance's instant (UTC). */
  acceptedAt: Date;
  version: number;
  sha256: string;
  /** `standing`, or `voided` (by a later version). */
  state: "standing" | "voided";
  voidedAt: Date | null;
  voidedByVersion: number | null;
}

/**
 * Public check of a certificate (docs/product.md#certificates): the agency, the proposal's name,
 * the date, the version and hash, and whether the acceptance stands — no terms, e-mail or IP.
 * Rate-limited per IP ({@link VERIFY_LIMIT}).
 *
 * @throws {AppError} 429 over the limit; 404 "Certificate not found" for an unknown id.
 */
export async function verifyCertificate(db: Database, certificateId: string, ip: string): Promise<VerifiedCertificate> {
  const limit = await hitRateLimit(db, `verify:${ip}`, VERIFY_LIMIT);
  if (!limit.allowed) throw rateLimited(AGREEMENT_MESSAGES.verifyLimited, limit.retryAfterSeconds);
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(certificateId)) throw notFound(AGREEMENT_MESSAGES.certificateNotFound);
  const [found] = await db
    .select({ a: proposalAcceptance, terms: proposalVersion.terms, projectName: proposal.projectName })
    .from(proposalAcceptance)
    .innerJoin(proposalVersion, eq(proposalVersion.id, proposalAcceptance.versionId))
    .innerJoin(proposal, eq(proposal.id, proposalAcceptance.proposalId))
    .where(eq(proposalAcceptance.certificateId, certificateId));
  if (!found) throw notFound(AGREEMENT_MESSAGES.certificateNotFound);
  const terms = found.terms as unknown as VersionTerms;
  return {
    agencyName: companyNameOf(await getSettings(db)),
    proposalName: found.projectName || terms.projectName || `Proposal #${found.a.proposalId}`,
    acceptedAt: found.a.acceptedAt,
    version: found.a.versionNumber,
    sha256: found.a.sha256,
    state: found.a.voidedAt ? "voided" : "standing",
    voidedAt: found.a.voidedAt,
    voidedByVersion: found.a.voidedByVersion,
  };
}
