/**
 * Billing set-up shared by tests: a client with the organisation registration made for them, a
 * plan's create input (recurring billing, issue #39) and a one-line invoice (payments, ledger).
 */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { membership } from "#app/db/schema";
import type { PlanCreateInput } from "#app/features/billing/billing.schema";
import { generateInvoice } from "#app/features/invoices/generate-invoice.server";
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

/**
 * Generates, as `admin`, the invoice "Site" $1,000.00 (100,000 cents) for `proposalId`, due on
 * `dueDate` (YYYY-MM-DD), with card payments set up (so nothing is held back for want of a way to pay).
 *
 * @returns what `generateInvoice` returns (the invoice's id and number).
 */
export function siteInvoice(db: Database, admin: Actor, proposalId: number, dueDate: string) {
  return generateInvoice(db, admin, proposalId, { dueDate, items: [{ description: "Site", amountCents: 100_000 }] }, undefined, {
    cardPayments: true,
  });
}
