/**
 * Billing-plan set-up shared by the recurring-billing, plan and automatic-payment tests (issue #39):
 * a client with the organisation registration made for them, and a plan's create input.
 */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { membership } from "#app/db/schema";
import type { PlanCreateInput } from "#app/features/billing/billing.schema";
import type { Actor } from "#app/features/users/actor";
import { makeClient, type TestServices } from "./services";

/** @returns the id of the organisation `client` belongs to (the one made at registration). */
export async function organisationOf(db: Database, client: Actor): Promise<number> {
  const [row] = await db.select({ id: membership.organisationId }).from(membership).where(eq(membership.userId, client.id));
  return row!.id;
}

/** A new client and their organisation's id. */
export async function clientWithOrganisation(s: TestServices) {
  const client = await makeClient(s);
  return { client, organisationId: await organisationOf(s.db, client) };
}

/**
 * A plan to create: "Hosting and maintenance", monthly from 2026-01-31, $200.00 an invoice
 * (Hosting $40.00 + Maintenance $160.00), due in 14 days, until cancelled, no automatic payment.
 */
export const planInput = (organisationId: number, over: Partial<PlanCreateInput> = {}): PlanCreateInput => ({
  organisationId,
  name: "Hosting and maintenance",
  items: [
    { description: "Hosting", amountCents: 4_000 },
    { description: "Maintenance", amountCents: 16_000 },
  ],
  frequency: "monthly",
  startDate: "2026-01-31",
  dayOfMonth: null,
  endDate: null,
  maxCycles: null,
  dueDays: 14,
  autopay: false,
  ...over,
});
