/**
 * Card payments with Stripe (docs/product.md#card-payments, issue #25, ADR 013), through the official
 * `stripe` package:
 * - {@link startCardCheckout}: the client's "Pay {amount} by card" creates a Checkout Session (mode
 *   `payment`, the amount due now, the invoice's currency, the client's e-mail, the invoice id in its
 *   metadata and its payment intent's, an idempotency key covering the whole request) and answers its URL.
 * - {@link stripeWebhook}: `POST /webhooks/stripe` reads the raw body, verifies the signature with
 *   `stripe.webhooks.constructEvent` (default tolerance: 300 s), and records what happened —
 *   `checkout.session.completed` (paid) → a card payment; `charge.refunded` → refunds up to the
 *   charge's `amount_refunded` so far; `charge.dispute.created` → the invoice is marked Disputed and the
 *   admins are mailed. A payment in another currency than Settings', one when nothing is due, and the
 *   part above the balance are kept aside as paid ({@link holdUnapplied}: flagged on the admin
 *   dashboard and mailed), never dropped and never 503. Each payment is recorded once per payment intent (a unique column) and each
 *   refund event once per event id, all under the invoice's row lock, so duplicated, replayed,
 *   concurrent or out-of-order deliveries change nothing twice. Unknown invoices and event types
 *   answer 200 and are logged; a bad, missing or stale signature answers 400 and writes nothing.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Database, Queryable } from "#app/db/client.server";
import { auditEvent, commissionEntries, invoice, payments, unappliedPayment } from "#app/db/schema";
import { notifyAdmin } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { conflict } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { currencyOf, formatCents } from "#app/lib/money";
import { getInvoiceMoney } from "./balance.server";
import { rowsOf } from "#app/db/rows";
import type { Actor } from "#app/features/users/actor";
import { lockInvoice, writePayment } from "./record-payment.server";
import { saveCardFromSetupSession } from "./saved-cards.server";
import { applyAutopayFailure, applyAutopaySuccess } from "#app/features/billing/autopay.server";
import { applyCardPayment, eventSeen } from "./card-payment.server";
import { stripeClient, type StripeConfig } from "./stripe-client.server";

export { applyCardPayment } from "./card-payment.server";
export { cardPaymentsEnabled, stripeApiOptions, stripeClient, type StripeConfig } from "./stripe-client.server";

/** The webhook's path. */
export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

/** Largest webhook body read (Stripe events are a few KB). */
const MAX_BODY_BYTES = 512 * 1024;

/**
 * Creates the Checkout Session for the amount due now (the rest of the deposit while it is due,
 * else the balance). The caller has checked the invoice is the client's.
 *
 * @param origin - the site's public origin, for the return URLs.
 * @param returnPath - the invoice page the client comes back to (the signed link's when opened by one).
 * @returns the session's URL to redirect to.
 * @throws {AppError} 409 when nothing is due.
 */
export async function startCardCheckout(
  db: Database,
  env: StripeConfig,
  input: { invoiceId: number; clientEmail: string | null; origin: string; returnPath: string },
): Promise<string> {
  const stripe = stripeClient(env);
  if (!stripe) throw conflict("Card payments are not set up.");
  const money = await getInvoiceMoney(db, input.invoiceId);
  if (money.dueNowCents <= 0) throw conflict("Nothing is due on this invoice.");
  const currency = currencyOf(await getSettings(db)).toLowerCase();
  const metadata = { invoice_id: String(input.invoiceId), invoice_number: money.number };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency,
          unit_amount: money.dueNowCents,
          product_data: { name: `${money.depositDue ? "Deposit on invoice" : "Invoice"} ${money.number}` },
        },
      },
    ],
    customer_email: input.clientEmail ?? undefined,
    client_reference_id: String(input.invoiceId),
    metadata,
    payment_intent_data: { metadata },
    success_url: `${input.origin}${input.returnPath}?payment=processing`,
    // Back without paying: the page says "Payment cancelled — nothing was charged" (issue #41).
    cancel_url: `${input.origin}${input.returnPath}?payment=cancelled`,
  };
  // A double click (or a reload) makes one session; the key covers everything sent (issue #36), so
  // the portal page and the signed /i/ link — other return URLs — never reuse each other's key
  // (Stripe would answer idempotency_error).
  const session = await stripe.checkout.sessions.create(params, { idempotencyKey: checkoutIdempotencyKey(input.invoiceId, params) });
  if (!session.url) throw new Error("Stripe answered a Checkout Session without a URL");
  return session.url;
}

/**
 * The idempotency key of a Checkout Session: the invoice id and a SHA-256 of the whole request
 * (amount, currency, e-mail, return URLs…), so two requests share a key only when they are the same
 * request.
 *
 * @returns `checkout-invoice-<id>-<64 hex>` (under Stripe's 255 characters).
 */
export function checkoutIdempotencyKey(invoiceId: number, params: Stripe.Checkout.SessionCreateParams): string {
  return `checkout-invoice-${invoiceId}-${createHash("sha256").update(JSON.stringify(params)).digest("hex")}`;
}

/**
 * The client who paid a Checkout Session (#37): the person of the invoice's organisation (or the
 * invoice's own client) whose account e-mail the session carries — the checkout was started with
 * the signed-in person's, or the invoice link holder's, address. Null when nobody matches.
 */
async function payerOf(tx: Queryable, invoiceId: number, email: string | null | undefined): Promise<Actor | null> {
  if (!email) return null;
  const rows = rowsOf<{ id: string; email: string }>(
    await tx.execute(sql`
      select u.id, u.email from invoice i join "user" u on lower(u.email) = lower(${email}) and u.closed_at is null
      where i.id = ${invoiceId} and (u.id = i.client_id or exists (
        select 1 from membership m where m.organisation_id = i.organisation_id and m.user_id = u.id))
      limit 1`),
  );
  const row = rows[0];
  return row ? { id: row.id, email: row.email, role: "client" } : null;
}

/** What {@link handleStripeEvent} did, for the log and the tests. */
export type StripeOutcome =
  "recorded" | "held" | "duplicate" | "ignored" | "unknown-invoice" | "disputed" | "card-saved" | "failure-handled";

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** Reads the invoice id of an event's metadata. @returns null when missing or not an id. */
function invoiceIdOf(metadata: Record<string, string> | null | undefined): number | null {
  const raw = metadata?.invoice_id ?? "";
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

async function invoiceExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.select({ id: invoice.id }).from(invoice).where(eq(invoice.id, id))).length > 0;
}

/**
 * Applies one verified event.
 *
 * @throws {Error} when a refund arrives before its payment (the webhook answers 503: Stripe sends it again later).
 */
export async function handleStripeEvent(db: Database, event: Stripe.Event, stripe: Stripe | null = null): Promise<StripeOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      // #39: a card saved through Checkout in setup mode (read back from Stripe, never from the event alone).
      if (session.mode === "setup") {
        if (!stripe) return "ignored";
        const saved = await saveCardFromSetupSession(db, stripe, session.id);
        return saved === "saved" ? "card-saved" : saved === "ignored" ? "ignored" : "duplicate";
      }
      if (session.payment_status !== "paid") return "ignored";
      const invoiceId = invoiceIdOf(session.metadata);
      const intent = idOf(session.payment_intent) ?? `session:${session.id}`;
      if (invoiceId === null || !(await invoiceExists(db, invoiceId))) return "unknown-invoice";
      return db.transaction(async (tx) => {
        await lockInvoice(tx, invoiceId);
        return applyCardPayment(tx, {
          invoiceId,
          intent,
          amount: session.amount_total ?? 0,
          currency: (session.currency ?? "").toUpperCase(),
          eventId: event.id,
          receivedAt: new Date(event.created * 1000),
          payer: await payerOf(tx, invoiceId, session.customer_details?.email ?? session.customer_email),
        });
      });
    }
    // #39: a saved card's automatic charge (only intents the autopay job made: Checkout's own
    // intents are recorded by checkout.session.completed, with the payer).
    case "payment_intent.succeeded": {
      const intent = event.data.object;
      const invoiceId = invoiceIdOf(intent.metadata);
      if (intent.metadata?.source !== "autopay") return "ignored";
      if (invoiceId === null || !(await invoiceExists(db, invoiceId))) return "unknown-invoice";
      const outcome = await applyAutopaySuccess(db, {
        invoiceId,
        intent: intent.id,
        amount: intent.amount_received || intent.amount,
        currency: intent.currency.toUpperCase(),
        eventId: event.id,
        receivedAt: new Date(event.created * 1000),
      });
      return outcome === "paid" ? "recorded" : outcome === "held" ? "held" : "duplicate";
    }
    case "payment_intent.payment_failed":
    case "payment_intent.requires_action": {
      const intent = event.data.object;
      const invoiceId = invoiceIdOf(intent.metadata);
      const attempt = Number(intent.metadata?.autopay_attempt ?? "");
      if (intent.metadata?.source !== "autopay" || !Number.isInteger(attempt) || attempt < 1) return "ignored";
      if (invoiceId === null || !(await invoiceExists(db, invoiceId))) return "unknown-invoice";
      const needsAction = event.type === "payment_intent.requires_action" || intent.last_payment_error?.code === "authentication_required";
      const outcome = await applyAutopayFailure(db, {
        invoiceId,
        attempt,
        intentId: intent.id,
        kind: needsAction ? "requires_action" : "declined",
        message: intent.last_payment_error?.message ?? null,
      });
      return outcome === "failure-handled" ? "failure-handled" : "duplicate";
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const intent = idOf(charge.payment_intent);
      if (!intent) return "ignored";
      const [paid] = await db
        .select({ id: payments.id, invoiceId: payments.invoiceId, amountCents: payments.amountCents })
        .from(payments)
        .where(eq(payments.processorPaymentIntent, intent));
      const [aside] = await db
        .select({ id: unappliedPayment.id })
        .from(unappliedPayment)
        .where(eq(unappliedPayment.processorPaymentIntent, intent));
      if (!paid && !aside) {
        const invoiceId = invoiceIdOf(charge.metadata);
        if (invoiceId !== null && (await invoiceExists(db, invoiceId))) throw new Error("refund before its payment was recorded");
        return "unknown-invoice";
      }
      return db.transaction(async (tx) => {
        if (paid) await lockInvoice(tx, paid.invoiceId);
        if (await eventSeen(tx, event.id)) return "duplicate";
        // The part kept aside (above the balance, nothing due, another currency) is refunded first.
        const [held] = aside ? await tx.select().from(unappliedPayment).where(eq(unappliedPayment.id, aside.id)).for("update") : [];
        const [sofar] = paid
          ? await tx
              .select({ refunded: sql<number>`coalesce(-sum(${payments.amountCents}), 0)::int`.mapWith(Number) })
              .from(payments)
              .where(eq(payments.refundOf, paid.id))
          : [];
        const refundedBefore = (held?.refundedCents ?? 0) + (sofar?.refunded ?? 0);
        // amount_refunded is what the charge has had refunded so far: record only what is new.
        let fresh = charge.amount_refunded - refundedBefore;
        if (fresh <= 0) return "duplicate";
        if (held) {
          const share = Math.min(fresh, held.amountCents - held.refundedCents);
          if (share > 0) {
            await tx
              .update(unappliedPayment)
              .set({ refundedCents: held.refundedCents + share })
              .where(eq(unappliedPayment.id, held.id));
            fresh -= share;
          }
        }
        // Never more than what is left of the recorded payment.
        if (paid) fresh = Math.min(fresh, paid.amountCents - (sofar?.refunded ?? 0));
        if (!paid || fresh <= 0) return "recorded";
        await writePayment(tx, {
          invoiceId: paid.invoiceId,
          amountCents: fresh,
          currency: charge.currency.toUpperCase(),
          method: "card",
          receivedAt: new Date(event.created * 1000),
          reference: `Stripe refund ${charge.id}`,
          recordedBy: null,
          refundOf: paid.id,
          processorEventId: event.id,
        });
        return "recorded";
      });
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const intent = idOf(dispute.payment_intent);
      const [paid] = intent
        ? await db.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.processorPaymentIntent, intent))
        : [];
      if (!paid) return "unknown-invoice";
      return db.transaction(async (tx) => {
        const locked = await lockInvoice(tx, paid.invoiceId);
        if (await eventSeen(tx, event.id)) return "duplicate";
        await tx
          .update(invoice)
          .set({ disputedAt: new Date(event.created * 1000) })
          .where(eq(invoice.id, paid.invoiceId));
        await tx.insert(auditEvent).values({
          actorId: null,
          actorEmail: "Stripe",
          entity: "invoice",
          entityId: String(paid.invoiceId),
          action: "disputed",
          before: null,
          after: { eventId: event.id, paymentIntent: intent, amountCents: dispute.amount, reason: dispute.reason },
          proposalId: locked.proposalId,
        });
        // #39: the commission earned on this invoice is flagged (its ledger lines show Disputed).
        const commissions = await tx
          .select({ id: commissionEntries.id })
          .from(commissionEntries)
          .where(eq(commissionEntries.invoiceId, paid.invoiceId))
          .limit(1);
        await notifyAdmin(tx, {
          subject: `Card payment disputed on ${locked.number}`,
          lines: [
            `The client disputed a card payment of ${formatCents(dispute.amount, dispute.currency.toUpperCase())} on invoice ${locked.number} (reason: ${dispute.reason}).`,
            "Answer the dispute in the Stripe dashboard.",
            ...(commissions.length
              ? [
                  "The ambassador's commission on this invoice is flagged Disputed in their ledger: hold its payout until the dispute is settled.",
                ]
              : []),
          ],
          link: { label: "Open the invoice's payments", path: `/admin/invoices/${paid.invoiceId}/payments` },
        });
        return "disputed";
      });
    }
    default:
      return "ignored";
  }
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Reads the raw body. @returns null above `max` bytes. */
function readRaw(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * @returns the handler of `POST /webhooks/stripe` (mounted before anything reads the body). 404 while
 *   card payments are off; 400 for a missing, wrong or stale signature; 200 otherwise (503 when a
 *   refund arrives before its payment or the database fails, so Stripe retries).
 */
export function stripeWebhook(options: { db: Database; env: StripeConfig }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const stripe = stripeClient(options.env);
    if (!stripe) return answer(res, 404, { error: "Not found" });
    const raw = await readRaw(req, MAX_BODY_BYTES);
    if (raw === null) return answer(res, 413, { error: "Too large" });
    const signature = req.headers["stripe-signature"];
    let event: Stripe.Event;
    try {
      if (typeof signature !== "string" || !signature) throw new Error("no Stripe-Signature header");
      event = stripe.webhooks.constructEvent(raw, signature, options.env.STRIPE_WEBHOOK_SECRET!);
    } catch (error) {
      logger.warn({ err: error }, "stripe webhook: refused (signature)");
      return answer(res, 400, { error: "Invalid signature" });
    }
    try {
      const outcome = await handleStripeEvent(options.db, event, stripe);
      const level = outcome === "unknown-invoice" || outcome === "ignored" || outcome === "held" ? "warn" : "info";
      logger[level]({ eventId: event.id, type: event.type, outcome }, "stripe webhook");
      return answer(res, 200, { received: true, outcome });
    } catch (error) {
      logger.error({ err: error, eventId: event.id, type: event.type }, "stripe webhook: failed, Stripe will retry");
      return answer(res, 503, { error: "Try again later" });
    }
  };
}
