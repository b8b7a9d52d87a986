/**
 * Issuing the invoices of billing plans (issue #39, docs/product.md#recurring-billing, ADR 025).
 *
 * The `billing` queue's cron job (every minute, one process at a time) and the job a plan's
 * creation or resumption enqueues call {@link issueDueCycles}: every active plan whose next cycle
 * is dated on or before the agency's today (Settings' zone, the injectable clock) gets one invoice
 * per due cycle, oldest first — a process that was down for three cycles issues three invoices.
 *
 * Exactly once, across processes, retries and downtime: each cycle is issued in its own transaction
 * that locks the plan row (`FOR UPDATE`), re-reads its next cycle under the lock, inserts the
 * cycle's `billing_cycle` row (unique per plan and date, and per plan and index), the invoice
 * (numbered from the shared counter), its items, the audit event and the mails, and advances the
 * plan — all or nothing. A second process waiting on the lock then finds the plan advanced.
 */
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { auditEvent, billingCycle, billingPlan, invoice, invoiceItem, settings } from "#app/db/schema";
import { publishAudit } from "#app/features/live/live-events.server";
import { queueUserNotice, notifyAdmin } from "#app/features/mail/notifications.server";
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import { allocateInvoiceNumber } from "#app/features/invoices/invoice-number.server";
import { invoiceNotice } from "#app/features/invoices/invoice-notice.server";
import { syncInvoiceStatus } from "#app/features/payments/balance.server";
import { signedInvoicePath } from "#app/features/payments/invoice-link.server";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { formatCalendarDate } from "#app/lib/dates";
import { currencyOf } from "#app/lib/money";
import { addCalendarDays, agencyToday, cyclePeriod, nextCycle } from "./plan-dates";
import { scheduleOf } from "./plans.server";
import { scheduleAutopay } from "./autopay.server";
import { clientCanPay } from "#app/features/invoices/client-can-pay.server";

/** Hooks run inside a cycle's transaction after its invoice is written (the saved-card charge of #39). */
export interface IssueHooks {
  /**
   * Called once per issued cycle whose plan charges automatically (default: {@link scheduleAutopay}).
   * True: a charge was queued (no "pay this invoice" mail); false: no saved card, the invoice is mailed.
   */
  onAutopayInvoice?: (tx: Queryable, input: { invoiceId: number; organisationId: number; planId: number }) => Promise<boolean>;
}

/** What one pass did. */
export interface IssueOutcome {
  /** Invoices issued. */
  issued: number;
  /** Plans looked at. */
  plans: number;
}

/** The agency's zone and currency. */
async function agencySettings(q: Queryable): Promise<{ timeZone: string; currency: string }> {
  const [row] = await q.select({ timeZone: settings.timeZone, currency: settings.currency }).from(settings).where(eq(settings.id, 1));
  return { timeZone: row?.timeZone ?? "UTC", currency: currencyOf({ currency: row?.currency ?? "USD" }) };
}

/**
 * Issues every due cycle of every active plan (or of one plan).
 *
 * @param clock - "now" (tests move it); the agency's date decides what is due.
 * @param options.planId - only this plan (the job a creation enqueues).
 * @param options.maxPerPlan - at most this many cycles per plan per pass (the next pass goes on).
 * @param options.cardPayments - whether Stripe is configured: without it and without payment
 *   instructions in Settings nothing is issued (#37: held back, the admin dashboard says so; the
 *   cycles go out on the first pass after the instructions are written).
 * @returns how many invoices were issued.
 */
export async function issueDueCycles(
  db: Database,
  clock: Clock = systemClock,
  options: { planId?: number; maxPerPlan?: number; hooks?: IssueHooks; cardPayments: boolean },
): Promise<IssueOutcome> {
  if (!(await clientCanPay(db, options.cardPayments))) return { issued: 0, plans: 0 };
  const agency = await agencySettings(db);
  const today = agencyToday(clock.now(), agency.timeZone);
  const due = await db
    .select({ id: billingPlan.id })
    .from(billingPlan)
    .where(
      and(
        eq(billingPlan.status, "active"),
        lte(billingPlan.nextCycleOn, today),
        options.planId === undefined ? undefined : eq(billingPlan.id, options.planId),
      ),
    )
    .orderBy(asc(billingPlan.nextCycleOn), asc(billingPlan.id))
    .limit(500);
  let issued = 0;
  for (const { id } of due) {
    for (let n = 0; n < (options.maxPerPlan ?? 100); n++) {
      const done = await issueNextCycle(db, id, today, clock, options.hooks ?? {});
      if (!done) break;
      issued += 1;
    }
  }
  return { issued, plans: due.length };
}

/**
 * Issues the plan's next cycle when it is due, in one transaction.
 *
 * @returns false when nothing was due (or the plan is not active any more).
 */
async function issueNextCycle(db: Database, planId: number, today: string, clock: Clock, hooks: IssueHooks): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [plan] = await tx.select().from(billingPlan).where(eq(billingPlan.id, planId)).for("update");
    if (!plan || plan.status !== "active" || plan.nextCycleOn === null || plan.nextCycleOn > today) return false;
    const schedule = scheduleOf(plan);
    const cycle = nextCycle(schedule, plan.nextCycleIndex);
    const now = clock.now();
    if (!cycle) {
      await tx.update(billingPlan).set({ nextCycleOn: null, updatedAt: now }).where(eq(billingPlan.id, planId));
      return false;
    }
    const following = nextCycle(schedule, cycle.index + 1);
    // The fence: one row per plan and cycle. A conflict means the cycle was issued already (a plan
    // row restored from a backup, say): skip it, never bill it twice.
    const [row] = await tx
      .insert(billingCycle)
      .values({ planId, cycleIndex: cycle.index, cycleOn: cycle.date, autopay: plan.autopay, issuedAt: now })
      .onConflictDoNothing()
      .returning({ id: billingCycle.id });
    await tx
      .update(billingPlan)
      .set({ nextCycleIndex: cycle.index + 1, nextCycleOn: following?.date ?? null, updatedAt: now })
      .where(eq(billingPlan.id, planId));
    if (!row) return true;

    const agency = await agencySettings(tx);
    const people = await organisationPeople(tx, plan.organisationId, MONEY_ROLES);
    const clientId = people[0] ?? null;
    const number = await allocateInvoiceNumber(tx, now);
    const dueDate = addCalendarDays(cycle.date, plan.dueDays);
    const period = cyclePeriod(schedule, cycle.index);
    const periodText = `${formatCalendarDate(period.from)} – ${formatCalendarDate(period.to)}`;
    const items = plan.items.map((item) => ({
      description: `${item.description} (${periodText})`.slice(0, 300),
      amountCents: item.amountCents,
    }));
    const [created] = await tx
      .insert(invoice)
      .values({
        number,
        proposalId: null,
        clientId,
        organisationId: plan.organisationId,
        dueDate,
        status: "unpaid",
        totalCents: plan.totalCents,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: invoice.id });
    const invoiceId = created!.id;
    await tx.insert(invoiceItem).values(items.map((item, position) => ({ invoiceId, position, ...item })));
    await tx.update(billingCycle).set({ invoiceId }).where(eq(billingCycle.id, row.id));
    await syncInvoiceStatus(tx, invoiceId);
    const after = {
      number,
      planId,
      cycleIndex: cycle.index,
      cycleOn: cycle.date,
      clientId,
      dueDate,
      status: "unpaid",
      totalCents: plan.totalCents,
      items,
    };
    await tx.insert(auditEvent).values({
      actorId: null,
      actorEmail: "Billing plan",
      entity: "invoice",
      entityId: String(invoiceId),
      action: "created",
      before: null,
      after,
    });
    await publishAudit(tx, { entity: "invoice", entityId: invoiceId, action: "created", after });

    const autopay = hooks.onAutopayInvoice ?? ((q, input) => scheduleAutopay(q, input, { now }));
    const charging = plan.autopay && (await autopay(tx, { invoiceId, organisationId: plan.organisationId, planId }));
    if (!charging && clientId) {
      for (const person of people)
        await queueUserNotice(
          tx,
          person,
          invoiceNotice(
            invoiceId,
            number,
            plan.totalCents,
            dueDate,
            agency.currency,
            "issued",
            await signedInvoicePath(tx, invoiceId, clientId, now, person),
          ),
        );
    }
    if (!clientId) {
      await notifyAdmin(tx, {
        subject: `Invoice ${number} of “${plan.name}” has no one to send it to`,
        lines: [`The organisation of billing plan “${plan.name}” has no owner or billing person, so invoice ${number} was not mailed.`],
        link: { label: "Open the plan", path: `/admin/billing-plans/${planId}` },
      });
    }
    return true;
  });
}

/** @returns the plan and cycle an invoice was issued for, or null for an invoice of no plan. */
export async function cycleOfInvoice(q: Queryable, invoiceId: number) {
  const [row] = await q
    .select({
      planId: billingCycle.planId,
      cycleIndex: billingCycle.cycleIndex,
      cycleOn: billingCycle.cycleOn,
      autopay: billingCycle.autopay,
    })
    .from(billingCycle)
    .where(eq(billingCycle.invoiceId, invoiceId));
  return row ?? null;
}

/** For /metrics and tests: how many cycles a plan has issued. */
export async function issuedCount(q: Queryable, planId: number): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(billingCycle)
    .where(eq(billingCycle.planId, planId));
  return row?.n ?? 0;
}
