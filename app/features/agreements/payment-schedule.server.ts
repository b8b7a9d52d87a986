/**
 * Payment schedules at work (issue #37, docs/product.md#payment-schedule, ADR 026): when an offer
 * with a schedule is accepted, its lines are written to `payment_schedule_line` (the deposit is
 * issued at once); each other line becomes an invoice when it falls due — on its date or N days
 * after signing (the `schedule` job, in the agency's time zone), or when the admin marks the
 * milestone reached. Every line is issued exactly once: the issuer locks the line's row and sets
 * `issued_at` in the transaction that writes the invoice.
 */
import { memoRead } from "#app/db/request-memo.server";
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { invoice, paymentScheduleLine, proposal } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { issueInvoice } from "#app/features/invoices/generate-invoice.server";
import { assertClientCanPay, clientCanPay } from "#app/features/invoices/client-can-pay.server";
import { getSettings } from "#app/features/settings/settings.server";
import { dateIn, addCalendarDays } from "#app/features/meetings/slots";
import { assertRole, type Actor } from "#app/features/users/actor";
import { now as clockNow } from "#app/lib/clock.server";
import { formatCalendarDate, isValidTimeZone } from "#app/lib/dates";
import { AppError, notFound } from "#app/lib/errors";
import { currencyOf, formatCents } from "#app/lib/money";
import { depositCents, type VersionTerms } from "./terms";
import { dueRuleText, lineDueDate, type ScheduleDue } from "./schedule";
import { issuedScheduleAmounts } from "./issued-schedule.server";

export { issuedScheduleAmounts } from "./issued-schedule.server";

/** Days a schedule line's invoice gives the client to pay, from the day it falls due. */
export const SCHEDULE_TERM_DAYS = 14;

/** Who the audit names for invoices the job issues. */
export const SCHEDULE_ACTOR = "Payment schedule";

/** Messages of the schedule's actions. */
export const SCHEDULE_ACTION_MESSAGES = {
  lineNotFound: "This payment is not in the proposal's schedule.",
  notMilestone: "This payment falls due on its own (a date or a number of days after signing); only a milestone is marked reached.",
  alreadyReached: "This milestone was already marked reached.",
  noClient: "The proposal has no client account to send the invoice to.",
  reached: (label: string, number: string) => `“${label}” marked reached: invoice ${number} was sent to the client.`,
} as const;

/** One line as the proposal's pages show it. Money in cents; dates `YYYY-MM-DD` (agency time zone). */
export interface ScheduleLineView {
  id: number;
  position: number;
  label: string;
  amountCents: number;
  dueKind: ScheduleDue["kind"];
  /** The day it falls (or fell) due; null for a milestone not reached yet. */
  dueOn: string | null;
  reachedAt: Date | null;
  invoiceId: number | null;
  invoiceNumber: string | null;
  invoiceStatus: "unpaid" | "paid" | null;
  /** The invoice's due date (the day it must be paid by). */
  invoiceDueDate: string | null;
}

/** @returns today's calendar date in the agency's time zone (Settings; UTC when unset or invalid). */
export async function agencyToday(q: Queryable, at: Date): Promise<string> {
  const { timeZone } = await getSettings(q);
  return dateIn(at, isValidTimeZone(timeZone) ? timeZone : "UTC");
}

/**
 * The proposal's schedule, oldest position first, with each line's invoice (the caller has checked
 * the reader's right to the proposal).
 *
 * @returns `[]` for a proposal without a schedule (or not accepted yet).
 */
export async function listScheduleLines(q: Queryable, proposalId: number): Promise<ScheduleLineView[]> {
  return (await scheduleLinesOf(q, [proposalId])).get(proposalId) ?? [];
}

/**
 * What comes next in a schedule, in words (#37: the client's next step is always true):
 * "Milestone 2 is due on June 9, 2026", "Final payment is due when the agency marks it reached".
 *
 * @returns null when every line is issued (what is unpaid shows as an invoice).
 */
export function nextLineSentence(lines: readonly ScheduleLineView[], currency: string): string | null {
  const next = nextLine(lines);
  if (!next) return null;
  const amount = formatCents(next.amountCents, currency);
  if (next.dueOn) return `${next.label} (${amount}) is due on ${formatCalendarDate(next.dueOn)}.`;
  return `${next.label} (${amount}) is due when the agency marks it reached.`;
}

/** @returns the first line not issued yet after the deposit, or undefined. */
function nextLine(lines: readonly ScheduleLineView[]): ScheduleLineView | undefined {
  return lines.find((line) => line.invoiceId === null && line.dueKind !== "signing");
}

/**
 * The sentence the signing page and the deposit's mail say about the lines after the deposit:
 * "Then: Milestone 1 ($900.00) when the agency marks it reached; Final payment ($2,100.00) 30 days after signing."
 *
 * @returns null for an offer without a schedule.
 */
export function scheduleSentence(terms: Pick<VersionTerms, "schedule" | "currency">): string | null {
  if (!terms.schedule?.length) return null;
  const parts = terms.schedule.map(
    (line) => `${line.label} (${formatCents(line.amountCents, terms.currency)}) ${dueRuleText(line.due, formatCalendarDate)}`,
  );
  return `Then, each as its own invoice: ${parts.join("; ")}.`;
}

/**
 * Writes the schedule of an offer just accepted, in the acceptance's transaction (the proposal
 * locked): the lines not issued yet are replaced by the accepted version's (issued ones stay), each
 * line's due day is set from the signing day in the agency's time zone, and the lines due that day
 * (the deposit, a date already past) are issued at once.
 *
 * @param terms - the accepted version's terms.
 * @returns the invoice of the deposit (else of the first line issued now), or null; `scheduled`
 *   false when the version has no schedule (the caller bills the deposit the old way).
 */
export async function recordScheduleAtAcceptance(
  tx: Queryable,
  actor: Actor,
  proposalId: number,
  terms: VersionTerms,
  acceptedAt: Date,
): Promise<{ scheduled: boolean; invoiceId: number | null }> {
  await tx.delete(paymentScheduleLine).where(and(eq(paymentScheduleLine.proposalId, proposalId), isNull(paymentScheduleLine.issuedAt)));
  if (!terms.schedule?.length) return { scheduled: false, invoiceId: null };
  const signedOn = await agencyToday(tx, acceptedAt);
  const deposit = depositCents(terms.deposit, terms.totalCents);
  const lines = [
    ...(deposit !== null ? [{ label: "Deposit", amountCents: deposit, due: { kind: "signing" } as ScheduleDue }] : []),
    ...terms.schedule,
  ];
  const issued = await issuedScheduleAmounts(tx, proposalId);
  const rows = lines
    .map((line, position) => ({ line, position }))
    .filter(({ line, position }) => !issued.has(position) && line.amountCents > 0)
    .map(({ line, position }) => ({
      proposalId,
      position,
      versionNumber: terms.version,
      label: line.label,
      amountCents: line.amountCents,
      dueKind: line.due.kind,
      dueOn: lineDueDate(line.due, signedOn),
    }));
  if (rows.length) await tx.insert(paymentScheduleLine).values(rows);
  const due = await tx
    .select({ id: paymentScheduleLine.id })
    .from(paymentScheduleLine)
    .where(
      and(eq(paymentScheduleLine.proposalId, proposalId), isNull(paymentScheduleLine.issuedAt), lte(paymentScheduleLine.dueOn, signedOn)),
    )
    .orderBy(asc(paymentScheduleLine.position));
  let first: number | null = null;
  for (const line of due) {
    const id = await issueScheduleLine(tx, actor, line.id, acceptedAt);
    first ??= id;
  }
  return { scheduled: true, invoiceId: first };
}

/**
 * Issues one schedule line as its invoice, exactly once (the row locked, `issued_at` checked and
 * set): one item ("Milestone 1: design approved — Project"), due {@link SCHEDULE_TERM_DAYS} days
 * after the line's day; the deposit asks itself as the deposit (so the work starts once it is
 * paid). Mailed to the organisation's owners and billing people.
 *
 * @param actor - the admin or client whose action made it due, or null for the job.
 * @returns the invoice id, or null when the line was issued already, is locked by another issuer,
 *   or its proposal has no client account.
 */
export async function issueScheduleLine(tx: Queryable, actor: Actor | null, lineId: number, now: Date): Promise<number | null> {
  const [line] = await tx
    .select()
    .from(paymentScheduleLine)
    .where(and(eq(paymentScheduleLine.id, lineId), isNull(paymentScheduleLine.issuedAt)))
    .for("update", { skipLocked: true });
  if (!line) return null;
  const [p] = await tx
    .select({ clientId: proposal.clientId, organisationId: proposal.organisationId, projectName: proposal.projectName })
    .from(proposal)
    .where(eq(proposal.id, line.proposalId));
  if (!p?.clientId) return null;
  const today = await agencyToday(tx, now);
  const day = line.dueOn && line.dueOn > today ? line.dueOn : today;
  const currency = currencyOf(await getSettings(tx));
  const amount = formatCents(line.amountCents, currency);
  const project = p.projectName || `Proposal #${line.proposalId}`;
  const after = await listScheduleLines(tx, line.proposalId);
  const upcoming = nextLineSentence(
    after.filter((l) => l.id !== line.id),
    currency,
  );
  const lead =
    line.dueKind === "signing"
      ? `Thank you for accepting the offer. Pay ${amount} now (deposit).`
      : `${line.label} of “${project}” is due: ${amount}.`;
  const created = await issueInvoice(tx, actor, {
    proposalId: line.proposalId,
    clientId: p.clientId,
    organisationId: p.organisationId,
    items: [{ description: `${line.label} — ${project}`.slice(0, 200), amountCents: line.amountCents }],
    dueDate: addCalendarDays(day, SCHEDULE_TERM_DAYS),
    depositCents: line.dueKind === "signing" ? line.amountCents : null,
    now,
    mailLead: upcoming ? `${lead} Next: ${upcoming}` : lead,
    systemActor: SCHEDULE_ACTOR,
  });
  await tx
    .update(paymentScheduleLine)
    .set({ issuedAt: now, invoiceId: created.id, dueOn: line.dueOn ?? day })
    .where(eq(paymentScheduleLine.id, line.id));
  return created.id;
}

/**
 * The `schedule` job (#37): issues every line due today or earlier in the agency's time zone, each
 * in its own transaction. Two runners at once issue each line once (the row lock, SKIP LOCKED, and
 * `issued_at`). Without card payments and without payment instructions nothing is issued (#37: the
 * lines are held back, the admin dashboard says so; they go out on the first run after).
 *
 * @param options.cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`).
 * @returns how many invoices this run issued.
 */
export async function issueDueScheduleLines(db: Database, at: Date = clockNow(), options: { cardPayments: boolean }): Promise<number> {
  if (!(await clientCanPay(db, options.cardPayments))) return 0;
  const today = await agencyToday(db, at);
  const due = await db
    .select({ id: paymentScheduleLine.id })
    .from(paymentScheduleLine)
    .where(and(isNull(paymentScheduleLine.issuedAt), lte(paymentScheduleLine.dueOn, today)))
    .orderBy(asc(paymentScheduleLine.dueOn), asc(paymentScheduleLine.id))
    .limit(500);
  let issued = 0;
  for (const { id } of due) {
    if (await db.transaction((tx) => issueScheduleLine(tx, null, id, at))) issued += 1;
  }
  return issued;
}

/**
 * "Mark milestone reached" (#37, admin only): the milestone falls due today (agency time zone) and
 * its invoice is issued and mailed at once. Audited as `milestone-reached` on the proposal.
 *
 * @param options.cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`).
 * @returns the invoice issued (id, number) and the message to show.
 * @throws {AppError} 403 unless an admin; 404 unknown line (or of another proposal); 409 not a
 *   milestone, already reached, or no client account; 409 `INVOICE_MESSAGES.instructionsFirst`
 *   without card payments and without payment instructions (#37).
 */
export async function markMilestoneReached(
  db: Database,
  actor: Actor,
  proposalId: number,
  lineId: number,
  at: Date = clockNow(),
  options: { cardPayments: boolean },
): Promise<{ invoiceId: number; number: string; message: string }> {
  assertRole(actor, "admin");
  await assertClientCanPay(db, options.cardPayments);
  return db.transaction(async (tx) => {
    const [line] = await tx
      .select()
      .from(paymentScheduleLine)
      .where(and(eq(paymentScheduleLine.id, lineId), eq(paymentScheduleLine.proposalId, proposalId)))
      .for("update");
    if (!line) throw notFound(SCHEDULE_ACTION_MESSAGES.lineNotFound);
    if (line.dueKind !== "milestone") throw new AppError("CONFLICT", SCHEDULE_ACTION_MESSAGES.notMilestone);
    if (line.reachedAt || line.issuedAt) throw new AppError("CONFLICT", SCHEDULE_ACTION_MESSAGES.alreadyReached);
    const today = await agencyToday(tx, at);
    await tx
      .update(paymentScheduleLine)
      .set({ reachedAt: at, reachedBy: actor.id, dueOn: today })
      .where(eq(paymentScheduleLine.id, line.id));
    await recordAudit(tx, actor, {
      entity: "proposal",
      entityId: proposalId,
      action: "milestone-reached",
      before: { reachedAt: null },
      after: { position: line.position, label: line.label, amountCents: line.amountCents, dueOn: today },
    });
    const invoiceId = await issueScheduleLine(tx, actor, line.id, at);
    if (invoiceId === null) throw new AppError("CONFLICT", SCHEDULE_ACTION_MESSAGES.noClient);
    const [created] = await tx.select({ number: invoice.number }).from(invoice).where(eq(invoice.id, invoiceId));
    return { invoiceId, number: created!.number, message: SCHEDULE_ACTION_MESSAGES.reached(line.label, created!.number) };
  });
}

/** What comes next on one project's schedule, for the client's dashboard and invoices page. */
export interface UpcomingPayment {
  proposalId: number;
  projectName: string | null;
  /** "Milestone 2 ($500.00) is due on Jun 9, 2026." */
  text: string;
  /** The line's day (`YYYY-MM-DD`, agency time zone); null for a milestone not reached yet. */
  dueOn: string | null;
}

/**
 * The next unissued line of each open project of the client's (#37: "Milestone 2 is due on …").
 *
 * Read once per request for the same proposals (the dashboard's next steps and balance card); pages only.
 *
 * @param proposals - the client's open proposals as they may see them (the caller's read, rights checked).
 * @returns one entry per project with a line still to come, in the proposals' order.
 */
export function upcomingPayments(
  q: Queryable,
  proposals: readonly { id: number; projectName: string | null }[],
  currency: string,
): Promise<UpcomingPayment[]> {
  return memoRead(q, `upcoming-payments:${currency}:${proposals.map((p) => p.id).join(",")}`, async () => {
    const lines = await scheduleLinesOf(
      q,
      proposals.map((p) => p.id),
    );
    const out: UpcomingPayment[] = [];
    for (const p of proposals) {
      const own = lines.get(p.id) ?? [];
      const text = nextLineSentence(own, currency);
      if (text) out.push({ proposalId: p.id, projectName: p.projectName, text, dueOn: nextLine(own)!.dueOn });
    }
    return out;
  });
}

/** The schedules of several proposals at once (dashboards): proposal id → lines. */
export async function scheduleLinesOf(q: Queryable, proposalIds: readonly number[]): Promise<Map<number, ScheduleLineView[]>> {
  const out = new Map<number, ScheduleLineView[]>();
  if (proposalIds.length === 0) return out;
  const rows = await q
    .select({
      proposalId: paymentScheduleLine.proposalId,
      id: paymentScheduleLine.id,
      position: paymentScheduleLine.position,
      label: paymentScheduleLine.label,
      amountCents: paymentScheduleLine.amountCents,
      dueKind: paymentScheduleLine.dueKind,
      dueOn: paymentScheduleLine.dueOn,
      reachedAt: paymentScheduleLine.reachedAt,
      invoiceId: paymentScheduleLine.invoiceId,
      invoiceNumber: invoice.number,
      invoiceStatus: invoice.status,
      invoiceDueDate: invoice.dueDate,
    })
    .from(paymentScheduleLine)
    .leftJoin(invoice, eq(invoice.id, paymentScheduleLine.invoiceId))
    .where(inArray(paymentScheduleLine.proposalId, [...proposalIds]))
    .orderBy(asc(paymentScheduleLine.proposalId), asc(paymentScheduleLine.position));
  for (const { proposalId, ...line } of rows) {
    const list = out.get(proposalId) ?? [];
    list.push(line);
    out.set(proposalId, list);
  }
  return out;
}
