/**
 * Test data for the admin use-cases: rows inserted directly, as the client and
 * ambassador portals would create them, and a snapshot of every table an admin use-case
 * may write (with the audit trail and the mail outbox), to assert that a refused
 * call wrote nothing.
 */
import { asc, type sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import {
  auditEvent,
  commissionEntries,
  invoice,
  invoiceCounter,
  invoiceItem,
  mailOutbox,
  meeting,
  payouts,
  payments,
  proposal,
  session,
  settings,
  user,
  type ProposalStatus,
} from "#app/db/schema";
import { makeAmbassador, makeClient, type TestServices } from "./services";

let n = 0;

/** Inserts a proposal. @returns its id. */
export async function insertProposal(
  db: Database,
  values: Partial<typeof proposal.$inferInsert> & { clientId?: string | null; status?: ProposalStatus } = {},
): Promise<number> {
  const [row] = await db
    .insert(proposal)
    .values({
      source: values.ambassadorId ? "ambassador" : "client",
      projectDetails: `Details ${++n}`,
      projectName: `Project ${n}`,
      status: values.ambassadorId ? "submitted" : "pending",
      ...values,
    })
    .returning({ id: proposal.id });
  return row!.id;
}

/**
 * Registers an ambassador and a client and inserts a proposal of that ambassador for that client
 * (`values` on top, e.g. a budget and `clientApprovedAt` for a commission).
 *
 * @returns the ambassador, the client and the proposal's id.
 */
export async function insertReferredProposal(s: TestServices, values: Parameters<typeof insertProposal>[1] = {}) {
  const ambassador = await makeAmbassador(s);
  const client = await makeClient(s);
  const id = await insertProposal(s.db, { ambassadorId: ambassador.id, clientId: client.id, ...values });
  return { ambassador, client, id };
}

/** Inserts a meeting request. @returns its id. */
export async function insertMeeting(db: Database, values: Partial<typeof meeting.$inferInsert> & { userId: string }): Promise<number> {
  const startsAt = values.startsAt ?? new Date("2026-03-03T19:00:00Z");
  const [row] = await db
    .insert(meeting)
    .values({ timeZone: "America/New_York", endsAt: new Date(startsAt.getTime() + 3_600_000), ...values, startsAt })
    .returning({ id: meeting.id });
  return row!.id;
}

/**
 * Every row of every table the admin use-cases write, in a stable order: equal snapshots
 * before and after a call mean the call wrote nothing.
 */
export async function snapshot(db: Database): Promise<unknown> {
  return {
    user: await db.select().from(user).orderBy(asc(user.id)),
    session: await db.select({ id: session.id }).from(session).orderBy(asc(session.id)),
    proposal: await db.select().from(proposal).orderBy(asc(proposal.id)),
    meeting: await db.select().from(meeting).orderBy(asc(meeting.id)),
    invoice: await db.select().from(invoice).orderBy(asc(invoice.id)),
    invoiceItem: await db.select().from(invoiceItem).orderBy(asc(invoiceItem.id)),
    invoiceCounter: await db.select().from(invoiceCounter).orderBy(asc(invoiceCounter.year)),
    payments: await db.select().from(payments).orderBy(asc(payments.id)),
    settings: await db.select().from(settings),
    auditEvent: await db.select().from(auditEvent).orderBy(asc(auditEvent.id)),
    mailOutbox: await db.select().from(mailOutbox).orderBy(asc(mailOutbox.id)),
    commissionEntries: await db.select().from(commissionEntries).orderBy(asc(commissionEntries.id)),
    payouts: await db.select().from(payouts).orderBy(asc(payouts.id)),
  };
}

/** Runs `fn` and returns the AppError-like rejection (fails when it resolves). */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ status: number; message: string; fieldErrors?: Record<string, string[]> }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; message: string };
  }
  throw new Error("expected the call to be refused");
}

/** Sets a column with raw SQL (e.g. an `infinity` timestamp drizzle cannot express). */
export async function rawExec(db: Database, query: ReturnType<typeof sql>): Promise<void> {
  await db.execute(query);
}
