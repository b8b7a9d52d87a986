/**
 * The `billing` queue's handler (issue #39, ADR 025): one pass of recurring billing — issue every
 * due cycle, queue the dunning retries that are due, and warn of saved cards expiring before their
 * next charge. Run every minute by cron (one process at a time: a singleton queue) and at once when a
 * plan that is due now is created or resumed. Safe to run again: every write is fenced by its row.
 */
import type { Database } from "#app/db/client.server";
import { systemClock, type Clock } from "#app/lib/clock.server";
import { logger } from "#app/lib/logger.server";
import { issueDueCycles } from "./issue-cycles.server";
import { queueDueRetries, sendCardExpiryNotices } from "./autopay.server";

/**
 * @param clock - "now" (tests move it).
 * @param options.cardPayments - whether Stripe is configured (else invoices wait for payment instructions, #37).
 * @returns what the pass did.
 */
export async function runBillingJob(db: Database, clock: Clock = systemClock, options: { cardPayments: boolean }) {
  const issued = await issueDueCycles(db, clock, { cardPayments: options.cardPayments });
  if (issued.issued) logger.info({ issued: issued.issued }, "billing: invoices issued");
  // Dunning: failed automatic payments whose retry day came (docs/product.md#dunning).
  const retries = await queueDueRetries(db, clock);
  if (retries) logger.info({ retries }, "billing: automatic-payment retries queued");
  // A saved card that expires before the next automatic charge: one mail a week ahead.
  const expiryNotices = await sendCardExpiryNotices(db, clock);
  return { issued, retries, expiryNotices };
}
