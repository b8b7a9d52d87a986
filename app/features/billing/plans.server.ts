/**
 * Billing plans (issue #39, docs/product.md#recurring-billing): the admin creates a recurring plan
 * for a client organisation, changes it (from its next invoice), pauses, resumes and cancels it;
 * every write is audited (entity `billing-plan`) in its own transaction, under the plan's row lock,
 * so a change never races the issuing job (`issue-cycles.server.ts`), which takes the same lock.
 *
 * Rules enforced here (the forms only help):
 * - items: 1–20, each a description and an amount ≥ 0, the total > 0 (cents);
 * - start date not before the agency's today (a plan never back-bills); end date not before the
 *   start; an end date or a number of invoices, not both; the plan must issue at least one invoice;
 * - the frequency, start date and day of the month are fixed at creation (the calendar every
 *   issued cycle is counted on); a different rhythm is a new plan;
 * - pause stops issuing; resume goes on with the first cycle dated today or later (a pause's
 *   cycles are not billed); cancel is final.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { addMonths, format } from "date-fns";
import type { Database, Queryable } from "#app/db/client.server";
import { billingCycle, billingPlan, invoice, organisation, settings, type BillingPlanItem } from "#app/db/schema";
import { recordAudit } from "#app/features/audit/audit.server";
import { enqueueJob } from "#app/features/jobs/jobs.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { fieldError, notFound, conflict } from "#app/lib/errors";
import { MAX_CENTS } from "#app/lib/money";
import { BILLING_MESSAGES, MAX_PLAN_ITEMS, type PlanDisplayStatus } from "./billing.messages";
import type { PlanChangeInput, PlanCreateInput } from "./billing.schema";
import { agencyToday, firstCycleOnOrAfter, nextCycle, type PlanSchedule } from "./plan-dates";

export type BillingPlanRow = typeof billingPlan.$inferSelect;

/** The calendar part of a plan row. */
export function scheduleOf(plan: Pick<BillingPlanRow, "frequency" | "startDate" | "dayOfMonth" | "endDate" | "maxCycles">): PlanSchedule {
  return {
    frequency: plan.frequency,
    startDate: plan.startDate,
    dayOfMonth: plan.dayOfMonth,
    endDate: plan.endDate,
    maxCycles: plan.maxCycles,
  };
}

/** @returns how a plan reads: its status, or "ended" when an active plan has no more cycles. */
export function displayStatus(plan: Pick<BillingPlanRow, "status" | "nextCycleOn">): PlanDisplayStatus {
  if (plan.status === "active" && plan.nextCycleOn === null) return "ended";
  return plan.status;
}

async function agencyZone(q: Queryable): Promise<{ timeZone: string; commissionRateBps: number; months: number }> {
  const [row] = await q
    .select({ timeZone: settings.timeZone, rate: settings.commissionRateBps, months: settings.recurringCommissionMonths })
    .from(settings)
    .where(eq(settings.id, 1));
  return { timeZone: row?.timeZone ?? "UTC", commissionRateBps: row?.rate ?? 1500, months: row?.months ?? 12 };
}

/** Server-side checks of items, due days and the end. @throws {AppError} 400 with the field's message. */
function checkedChange(input: PlanChangeInput): { items: BillingPlanItem[]; totalCents: number } {
  if (input.items.length === 0) throw fieldError("items", "Add at least one item.");
  if (input.items.length > MAX_PLAN_ITEMS) throw fieldError("items", `A plan can have at most ${MAX_PLAN_ITEMS} items.`);
  const items = input.items.map((item, index) => {
    const description = item.description.trim();
    if (!description) throw fieldError(`items[${index}].description`, "Description is required.");
    if (!Number.isSafeInteger(item.amountCents) || item.amountCents < 0 || item.amountCents > MAX_CENTS)
      throw fieldError(`items[${index}].amount`, "Enter an amount like 5000 or $5,000.50");
    return { description: description.slice(0, 200), amountCents: item.amountCents };
  });
  const totalCents = items.reduce((sum, item) => sum + item.amountCents, 0);
  if (totalCents <= 0 || totalCents > MAX_CENTS) throw fieldError("items", "The total must be more than $0.00 and at most $10,000,000.00.");
  if (!Number.isInteger(input.dueDays) || input.dueDays < 0 || input.dueDays > 365) throw fieldError("dueDays", BILLING_MESSAGES.dueDays);
  if (input.endDate !== null && input.maxCycles !== null) throw fieldError("maxCycles", BILLING_MESSAGES.endAndCycles);
  if (input.maxCycles !== null && (!Number.isInteger(input.maxCycles) || input.maxCycles < 1 || input.maxCycles > 1000))
    throw fieldError("maxCycles", BILLING_MESSAGES.maxCycles);
  if (!input.name.trim()) throw fieldError("name", "Plan name is required.");
  return { items, totalCents };
}

/** The audited fields of a plan. */
function auditView(plan: BillingPlanRow) {
  return {
    organisationId: plan.organisationId,
    name: plan.name,
    items: plan.items,
    totalCents: plan.totalCents,
    frequency: plan.frequency,
    startDate: plan.startDate,
    dayOfMonth: plan.dayOfMonth,
    endDate: plan.endDate,
    maxCycles: plan.maxCycles,
    dueDays: plan.dueDays,
    autopay: plan.autopay,
    status: plan.status,
    nextCycleOn: plan.nextCycleOn,
  };
}

/**
 * Creates a plan for an organisation and asks the queue to issue what is due at once (a plan
 * starting today gets its first invoice within seconds, not at the next cron minute).
 *
 * The organisation's referring ambassador (if any) earns commission on the plan's paid invoices
 * for Settings' "recurring commission months" from the start date, at today's rate (frozen here).
 *
 * @returns the new plan.
 * @throws {AppError} 403 unless an admin; 400 with a field error (organisation unknown, items,
 *   start date in the past, end before start, both ends, a plan that never bills).
 */
export async function createBillingPlan(
  db: Database,
  actor: Actor,
  input: PlanCreateInput,
  clock: Clock = systemClock,
): Promise<BillingPlanRow> {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedChange(input);
  if (input.dayOfMonth !== null && (!Number.isInteger(input.dayOfMonth) || input.dayOfMonth < 1 || input.dayOfMonth > 31))
    throw fieldError("dayOfMonth", BILLING_MESSAGES.dayOfMonth);
  return db.transaction(async (tx) => {
    const [org] = await tx
      .select({ id: organisation.id, referredById: organisation.referredById })
      .from(organisation)
      .where(eq(organisation.id, input.organisationId));
    if (!org) throw fieldError("organisationId", BILLING_MESSAGES.organisationNotFound);
    const agency = await agencyZone(tx);
    const today = agencyToday(clock.now(), agency.timeZone);
    if (input.startDate < today) throw fieldError("startDate", BILLING_MESSAGES.startInPast);
    if (input.endDate !== null && input.endDate < input.startDate) throw fieldError("endDate", BILLING_MESSAGES.endBeforeStart);
    const schedule: PlanSchedule = {
      frequency: input.frequency,
      startDate: input.startDate,
      dayOfMonth: input.frequency === "weekly" ? null : input.dayOfMonth,
      endDate: input.endDate,
      maxCycles: input.maxCycles,
    };
    const first = nextCycle(schedule, 0);
    if (!first) throw fieldError("endDate", BILLING_MESSAGES.noCycle);
    const [y, m, d] = input.startDate.split("-").map(Number) as [number, number, number];
    const [plan] = await tx
      .insert(billingPlan)
      .values({
        organisationId: org.id,
        name: input.name.trim(),
        items,
        totalCents,
        ...schedule,
        dueDays: input.dueDays,
        autopay: input.autopay,
        status: "active",
        nextCycleIndex: 0,
        nextCycleOn: first.date,
        ambassadorId: org.referredById,
        commissionRateBps: org.referredById ? agency.commissionRateBps : null,
        commissionUntil: org.referredById ? format(addMonths(new Date(y, m - 1, d), agency.months), "yyyy-MM-dd") : null,
        createdById: actor.id,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    await recordAudit(tx, actor, { entity: "billing-plan", entityId: plan!.id, action: "created", before: null, after: auditView(plan!) });
    if (first.date <= today) await enqueueJob(tx, "billing", { planId: plan!.id });
    return plan!;
  });
}

/** Locks a plan for a write. @throws {AppError} 404 when unknown. */
async function lockPlan(tx: Queryable, planId: number): Promise<BillingPlanRow> {
  const [plan] = await tx.select().from(billingPlan).where(eq(billingPlan.id, planId)).for("update");
  if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
  return plan;
}

/**
 * One admin write of an existing plan, in its own transaction: the actor checked, the plan locked,
 * `write` decides (and refuses with its own error); its `set` is written and audited as `action`
 * on the plan with the row before and after (plus `extra`). `afterwards` runs in the same transaction.
 *
 * @returns the plan as written.
 * @throws {AppError} 403 unless an admin; 404 unknown plan; whatever `write` throws.
 */
async function writePlan(
  db: Database,
  actor: Actor,
  planId: number,
  action: "changed" | "paused" | "resumed" | "cancelled",
  write: (
    tx: Queryable,
    before: BillingPlanRow,
  ) => Promise<{
    set: Partial<typeof billingPlan.$inferInsert>;
    extra?: (after: BillingPlanRow) => Record<string, unknown>;
    afterwards?: () => Promise<void>;
  }>,
): Promise<BillingPlanRow> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const before = await lockPlan(tx, planId);
    const { set, extra, afterwards } = await write(tx, before);
    const [after] = await tx.update(billingPlan).set(set).where(eq(billingPlan.id, planId)).returning();
    await recordAudit(tx, actor, {
      entity: "billing-plan",
      entityId: planId,
      action,
      before: auditView(before),
      after: { ...auditView(after!), ...extra?.(after!) },
    });
    await afterwards?.();
    return after!;
  });
}

/**
 * Changes what a plan bills from its next invoice on: name, items, due days, automatic payment and
 * its end (end date or number of invoices). Invoices already issued are not touched.
 *
 * @throws {AppError} 403 unless an admin; 404 unknown plan; 409 cancelled; 400 field errors (as create,
 *   and an end that leaves no cycle after those already issued is accepted: the plan ends).
 */
export async function changeBillingPlan(db: Database, actor: Actor, planId: number, input: PlanChangeInput, clock: Clock = systemClock) {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedChange(input);
  return writePlan(db, actor, planId, "changed", async (_tx, before) => {
    if (before.status === "cancelled") throw conflict(BILLING_MESSAGES.cancelled);
    if (input.endDate !== null && input.endDate < before.startDate) throw fieldError("endDate", BILLING_MESSAGES.endBeforeStart);
    const next = nextCycle({ ...scheduleOf(before), endDate: input.endDate, maxCycles: input.maxCycles }, before.nextCycleIndex);
    return {
      set: {
        name: input.name.trim(),
        items,
        totalCents,
        dueDays: input.dueDays,
        autopay: input.autopay,
        endDate: input.endDate,
        maxCycles: input.maxCycles,
        nextCycleOn: next?.date ?? null,
        updatedAt: clock.now(),
      },
    };
  });
}

/**
 * Pauses an active plan: no invoice is issued until it is resumed.
 *
 * @throws {AppError} 403 unless an admin; 404 unknown plan; 409 not active.
 */
export async function pauseBillingPlan(db: Database, actor: Actor, planId: number, clock: Clock = systemClock) {
  return writePlan(db, actor, planId, "paused", async (_tx, before) => {
    if (before.status !== "active") throw conflict(BILLING_MESSAGES.notActive);
    return { set: { status: "paused" as const, updatedAt: clock.now() } };
  });
}

/**
 * Resumes a paused plan with the first cycle dated on or after the agency's today: the cycles that
 * fell in the pause are not billed (a cycle due today is issued at once).
 *
 * @throws {AppError} 403 unless an admin; 404 unknown plan; 409 not paused.
 */
export async function resumeBillingPlan(db: Database, actor: Actor, planId: number, clock: Clock = systemClock) {
  return writePlan(db, actor, planId, "resumed", async (tx, before) => {
    if (before.status !== "paused") throw conflict(BILLING_MESSAGES.notPaused);
    const today = agencyToday(clock.now(), (await agencyZone(tx)).timeZone);
    const schedule = scheduleOf(before);
    const index = firstCycleOnOrAfter(schedule, before.nextCycleIndex, today);
    const next = nextCycle(schedule, index);
    return {
      set: { status: "active" as const, nextCycleIndex: index, nextCycleOn: next?.date ?? null, updatedAt: clock.now() },
      extra: () => ({ skippedCycles: index - before.nextCycleIndex }),
      afterwards: async () => {
        if (next && next.date <= today) await enqueueJob(tx, "billing", { planId });
      },
    };
  });
}

/**
 * Cancels a plan: no further invoices (those issued stay as they are).
 *
 * @throws {AppError} 403 unless an admin; 404 unknown plan; 409 already cancelled.
 */
export async function cancelBillingPlan(db: Database, actor: Actor, planId: number, clock: Clock = systemClock) {
  return writePlan(db, actor, planId, "cancelled", async (_tx, before) => {
    if (before.status === "cancelled") throw conflict(BILLING_MESSAGES.cancelled);
    return { set: { status: "cancelled" as const, nextCycleOn: null, cancelledAt: clock.now(), updatedAt: clock.now() } };
  });
}

/** A plan row of the admin's list. */
export interface AdminPlanRow {
  id: number;
  name: string;
  organisationId: number;
  organisationName: string;
  frequency: BillingPlanRow["frequency"];
  totalCents: number;
  autopay: boolean;
  status: PlanDisplayStatus;
  nextCycleOn: string | null;
  issued: number;
}

/** The admin's list of plans, newest first (at most 200). @throws {AppError} 403 unless an admin. */
export async function listBillingPlans(db: Queryable, actor: Actor): Promise<AdminPlanRow[]> {
  assertRole(actor, "admin");
  const rows = await db
    .select({
      id: billingPlan.id,
      name: billingPlan.name,
      organisationId: billingPlan.organisationId,
      organisationName: organisation.name,
      frequency: billingPlan.frequency,
      totalCents: billingPlan.totalCents,
      autopay: billingPlan.autopay,
      status: billingPlan.status,
      nextCycleOn: billingPlan.nextCycleOn,
      issued: sql<number>`(select count(*) from ${billingCycle} where ${billingCycle.planId} = ${billingPlan.id})::int`.mapWith(Number),
    })
    .from(billingPlan)
    .innerJoin(organisation, eq(organisation.id, billingPlan.organisationId))
    .orderBy(desc(billingPlan.createdAt), desc(billingPlan.id))
    .limit(200);
  return rows.map((row) => ({ ...row, status: displayStatus(row) }));
}

/** One plan for the admin: the row, its organisation's name and its issued cycles (newest first). */
export async function getBillingPlanForAdmin(db: Queryable, actor: Actor, planId: number) {
  assertRole(actor, "admin");
  const [row] = await db
    .select({ plan: billingPlan, organisationName: organisation.name })
    .from(billingPlan)
    .innerJoin(organisation, eq(organisation.id, billingPlan.organisationId))
    .where(eq(billingPlan.id, planId));
  if (!row) throw notFound(BILLING_MESSAGES.planNotFound);
  const cycles = await db
    .select({
      cycleIndex: billingCycle.cycleIndex,
      cycleOn: billingCycle.cycleOn,
      invoiceId: billingCycle.invoiceId,
      number: invoice.number,
      status: invoice.status,
      totalCents: invoice.totalCents,
      autopay: billingCycle.autopay,
    })
    .from(billingCycle)
    .leftJoin(invoice, eq(invoice.id, billingCycle.invoiceId))
    .where(eq(billingCycle.planId, planId))
    .orderBy(desc(billingCycle.cycleIndex))
    .limit(120);
  return { plan: row.plan, organisationName: row.organisationName, status: displayStatus(row.plan), cycles };
}

/** Organisations to choose from on the new-plan form, by name (at most 500). */
export async function organisationChoices(db: Queryable, actor: Actor) {
  assertRole(actor, "admin");
  return db
    .select({ id: organisation.id, name: organisation.name })
    .from(organisation)
    .orderBy(asc(organisation.name), asc(organisation.id))
    .limit(500);
}

/** The active and paused plans of an organisation (its preview on the client's pages). */
export async function plansOfOrganisation(q: Queryable, organisationId: number) {
  return q
    .select()
    .from(billingPlan)
    .where(and(eq(billingPlan.organisationId, organisationId), sql`${billingPlan.status} <> 'cancelled'`))
    .orderBy(asc(billingPlan.createdAt), asc(billingPlan.id));
}
