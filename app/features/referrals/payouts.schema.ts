/**
 * The "Create payout" form (docs/product.md#commissions-payouts): reference, method and the date
 * the money was sent, posted from the confirmation that names the amount (`confirm=yes`).
 */
import { z } from "zod";
import { PAYOUT_METHODS } from "#app/db/enums";
import { PAYOUT_MESSAGES } from "./payouts.messages";

/** Longest reference kept. */
export const PAYOUT_REFERENCE_MAX = 200;

/** @returns true when `value` is a real calendar date `YYYY-MM-DD`. */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isFinite(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const payoutSchema = z.object({
  ambassadorId: z.string({ error: "This request is incomplete. Reload the page and try again." }).trim().min(1).max(64),
  reference: z
    .string({ error: PAYOUT_MESSAGES.referenceRequired })
    .trim()
    .min(1, { error: PAYOUT_MESSAGES.referenceRequired })
    .max(PAYOUT_REFERENCE_MAX, { error: PAYOUT_MESSAGES.referenceTooLong })
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), PAYOUT_MESSAGES.referenceRequired),
  method: z.enum(PAYOUT_METHODS, { error: PAYOUT_MESSAGES.methodInvalid }),
  /** The day the money was sent (UTC midnight); today or earlier (a day's slack for time zones ahead of UTC). */
  paidAt: z
    .string({ error: PAYOUT_MESSAGES.dateInvalid })
    .trim()
    .refine(isCalendarDate, PAYOUT_MESSAGES.dateInvalid)
    .transform((v) => new Date(`${v}T00:00:00Z`))
    .refine((d) => d.getTime() <= Date.now() + 86_400_000, PAYOUT_MESSAGES.dateFuture),
  confirm: z.literal("yes", { error: "Confirm the payout first." }),
});
