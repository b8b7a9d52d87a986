/**
 * Test data for the portal use-cases: rows inserted directly (what the admin console of
 * another branch would create), and a helper that captures a use-case's refusal.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "#app/db/client.server";
import { invoice, invoiceItem, payments, proposal, type ProposalStatus } from "#app/db/schema";
import { AppError } from "#app/lib/errors";

/** @returns the {@link AppError} the promise rejects with; fails when it resolves or throws anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

type NewProposal = typeof proposal.$inferInsert;

/** A proposal request's optional fields, all empty: spread it and add `projectDetails` (and what a test needs). */
export const EMPTY_PROPOSAL_REQUEST = {
  projectName: null,
  timeline: null,
  budget: null,
  targetAudience: null,
  designInspiration: null,
  numberOfPages: null,
  websiteGoal: null,
};

/** Inserts a proposal (defaults: a client proposal, pending). @returns its id. */
export async function insertProposal(db: Database, values: Partial<NewProposal> & { clientId?: string | null }): Promise<number> {
  const [row] = await db
    .insert(proposal)
    .values({ source: "client", status: "pending" as ProposalStatus, projectDetails: "A website", ...values })
    .returning({ id: proposal.id });
  return row!.id;
}

/** Reads a whole proposal row (to assert that a refusal changed nothing). */
export async function proposalRow(db: Database, id: number) {
  const [row] = await db.select().from(proposal).where(eq(proposal.id, id));
  return row ?? null;
}

let invoiceCounter = 0;

/**
 * Inserts an invoice with items (total = sum of the items), as the admin console would.
 * @returns the invoice id.
 */
export async function insertInvoice(
  db: Database,
  opts: { proposalId: number; clientId: string | null; items: [string, number][]; dueDate: string; status?: "unpaid" | "paid" },
): Promise<number> {
  const [row] = await db
    .insert(invoice)
    .values({
      number: `INV-TEST-${Date.now()}-${++invoiceCounter}`,
      proposalId: opts.proposalId,
      clientId: opts.clientId,
      dueDate: opts.dueDate,
      status: opts.status ?? "unpaid",
      totalCents: opts.items.reduce((sum, [, cents]) => sum + cents, 0),
    })
    .returning({ id: invoice.id });
  await db
    .insert(invoiceItem)
    .values(opts.items.map(([description, amountCents], position) => ({ invoiceId: row!.id, position, description, amountCents })));
  // A paid invoice is one whose payments cover it (ADR 013): one payment of the total.
  const total = opts.items.reduce((sum, [, cents]) => sum + cents, 0);
  if (opts.status === "paid" && total > 0)
    await db.insert(payments).values({ invoiceId: row!.id, amountCents: total, currency: "USD", method: "other", receivedAt: new Date() });
  return row!.id;
}

/**
 * Parses form fields with a schema exactly as an action does (conform's parseWithZod:
 * empty strings are "missing", numbers are coerced).
 *
 * @returns `{ value }` on success, `{ error }` (field → messages) otherwise.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  entries: Record<string, string>,
): { value?: z.output<S>; error?: Record<string, string[] | null> } {
  const formData = new FormData();
  for (const [name, value] of Object.entries(entries)) formData.set(name, value);
  const submission = parseWithZod(formData, { schema });
  return submission.status === "success" ? { value: submission.value as z.output<S> } : { error: submission.error ?? {} };
}
