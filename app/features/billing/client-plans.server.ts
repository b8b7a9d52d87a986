/**
 * What the client sees of recurring billing (issue #39, docs/product.md#recurring-billing): on the
 * dashboard and the invoices page, each plan of their organisation that still bills — what will be
 * billed next, when, and how (charged to the saved card, or mailed with a pay link). Owners and
 * billing people only (money roles), checked in the statement (`inOrganisation`).
 */
import { and, asc, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { billingPlan } from "#app/db/schema";
import { inOrganisation, MONEY_ROLES } from "#app/features/organisations/access.server";
import type { Actor } from "#app/features/users/actor";
import type { BillingFrequency } from "./plan-dates";

/** One plan as the client's preview shows it. */
export interface ClientPlanPreview {
  id: number;
  name: string;
  frequency: BillingFrequency;
  /** Each invoice's total, cents. */
  totalCents: number;
  items: { description: string; amountCents: number }[];
  /** `YYYY-MM-DD` of the next invoice; null while paused. */
  nextOn: string | null;
  paused: boolean;
  /** The plan charges automatically (whether a card is saved is the page's to say). */
  autopay: boolean;
  dueDays: number;
}

/**
 * @returns the organisation's active and paused plans that have an invoice to come, oldest first
 *   (empty for members and for anyone outside the organisation).
 */
export async function clientPlanPreviews(db: Queryable, actor: Actor): Promise<ClientPlanPreview[]> {
  const rows = await db
    .select({
      id: billingPlan.id,
      name: billingPlan.name,
      frequency: billingPlan.frequency,
      totalCents: billingPlan.totalCents,
      items: billingPlan.items,
      nextOn: billingPlan.nextCycleOn,
      status: billingPlan.status,
      autopay: billingPlan.autopay,
      dueDays: billingPlan.dueDays,
    })
    .from(billingPlan)
    .where(
      and(
        inOrganisation(billingPlan.organisationId, actor, MONEY_ROLES),
        sql`${billingPlan.status} in ('active', 'paused') and ${billingPlan.nextCycleOn} is not null`,
      ),
    )
    .orderBy(asc(billingPlan.createdAt), asc(billingPlan.id))
    .limit(20);
  return rows.map(({ status, ...row }) => ({ ...row, paused: status === "paused", nextOn: status === "paused" ? null : row.nextOn }));
}
