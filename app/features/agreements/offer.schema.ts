/**
 * The offer form and the accept-and-sign form (docs/product.md#offers, #accept-and-sign). Parsed by
 * the actions; pages get their browser checks from `formConstraints`. Money typed as amounts
 * ("1,200.50") becomes integer cents; the total is never a field — the server computes it.
 */
import { z } from "zod";
import { optionalText, requiredText } from "#app/lib/text-fields";
import { parseMoneyToCents } from "#app/lib/money";
import { calendarDateField } from "#app/features/invoices/invoices.schema";
import {
  AGREEMENT_MESSAGES,
  ITEM_DESCRIPTION_MAX,
  MAX_OFFER_ITEMS,
  MAX_QUANTITY,
  OFFER_TIMELINE_MAX,
  PROJECT_NAME_MAX,
  SCOPE_MAX,
  TYPED_NAME_MAX,
} from "./agreements.messages";
export { AGREEMENT_MESSAGES } from "./agreements.messages";

/** An amount typed by a person as integer cents (required). */
const moneyField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, { error: `${label} is required.`, abort: true })
    .transform((value, ctx) => {
      try {
        return parseMoneyToCents(value)!;
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    });

const quantityField = z
  .string({ error: "Quantity is required." })
  .trim()
  .min(1, { error: "Quantity is required.", abort: true })
  .regex(/^\d{1,5}$/, { error: `Enter a whole number from 1 to ${MAX_QUANTITY.toLocaleString("en-US")}.`, abort: true })
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_QUANTITY, `Enter a whole number from 1 to ${MAX_QUANTITY.toLocaleString("en-US")}.`);

export const offerItemSchema = z.object({
  description: requiredText("Description", ITEM_DESCRIPTION_MAX),
  quantity: quantityField,
  unitPrice: moneyField("Unit price"),
});

/** The offer form: its values, with the deposit as a kind + one typed value. */
export const offerFormSchema = z
  .object({
    projectName: optionalText("Project name", PROJECT_NAME_MAX),
    scope: requiredText("Scope", SCOPE_MAX, { multiline: true, message: "Describe the scope of the work." }),
    items: z
      .array(offerItemSchema, { error: "Add at least one line item." })
      .min(1, "Add at least one line item.")
      .max(MAX_OFFER_ITEMS, `An offer can have at most ${MAX_OFFER_ITEMS} line items.`),
    timeline: optionalText("Estimated timeline", OFFER_TIMELINE_MAX),
    depositKind: z.enum(["none", "amount", "percent"], { error: "Choose no deposit, an amount or a percentage." }).default("none"),
    depositValue: z.string().trim().max(20, { error: "Enter the deposit as an amount or a whole percentage." }).optional(),
    validUntil: calendarDateField("Valid until").optional(),
  })
  .transform((value, ctx) => {
    let deposit: { kind: "amount" | "percent"; value: number } | null = null;
    const raw = value.depositValue ?? "";
    if (value.depositKind === "amount") {
      try {
        const cents = parseMoneyToCents(raw);
        if (!cents) throw new Error("Enter the deposit amount.");
        deposit = { kind: "amount", value: cents };
      } catch (error) {
        ctx.addIssue({ code: "custom", path: ["depositValue"], message: (error as Error).message });
        return z.NEVER;
      }
    } else if (value.depositKind === "percent") {
      const match = /^(\d{1,3})\s*%?$/.exec(raw);
      const percent = match ? Number(match[1]) : NaN;
      if (!(percent >= 1 && percent <= 100)) {
        ctx.addIssue({ code: "custom", path: ["depositValue"], message: "Enter the deposit as a whole percentage from 1 to 100." });
        return z.NEVER;
      }
      deposit = { kind: "percent", value: percent };
    }
    return {
      projectName: value.projectName ?? "",
      scope: value.scope,
      items: value.items.map((item) => ({ description: item.description, quantity: item.quantity, unitPriceCents: item.unitPrice })),
      timeline: value.timeline ?? "",
      deposit,
      validUntil: value.validUntil ?? null,
    };
  });

/** What the offer use-cases take: cents, `YYYY-MM-DD`. */
export type OfferInput = z.output<typeof offerFormSchema>;

/** Accept and sign: the typed name, the tick, and the version (and its hash) the page showed. */
export const acceptFormSchema = z.object({
  typedName: z
    .string({ error: AGREEMENT_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: AGREEMENT_MESSAGES.nameRequired, abort: true })
    .max(TYPED_NAME_MAX, { error: AGREEMENT_MESSAGES.nameTooLong, abort: true })
    .refine((v) => !/[\u0000-\u001F\u007F-\u009F]/.test(v), "Your name contains characters that are not allowed."),
  agree: z.boolean({ error: AGREEMENT_MESSAGES.agreeRequired }).refine((v) => v === true, AGREEMENT_MESSAGES.agreeRequired),
  version: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, "Reload the page and try again.")
    .transform(Number),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "Reload the page and try again.")
    .optional(),
});

/** Decline with a reason (docs/product.md#proposals-approval). */
export const declineFormSchema = z.object({
  reason: requiredText("Reason", 1_000, { multiline: true, message: "Tell us why you are declining." }),
});
