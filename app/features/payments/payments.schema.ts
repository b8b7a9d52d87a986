/**
 * The admin's payment and refund forms (docs/product.md#payments). Amounts are typed as text
 * ("1,250.50", "$90") and become integer cents; 0, negative, more than two decimals, more than
 * the app's maximum (so 1e20) and text are refused with a message next to the field. The currency
 * field (hidden, optional) must be the invoice's: the use-case checks it.
 */
import { todayIn } from "#app/lib/dates";
import { fieldError } from "#app/lib/errors";
import { z } from "zod";
import { calendarDateField } from "#app/features/invoices/invoices.schema";
import { idSchema, optionalText } from "#app/lib/text-fields";
import { MAX_CENTS } from "#app/lib/money";
import { PAYMENT_MESSAGES, PAYMENT_METHODS } from "./payments.messages";

export { PAYMENT_MESSAGES, PAYMENT_METHODS };

/**
 * @returns cents, or a message: "0" and "-5" → must be more than 0; "12.345", "1e20", "abc" → the format message.
 */
export function parsePaymentAmount(input: string): number | string {
  const cleaned = input
    .trim()
    .replace(/^(usd|us\$|eur|gbp|\$|€|£)\s*/i, "")
    .replace(/\s*(usd|eur|gbp)$/i, "")
    .replace(/[\s,]/g, "");
  if (cleaned === "") return PAYMENT_MESSAGES.amountRequired;
  if (/^-\d/.test(cleaned)) return PAYMENT_MESSAGES.amountPositive;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return PAYMENT_MESSAGES.amountFormat;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents === 0) return PAYMENT_MESSAGES.amountPositive;
  if (cents > MAX_CENTS) return PAYMENT_MESSAGES.amountTooLarge;
  return cents;
}

const amountField = z.string({ error: PAYMENT_MESSAGES.amountRequired }).transform((value, ctx) => {
  const parsed = parsePaymentAmount(value);
  if (typeof parsed === "string") {
    ctx.addIssue({ code: "custom", message: parsed });
    return z.NEVER;
  }
  return parsed;
});

const currencyField = z
  .string()
  .trim()
  .max(10, { error: "Unknown currency." })
  .optional()
  .transform((value) => value || null);

/**
 * A receipt date, not after today anywhere on Earth (UTC+14); {@link receivedAtOf} then holds it to
 * the agency's today (#36).
 */
const receivedField = calendarDateField("Date received").refine(
  (value) => value <= todayIn(new Date(), "Pacific/Kiritimati"),
  PAYMENT_MESSAGES.dateFuture,
);

/** Record payment: amount (defaults to the balance on the page), method, date received, reference. */
export const paymentFormSchema = z.object({
  amount: amountField,
  currency: currencyField,
  method: z.enum(PAYMENT_METHODS, { error: PAYMENT_MESSAGES.methodRequired }),
  receivedOn: receivedField,
  reference: optionalText("Reference", 200),
});

/** Record refund: the payment refunded, amount (≤ what is left of it), date, reference. */
export const refundFormSchema = z.object({
  paymentId: idSchema,
  amount: amountField,
  currency: currencyField,
  receivedOn: receivedField,
  reference: optionalText("Reference", 200),
});

/**
 * A calendar date received as the instant stored: now for the agency's today, else noon UTC of that day.
 *
 * @param business - the agency's business day ({@link businessDay} of Settings).
 * @throws {AppError} 400 on `receivedOn` for a date after the agency's today (#36: one zone, the agency's).
 */
export function receivedAtOf(day: string, business: { today: string }, now: Date = new Date()): Date {
  if (day > business.today) throw fieldError("receivedOn", PAYMENT_MESSAGES.dateFuture);
  return day === business.today ? now : new Date(`${day}T12:00:00Z`);
}

/** The invoice's deposit: none, an amount, or a percentage of the total. */
export const depositFormSchema = z
  .object({
    kind: z.enum(["none", "amount", "percent"], { error: "Choose how the deposit is set." }),
    value: z.string().trim().max(20).optional(),
  })
  .transform((v, ctx) => {
    if (v.kind === "none") return { kind: "none" as const };
    const raw = v.value ?? "";
    if (v.kind === "percent") {
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(raw) || Number(raw) <= 0 || Number(raw) > 100) {
        ctx.addIssue({ code: "custom", path: ["value"], message: "Enter a percentage above 0 and at most 100, e.g. 30." });
        return z.NEVER;
      }
      return { kind: "percent" as const, percent: Number(raw) };
    }
    const cents = parsePaymentAmount(raw);
    if (typeof cents === "string") {
      ctx.addIssue({ code: "custom", path: ["value"], message: cents });
      return z.NEVER;
    }
    return { kind: "amount" as const, cents };
  });
