/**
 * Automatic payment of billing-plan invoices with the organisation's saved card, and dunning
 * (issue #39, docs/product.md#automatic-payment, ADR 025).
 *
 * - {@link scheduleAutopay}: in the transaction that issues a cycle of a plan that charges
 *   automatically — with a saved card, an `invoice_autopay` row and one `autopay` job; without one,
 *   false (the invoice is mailed with its pay link as any other).
 * - {@link runAutopayCharge} (the `autopay` job): one off-session PaymentIntent for the balance with
 *   the idempotency key `autopay-invoice-<id>-<attempt>` — a job retried after a crash or a network
 *   error sends the same key, so Stripe makes one charge per attempt. The answer is applied at once;
 *   the webhook's events (`payment_intent.succeeded` / `payment_failed` / `requires_action`) apply
 *   the same outcome again and change nothing: a payment is recorded once per intent (a unique
 *   column), a failure once per attempt (`failures < attempt`, under the row locks).
 * - A failure (the bank asks for authentication, or declines) mails the organisation's owners and
 *   billing people a pay link to the invoice, which stays due, and schedules the next retry
 *   (Settings' dunning days after the first failure: 1, 3, 7); each failed retry mails a reminder;
 *   after the last one the admins are told and nothing more is tried.
 * - {@link queueDueRetries} and {@link sendCardExpiryNotices} run in the `billing` sweep.
 */
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import Stripe from "stripe";
import type { Database, Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import { billingPlan, invoice, invoiceAutopay, savedCard, settings } from "#app/db/schema";
import { enqueueJob } from "#app/features/jobs/jobs.server";
import { notifyAdmin, queueUserNotice } from "#app/features/mail/notifications.server";
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import { getInvoiceMoney } from "#app/features/payments/balance.server";
import { signedInvoicePath } from "#app/features/payments/invoice-link.server";
import { lockInvoice } from "#app/features/payments/record-payment.server";
import { cardLabel, savedCardOf } from "#app/features/payments/saved-cards.server";
import { applyCardPayment } from "#app/features/payments/card-payment.server";
import { stripeClient, type StripeConfig } from "#app/features/payments/stripe-client.server";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { formatCalendarDate } from "#app/lib/dates";
import { logger } from "#app/lib/logger.server";
import { currencyOf, formatCents } from "#app/lib/money";
import { addCalendarDays, agencyToday } from "./plan-dates";

const DAY_MS = 86_400_000;

/** The `autopay` job's data. */
export interface AutopayJobData {
  invoiceId: number;
}

/** What a charge or an event did. */
export type AutopayOutcome = "paid" | "held" | "duplicate" | "failure-handled" | "skipped" | "no-card" | "settled";

/** The idempotency key of attempt `attempt` of an invoice's automatic payment. */
export function autopayIdempotencyKey(invoiceId: number, attempt: number): string {
  return `autopay-invoice-${invoiceId}-${attempt}`;
}

/**
 * Called in the transaction that issues a cycle of a plan that charges automatically.
 *
 * @returns true when a charge was queued (the card's owner is mailed that it will be charged);
 *   false when the organisation has no saved card (the caller mails the invoice with its pay link).
 */
export async function scheduleAutopay(
  tx: Queryable,
  input: { invoiceId: number; organisationId: number; planId: number },
  options: { now?: Date } = {},
): Promise<boolean> {
  const card = await savedCardOf(tx, input.organisationId);
  if (!card) return false;
  const [row] = await tx
    .insert(invoiceAutopay)
    .values({ invoiceId: input.invoiceId, organisationId: input.organisationId, planId: input.planId, state: "queued" })
    .onConflictDoNothing()
    .returning({ invoiceId: invoiceAutopay.invoiceId });
  if (!row) return true;
  await enqueueJob(tx, "autopay", { invoiceId: input.invoiceId } satisfies AutopayJobData);
  await mailMoneyPeople(tx, input.invoiceId, options.now ?? new Date(), (money, path) => ({
    subject: `New invoice ${money.number}`,
    lines: [
      `Invoice ${money.number} for ${formatCents(money.balanceCents, money.currency)} was issued to you.`,
      `It will be charged to your saved card (${cardLabel(card)}); you need do nothing.`,
    ],
    link: { label: "View your invoice", path },
  }));
  return true;
}

type MoneyForMail = { number: string; balanceCents: number; currency: string; dueDate: string };

/** Mails each owner and billing person of the invoice's organisation a notice with their signed link to it. */
async function mailMoneyPeople(
  tx: Queryable,
  invoiceId: number,
  now: Date,
  notice: (money: MoneyForMail, path: string) => { subject: string; lines: string[]; link: { label: string; path: string } },
): Promise<void> {
  const [inv] = await tx
    .select({ organisationId: invoice.organisationId, clientId: invoice.clientId })
    .from(invoice)
    .where(eq(invoice.id, invoiceId));
  if (!inv) return;
  const money = await getInvoiceMoney(tx, invoiceId, now);
  const [agency] = await tx.select({ currency: settings.currency }).from(settings).where(eq(settings.id, 1));
  const currency = currencyOf({ currency: agency?.currency ?? "USD" });
  const people = await organisationPeople(tx, inv.organisationId, MONEY_ROLES, inv.clientId);
  for (const person of people) {
    const path = inv.clientId ? await signedInvoicePath(tx, invoiceId, inv.clientId, now, person) : `/view-invoice/${invoiceId}`;
    await queueUserNotice(
      tx,
      person,
      notice({ number: money.number, balanceCents: money.balanceCents, currency, dueDate: money.dueDate }, path),
    );
  }
}

/** Locks the invoice, then its autopay row (always in this order). */
async function lockAutopay(tx: Queryable, invoiceId: number) {
  await lockInvoice(tx, invoiceId);
  const [row] = await tx.select().from(invoiceAutopay).where(eq(invoiceAutopay.invoiceId, invoiceId)).for("update");
  return row ?? null;
}

/**
 * The `autopay` job: charges the saved card for the invoice's balance (one attempt).
 *
 * @returns what happened; throws on a network or Stripe server error (the job is retried with the same key).
 */
export async function runAutopayCharge(
  db: Database,
  env: StripeConfig,
  invoiceId: number,
  clock: Clock = systemClock,
): Promise<AutopayOutcome> {
  const stripe = stripeClient(env);
  const now = clock.now();
  const prepared = await db.transaction(async (tx) => {
    const row = await lockAutopay(tx, invoiceId);
    if (!row || (row.state !== "queued" && row.state !== "charging")) return { skip: "skipped" as const };
    const money = await getInvoiceMoney(tx, invoiceId, now);
    if (money.balanceCents === 0) {
      await tx
        .update(invoiceAutopay)
        .set({ state: "settled", nextRetryAt: null, updatedAt: now })
        .where(eq(invoiceAutopay.invoiceId, invoiceId));
      return { skip: "settled" as const };
    }
    const card = await savedCardOf(tx, row.organisationId);
    if (!card || !stripe) {
      // The card was removed (or card payments turned off) since: the invoice is mailed to pay by link.
      await tx
        .update(invoiceAutopay)
        .set({ state: "no_card", nextRetryAt: null, updatedAt: now })
        .where(eq(invoiceAutopay.invoiceId, invoiceId));
      await mailMoneyPeople(tx, invoiceId, now, (m, path) => ({
        subject: `Invoice ${m.number} is due`,
        lines: [
          `Invoice ${m.number} for ${formatCents(m.balanceCents, m.currency)} could not be charged automatically: there is no saved card.`,
          `It is due on ${formatCalendarDate(m.dueDate)}.`,
        ],
        link: { label: "View and pay your invoice", path },
      }));
      return { skip: "no-card" as const };
    }
    const attempt = row.state === "queued" ? row.attempts + 1 : row.attempts;
    await tx
      .update(invoiceAutopay)
      .set({ state: "charging", attempts: attempt, updatedAt: now })
      .where(eq(invoiceAutopay.invoiceId, invoiceId));
    const [agency] = await tx.select({ currency: settings.currency }).from(settings).where(eq(settings.id, 1));
    return {
      attempt,
      card,
      amount: money.balanceCents,
      number: money.number,
      currency: currencyOf({ currency: agency?.currency ?? "USD" }),
    };
  });
  if ("skip" in prepared) return prepared.skip!;
  const { attempt, card, amount, currency } = prepared;
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe!.paymentIntents.create(
      {
        amount,
        currency: currency.toLowerCase(),
        customer: card.customerId,
        payment_method: card.paymentMethodId,
        off_session: true,
        confirm: true,
        description: `Invoice ${prepared.number}`,
        metadata: { invoice_id: String(invoiceId), invoice_number: prepared.number, autopay_attempt: String(attempt), source: "autopay" },
      },
      { idempotencyKey: autopayIdempotencyKey(invoiceId, attempt) },
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      const failed = (error.payment_intent ?? null) as Stripe.PaymentIntent | null;
      return applyAutopayFailure(db, {
        invoiceId,
        attempt,
        intentId: failed?.id ?? null,
        kind: error.code === "authentication_required" ? "requires_action" : "declined",
        message: error.message,
        clock,
      });
    }
    throw error; // network or server error: the job is retried with the same key
  }
  if (intent.status === "succeeded") {
    return applyAutopaySuccess(db, {
      invoiceId,
      intent: intent.id,
      amount: intent.amount_received || intent.amount,
      currency: intent.currency.toUpperCase(),
      eventId: `autopay:${intent.id}`,
      receivedAt: now,
    });
  }
  if (intent.status === "requires_action" || intent.status === "requires_payment_method") {
    return applyAutopayFailure(db, {
      invoiceId,
      attempt,
      intentId: intent.id,
      kind: intent.status === "requires_action" ? "requires_action" : "declined",
      message: intent.last_payment_error?.message ?? null,
      clock,
    });
  }
  // processing: the webhook tells how it ends.
  return "skipped";
}

/**
 * A saved-card charge succeeded (the job's answer or `payment_intent.succeeded`): the payment is
 * recorded once per intent and the automatic payment is done.
 */
export async function applyAutopaySuccess(
  db: Database,
  input: { invoiceId: number; intent: string; amount: number; currency: string; eventId: string; receivedAt: Date },
): Promise<AutopayOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockAutopay(tx, input.invoiceId);
    const outcome = await applyCardPayment(tx, { ...input, payer: null });
    if (row && row.state !== "succeeded") {
      await tx
        .update(invoiceAutopay)
        .set({ state: "succeeded", nextRetryAt: null, lastPaymentIntentId: input.intent, updatedAt: new Date() })
        .where(eq(invoiceAutopay.invoiceId, input.invoiceId));
    }
    return outcome === "recorded" ? "paid" : outcome === "held" ? "held" : "duplicate";
  });
}

/** Settings' dunning days, sorted and valid (default 1, 3, 7). */
async function dunningDays(q: Queryable): Promise<number[]> {
  const [row] = await q.select({ days: settings.dunningRetryDays }).from(settings).where(eq(settings.id, 1));
  const days = (row?.days ?? [1, 3, 7]).filter((d) => Number.isInteger(d) && d >= 1 && d <= 60);
  return [...new Set(days)].sort((a, b) => a - b);
}

/**
 * A saved-card charge failed (the bank asked for authentication, or declined): applied once per
 * attempt — the organisation's money people get the pay link (first failure) or a reminder (each
 * failed retry) with the next retry's date; after the last retry the admins are told and it stops.
 */
export async function applyAutopayFailure(
  db: Database,
  input: {
    invoiceId: number;
    attempt: number;
    intentId: string | null;
    kind: "requires_action" | "declined";
    message: string | null;
    clock?: Clock;
  },
): Promise<AutopayOutcome> {
  const now = (input.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const row = await lockAutopay(tx, input.invoiceId);
    if (!row || row.failures >= input.attempt || row.attempts < input.attempt || row.state === "succeeded") return "duplicate";
    const money = await getInvoiceMoney(tx, input.invoiceId, now);
    const days = await dunningDays(tx);
    const firstFailedAt = row.firstFailedAt ?? now;
    const retryDays = days[input.attempt - 1];
    const nextRetryAt = money.balanceCents > 0 && retryDays !== undefined ? new Date(firstFailedAt.getTime() + retryDays * DAY_MS) : null;
    const state = money.balanceCents === 0 ? "settled" : nextRetryAt ? "retry_scheduled" : "stopped";
    const reason = input.kind === "requires_action" ? "requires_action" : `declined: ${input.message ?? "card declined"}`.slice(0, 300);
    await tx
      .update(invoiceAutopay)
      .set({
        state,
        failures: input.attempt,
        firstFailedAt,
        nextRetryAt,
        lastPaymentIntentId: input.intentId,
        lastFailure: reason,
        updatedAt: now,
      })
      .where(eq(invoiceAutopay.invoiceId, input.invoiceId));
    if (state === "settled") return "failure-handled";
    const why =
      input.kind === "requires_action"
        ? "Your bank asked to confirm the payment, which cannot be done automatically."
        : `Your card was declined${input.message ? ` (${input.message.replace(/\.$/, "")})` : ""}.`;
    const next = nextRetryAt
      ? `We will try your card again on ${formatCalendarDate(nextRetryAt.toISOString().slice(0, 10))}, unless you pay it before.`
      : "We will not try your card again.";
    await mailMoneyPeople(tx, input.invoiceId, now, (m, path) => ({
      subject:
        input.attempt === 1 ? `Payment of invoice ${m.number} failed — please pay by link` : `Reminder: invoice ${m.number} is still due`,
      lines: [
        `We could not charge ${formatCents(m.balanceCents, m.currency)} for invoice ${m.number} to your saved card. ${why}`,
        `Please pay it with the link below; it is due on ${formatCalendarDate(m.dueDate)}. ${next}`,
      ],
      link: { label: "Pay your invoice", path },
    }));
    if (state === "stopped") {
      await notifyAdmin(tx, {
        subject: `Automatic payment of ${money.number} stopped`,
        lines: [
          `The saved card was charged ${input.attempt} times for invoice ${money.number} and failed each time (last: ${reason}).`,
          "No more retries: the invoice stays due and the client has the pay link.",
        ],
        link: { label: "Open the invoice's payments", path: `/admin/invoices/${input.invoiceId}/payments` },
      });
    }
    return "failure-handled";
  });
}

/**
 * The sweep's dunning step: every automatic payment whose retry is due gets its `autopay` job
 * (once: the row goes back to `queued` in the transaction that enqueues it).
 *
 * @returns how many retries were queued.
 */
export async function queueDueRetries(db: Database, clock: Clock = systemClock): Promise<number> {
  const now = clock.now();
  const due = await db
    .select({ invoiceId: invoiceAutopay.invoiceId })
    .from(invoiceAutopay)
    .where(and(eq(invoiceAutopay.state, "retry_scheduled"), lte(invoiceAutopay.nextRetryAt, now)))
    .orderBy(asc(invoiceAutopay.nextRetryAt))
    .limit(500);
  let queued = 0;
  for (const { invoiceId } of due) {
    const done = await db.transaction(async (tx) => {
      const row = await lockAutopay(tx, invoiceId);
      if (!row || row.state !== "retry_scheduled" || !row.nextRetryAt || row.nextRetryAt > now) return false;
      await tx
        .update(invoiceAutopay)
        .set({ state: "queued", nextRetryAt: null, updatedAt: now })
        .where(eq(invoiceAutopay.invoiceId, invoiceId));
      await enqueueJob(tx, "autopay", { invoiceId } satisfies AutopayJobData);
      return true;
    });
    if (done) queued += 1;
  }
  return queued;
}

/**
 * The sweep's card-expiry step: a saved card that expires (end of its expiry month) on or before
 * the organisation's next automatic charge gets one mail a week before that charge.
 *
 * @returns how many mails were queued.
 */
export async function sendCardExpiryNotices(db: Database, clock: Clock = systemClock): Promise<number> {
  const now = clock.now();
  const [agency] = await db.select({ timeZone: settings.timeZone }).from(settings).where(eq(settings.id, 1));
  const today = agencyToday(now, agency?.timeZone ?? "UTC");
  const inAWeek = addCalendarDays(today, 7);
  // The next automatic charge per organisation: its earliest active plan cycle that charges automatically.
  const candidates = rowsOf<{ organisation_id: number; next_on: string }>(
    await db.execute(sql`
      select c.organisation_id, min(p.next_cycle_on)::text as next_on
      from saved_card c join billing_plan p on p.organisation_id = c.organisation_id
      where c.expiry_notice_sent_at is null and p.status = 'active' and p.autopay and p.next_cycle_on is not null
        and p.next_cycle_on <= ${inAWeek}::date
        and p.next_cycle_on >= make_date(c.exp_year, c.exp_month, 1) + interval '1 month'
      group by c.organisation_id`),
  );
  let sent = 0;
  for (const candidate of candidates) {
    const mailed = await db.transaction(async (tx) => {
      const [card] = await tx
        .update(savedCard)
        .set({ expiryNoticeSentAt: now })
        .where(and(eq(savedCard.organisationId, candidate.organisation_id), isNull(savedCard.expiryNoticeSentAt)))
        .returning();
      if (!card) return false;
      const [plan] = await tx
        .select({ name: billingPlan.name, totalCents: billingPlan.totalCents })
        .from(billingPlan)
        .where(and(eq(billingPlan.organisationId, candidate.organisation_id), eq(billingPlan.nextCycleOn, candidate.next_on)))
        .limit(1);
      const people = await organisationPeople(tx, candidate.organisation_id, MONEY_ROLES);
      for (const person of people) {
        await queueUserNotice(tx, person, {
          subject: `Your saved card expires before your next payment`,
          lines: [
            `Your ${cardLabel(card)} expires at the end of ${String(card.expMonth).padStart(2, "0")}/${card.expYear}, before the next automatic payment${plan ? ` for “${plan.name}”` : ""} on ${formatCalendarDate(candidate.next_on)}.`,
            "Replace it before then so the payment goes through; otherwise the invoice is mailed to you to pay by link.",
          ],
          link: { label: "Replace your card", path: "/payment-method" },
        });
      }
      return true;
    });
    if (mailed) sent += 1;
  }
  if (sent) logger.info({ sent }, "autopay: card-expiry notices");
  return sent;
}

/**
 * What an invoice's page says of its automatic payment (issue #39, docs/product.md#dunning): a
 * failed charge with the date of the next retry, or retries that stopped; null when there is
 * nothing to say (no automatic payment, queued, paid). The caller has checked that the reader may
 * see the invoice (the client's own, or an admin).
 *
 * @returns one sentence, or null.
 */
export async function autopayNotice(q: Queryable, invoiceId: number): Promise<string | null> {
  const [row] = await q
    .select({
      state: invoiceAutopay.state,
      nextRetryAt: invoiceAutopay.nextRetryAt,
      lastFailure: invoiceAutopay.lastFailure,
      failures: invoiceAutopay.failures,
    })
    .from(invoiceAutopay)
    .where(eq(invoiceAutopay.invoiceId, invoiceId));
  if (!row) return null;
  const why =
    row.lastFailure === "requires_action"
      ? "the bank asked to confirm the payment, which cannot be done automatically"
      : `the card was declined${row.lastFailure?.startsWith("declined: ") ? ` (${row.lastFailure.slice(10).replace(/\.$/, "")})` : ""}`;
  if (row.state === "retry_scheduled" && row.nextRetryAt)
    return `Automatic payment failed: ${why}. We will try the saved card again on ${formatCalendarDate(row.nextRetryAt.toISOString().slice(0, 10))}, unless the invoice is paid before.`;
  if (row.state === "stopped")
    return `Automatic payment failed ${row.failures} ${row.failures === 1 ? "time" : "times"} (last: ${why}) and will not be tried again. The invoice stays due.`;
  return null;
}
