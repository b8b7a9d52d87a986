/**
 * Offer versions (docs/product.md#offer-versions): immutable numbered snapshots of a proposal's
 * terms, each with the SHA-256 of its canonical form; making one voids a standing acceptance of an
 * earlier one (docs/product.md#accept-and-sign). Also the History both proposal pages show: each
 * version with what changed from the previous one, and the acceptances and their voiding.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Queryable, Transaction } from "#app/db/client.server";
import { type proposal, proposalAcceptance, proposalVersion, user } from "#app/db/schema";
import type { Actor } from "#app/features/users/actor";
import { recordAudit } from "#app/features/audit/audit.server";
import { notifyAdmin, queueUserNotice } from "#app/features/mail/notifications.server";
import { publishProposalEvent } from "#app/features/live/live-events.server";
import { getSettings } from "#app/features/settings/settings.server";
import { currencyOf } from "#app/lib/money";
import { canonicalJson, type CanonicalValue } from "./canonical";
import { termsHash } from "./canonical.server";
import { diffTerms, type FieldChange } from "./terms-diff.server";
import { priceItems, priceSchedule, type VersionTerms } from "./terms";
import type { OfferDeposit, OfferItem } from "#app/db/schema";
import type { ScheduleLineTerms } from "./schedule";
import { issuedScheduleAmounts } from "./issued-schedule.server";

/** The editable part of the terms (what the offer form holds). */
export interface OfferTermsInput {
  projectName: string;
  scope: string;
  items: OfferItem[];
  timeline: string;
  deposit: OfferDeposit | null;
  /** The milestones and the final payment (#37); `[]` or absent = no schedule. */
  schedule?: ScheduleLineTerms[];
  validUntil: string | null;
}

/** A stored version. */
export interface StoredVersion {
  id: number;
  number: number;
  terms: VersionTerms;
  sha256: string;
  createdAt: Date;
  createdByName: string;
}

/**
 * The terms a version made now would hold: the offer's fields, the items priced, the currency and
 * the Settings' terms and conditions in force (null when none).
 *
 * @param version - the number it would get (0 to compare terms regardless of their number).
 */
export async function termsFor(q: Queryable, proposalId: number, input: OfferTermsInput, version: number): Promise<VersionTerms> {
  const settings = await getSettings(q);
  const { items, totalCents } = priceItems(input.items);
  // Lines already invoiced keep their amounts: a new version changes only the others (#37).
  const schedule = priceSchedule(totalCents, input.deposit, input.schedule ?? [], await issuedScheduleAmounts(q, proposalId));
  return {
    proposalId,
    version,
    projectName: input.projectName,
    scope: input.scope,
    items,
    totalCents,
    currency: currencyOf(settings),
    timeline: input.timeline,
    deposit: input.deposit ? { kind: input.deposit.kind, value: input.deposit.value } : null,
    validUntil: input.validUntil,
    termsAndConditions: settings.termsAndConditions.trim() ? settings.termsAndConditions : null,
    // Only when there is one: a version without a schedule keeps the canonical form it always had.
    ...(schedule.length > 0 ? { schedule } : {}),
  };
}

/** @returns true when both hold the same terms, whatever their version numbers. */
export function sameTerms(a: VersionTerms, b: VersionTerms): boolean {
  return (
    canonicalJson({ ...a, version: 0 } as unknown as CanonicalValue) === canonicalJson({ ...b, version: 0 } as unknown as CanonicalValue)
  );
}

/** @returns the proposal's latest version, or null before the first. */
export async function currentVersion(q: Queryable, proposalId: number): Promise<StoredVersion | null> {
  const [row] = await q
    .select()
    .from(proposalVersion)
    .where(eq(proposalVersion.proposalId, proposalId))
    .orderBy(desc(proposalVersion.number))
    .limit(1);
  return row ? toStored(row) : null;
}

function toStored(
  row: Pick<typeof proposalVersion.$inferSelect, "id" | "number" | "terms" | "sha256" | "createdAt" | "createdByName">,
): StoredVersion {
  return {
    id: row.id,
    number: row.number,
    terms: row.terms as unknown as VersionTerms,
    sha256: row.sha256,
    createdAt: row.createdAt,
    createdByName: row.createdByName,
  };
}

/** @returns the acceptance that still stands (not voided), or null. */
export async function standingAcceptance(q: Queryable, proposalId: number) {
  const [row] = await q
    .select()
    .from(proposalAcceptance)
    .where(and(eq(proposalAcceptance.proposalId, proposalId), isNull(proposalAcceptance.voidedAt)))
    .orderBy(desc(proposalAcceptance.acceptedAt))
    .limit(1);
  return row ?? null;
}

/**
 * Makes the next version of a proposal's terms, in the caller's transaction (the proposal row
 * locked). When an acceptance stands, it is voided by this version: the proposal's approval is
 * cleared, both sides are mailed and the thread gets "acceptance voided".
 *
 * @param proposalRow - the locked proposal.
 * @param input - the terms' editable part (already validated).
 * @param options.event - the timeline event: `sent` (the first offer the agency sends) or `version-made`.
 * @returns the new version.
 */
export async function makeVersion(
  tx: Transaction,
  actor: Actor,
  proposalRow: typeof proposal.$inferSelect,
  input: OfferTermsInput,
  options: { event: "sent" | "version-made" },
): Promise<StoredVersion & { voided: number | null }> {
  const [{ max } = { max: 0 }] = await tx
    .select({ max: sql<number>`coalesce(max(${proposalVersion.number}), 0)::int` })
    .from(proposalVersion)
    .where(eq(proposalVersion.proposalId, proposalRow.id));
  const number = Number(max) + 1;
  const terms = await termsFor(tx, proposalRow.id, input, number);
  const sha256 = termsHash(terms as unknown as CanonicalValue);
  const [author] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
  const [row] = await tx
    .insert(proposalVersion)
    .values({
      proposalId: proposalRow.id,
      number,
      terms: terms as unknown as Record<string, unknown>,
      sha256,
      createdBy: actor.id,
      createdByName: author?.name ?? actor.email,
    })
    .returning();
  await recordAudit(tx, actor, {
    entity: "offer",
    entityId: proposalRow.id,
    proposalId: proposalRow.id,
    action: options.event,
    after: { version: number, sha256, totalCents: terms.totalCents },
  });
  const label = proposalRow.projectName || terms.projectName || `Proposal #${proposalRow.id}`;

  // A standing acceptance of an earlier version is voided by this one.
  const standing = await standingAcceptance(tx, proposalRow.id);
  let voided: number | null = null;
  if (standing) {
    voided = standing.versionNumber;
    await tx
      .update(proposalAcceptance)
      .set({ voidedAt: sql`now()`, voidedByVersion: number })
      .where(eq(proposalAcceptance.id, standing.id));
    await recordAudit(tx, actor, {
      entity: "offer",
      entityId: proposalRow.id,
      proposalId: proposalRow.id,
      action: "acceptance-voided",
      before: { acceptedVersion: standing.versionNumber, certificateId: standing.certificateId },
      after: { version: number },
    });
    const lines = [
      `The terms of "${label}" changed after they were accepted: version ${number} replaces version ${standing.versionNumber}.`,
      `The acceptance of version ${standing.versionNumber} is voided; version ${number} waits for the client's acceptance.`,
    ];
    if (proposalRow.clientId) {
      await queueUserNotice(tx, proposalRow.clientId, {
        subject: `Acceptance of version ${standing.versionNumber} voided: ${label}`,
        lines,
        link: { label: `Read version ${number}`, path: `/proposals/${proposalRow.id}` },
        thread: proposalRow.id,
      });
    }
    await notifyAdmin(tx, {
      subject: `Acceptance of version ${standing.versionNumber} voided: ${label}`,
      lines,
      link: { label: "Open the proposal", path: `/admin/proposals/${proposalRow.id}` },
    });
    await publishProposalEvent(tx, proposalRow.id, "proposal.acceptance-voided", {}, actor.id);
  }
  return { ...toStored(row!), voided };
}

/** One entry of the History: a version and what changed from the previous one. */
export interface HistoryVersion {
  number: number;
  sha256: string;
  createdAt: Date;
  createdByName: string;
  totalCents: number;
  currency: string;
  /** Empty for version 1. */
  changes: FieldChange[];
  /** "Acceptance of version 3 voided by version 4" lines this version caused. */
  voids: number[];
}

/** An acceptance as the History lists it (no IP, no user agent: those are on the certificate). */
export interface HistoryAcceptance {
  versionNumber: number;
  typedName: string;
  acceptedAt: Date;
  voidedAt: Date | null;
  voidedByVersion: number | null;
  certificateId: string;
}

/** One acceptance as {@link readAgreement}'s statement returns it: version, typed name, accepted and voided (ms since the epoch), voiding version, certificate id. */
type AcceptanceJson = [number, string, number, number | null, number | null, string];

/** The History of a proposal's terms, newest version first. */
export interface TermsHistory {
  versions: HistoryVersion[];
  acceptances: HistoryAcceptance[];
}

/** A proposal's terms as its pages show them: the current version, the acceptance that stands, the History. */
export interface AgreementState {
  /** The newest version, or null before the first offer. */
  current: StoredVersion | null;
  /** The newest acceptance not voided (of whichever version), or null. */
  standing: HistoryAcceptance | null;
  history: TermsHistory;
}

/**
 * Reads a proposal's versions and acceptances in one statement (whatever the page needs of them:
 * the current version, the standing acceptance, the History — docs/product.md#offer-versions). The
 * acceptances come as one JSON array on each version row (PostgreSQL reads them once; an acceptance
 * always has a version, so no version means no acceptance). The caller has checked the reader's
 * right to the proposal.
 */
export async function readAgreement(q: Queryable, proposalId: number): Promise<AgreementState> {
  const found = await q
    .select({
      id: proposalVersion.id,
      number: proposalVersion.number,
      terms: proposalVersion.terms,
      sha256: proposalVersion.sha256,
      createdAt: proposalVersion.createdAt,
      createdByName: proposalVersion.createdByName,
      acceptances: sql<AcceptanceJson[]>`(select coalesce(json_agg(json_build_array(a.version_number, a.typed_name,
        floor(extract(epoch from a.accepted_at) * 1000)::float8, floor(extract(epoch from a.voided_at) * 1000)::float8,
        a.voided_by_version, a.certificate_id) order by a.accepted_at desc, a.id desc), '[]'::json)
        from ${proposalAcceptance} a where a.proposal_id = ${proposalId})`,
    })
    .from(proposalVersion)
    .where(eq(proposalVersion.proposalId, proposalId))
    .orderBy(asc(proposalVersion.number));
  const rows: StoredVersion[] = found.map(toStored);
  const acceptances: HistoryAcceptance[] = (found[0]?.acceptances ?? []).map(
    ([versionNumber, typedName, acceptedAt, voidedAt, voidedByVersion, certificateId]) => ({
      versionNumber,
      typedName,
      acceptedAt: new Date(acceptedAt),
      voidedAt: voidedAt === null ? null : new Date(voidedAt),
      voidedByVersion,
      certificateId,
    }),
  );
  const versions = rows.map((v, index) => ({
    number: v.number,
    sha256: v.sha256,
    createdAt: v.createdAt,
    createdByName: v.createdByName,
    totalCents: v.terms.totalCents,
    currency: v.terms.currency,
    changes: index === 0 ? [] : diffTerms(rows[index - 1]!.terms, v.terms),
    voids: acceptances.filter((a) => a.voidedByVersion === v.number).map((a) => a.versionNumber),
  }));
  return {
    current: rows.at(-1) ?? null,
    standing: acceptances.find((a) => a.voidedAt === null) ?? null,
    history: { versions: versions.reverse(), acceptances },
  };
}
