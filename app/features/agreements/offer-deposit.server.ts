/**
 * The accepted offer, for invoicing (docs/product.md#offers, team plan "offers"): "Generate invoice"
 * on an accepted proposal proposes the offer's line items and its deposit.
 */
import type { Queryable } from "#app/db/client.server";
import { proposalVersion } from "#app/db/schema";
import { and, eq } from "drizzle-orm";
import { standingAcceptance } from "./versions.server";
import type { VersionTerms } from "./terms";

/** What an invoice may take from the accepted offer. Money in cents; a percentage as a whole number. */
export interface OfferForInvoice {
  items: { description: string; quantity: number; unitPriceCents: number }[];
  deposit: { kind: "amount" | "percent"; value: number } | null;
}

/**
 * @returns the line items and deposit of the version whose acceptance stands, or null when no
 *   acceptance stands (never accepted, or voided by a later version). The caller checks the
 *   reader's right (an admin generating the invoice).
 */
export async function getOfferForInvoice(db: Queryable, proposalId: number): Promise<OfferForInvoice | null> {
  const standing = await standingAcceptance(db, proposalId);
  if (!standing) return null;
  const [version] = await db
    .select({ terms: proposalVersion.terms })
    .from(proposalVersion)
    .where(and(eq(proposalVersion.id, standing.versionId), eq(proposalVersion.proposalId, proposalId)));
  if (!version) return null;
  const terms = version.terms as unknown as VersionTerms;
  return {
    items: terms.items.map((i) => ({ description: i.description, quantity: i.quantity, unitPriceCents: i.unitPriceCents })),
    deposit: terms.deposit ? { kind: terms.deposit.kind, value: terms.deposit.value } : null,
  };
}
