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
import { depositCents } from "./terms";
import {
  computeSchedule,
  MAX_SCHEDULE_LINES,
  SCHEDULE_MESSAGES,
  ScheduleError,
  type ScheduleDue,
  type ScheduleLineTerms,
} from "./schedule";
import { formatCents } from "#app/lib/money";

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

/** Longest name of a schedule line. */
export const SCHEDULE_LABEL_MAX = 120;

/** "33.33" or "30 %" → basis points (3333, 3000); NaN when not a percentage above 0, at most 100, two decimals. */
export function parsePercentBps(raw: string): number {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(raw.trim());
  if (!match) return NaN;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0") || 0);
  return bps > 0 && bps <= 10_000 ? bps : NaN;
}

/** A due rule typed on the form: its kind, a date (`date`) or a number of days (`days_after_signing`). */
const dueKindField = z.enum(["date", "days_after_signing", "milestone"], {
  error: "Choose when it is due: on a date, a number of days after signing, or when you mark it reached.",
});

/** One milestone row of the payment schedule on the offer form. */
export const scheduleRowSchema = z.object({
  label: requiredText("Payment name", SCHEDULE_LABEL_MAX, { message: SCHEDULE_MESSAGES.labelRequired }),
  shareKind: z.enum(["amount", "percent"], { error: "Choose an amount or a percentage." }),
  shareValue: z.string().trim().max(20, { error: "Enter an amount or a percentage." }).optional(),
  dueKind: dueKindField,
  dueDate: z.string().trim().max(10).optional(),
  dueDays: z.string().trim().max(5).optional(),
});

type DueFields = { dueKind: "date" | "days_after_signing" | "milestone"; dueDate?: string; dueDays?: string };

/** @returns the due rule of a row, or adds the field's issue at `path` and returns null. */
function parseDue(
  row: DueFields,
  ctx: z.RefinementCtx,
  path: (string | number)[],
  names: { date: string; days: string },
): ScheduleDue | null {
  if (row.dueKind === "milestone") return { kind: "milestone" };
  if (row.dueKind === "date") {
    const parsed = calendarDateField("Due date").safeParse(row.dueDate ?? "");
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: [...path, names.date], message: parsed.error.issues[0]!.message });
      return null;
    }
    return { kind: "date", date: parsed.data };
  }
  const days = /^\d{1,3}$/.test(row.dueDays ?? "") ? Number(row.dueDays) : NaN;
  if (!(days >= 1 && days <= 730)) {
    ctx.addIssue({ code: "custom", path: [...path, names.days], message: SCHEDULE_MESSAGES.daysRange });
    return null;
  }
  return { kind: "days_after_signing", days };
}

/**
 * Checks a schedule against the offer's total (cents) and deposit; adds the issue on `schedule`.
 *
 * @returns whether it adds up exactly (largest remainder for percentages, schedule.ts) with a final payment above 0.
 */
export function scheduleProblem(
  totalCents: number,
  deposit: number | null,
  lines: readonly ScheduleLineTerms[],
  currency = "USD",
): string | null {
  if (lines.length === 0) return null;
  try {
    const computed = computeSchedule(totalCents, deposit, lines, new Map(), (c) => formatCents(c, currency));
    const last = computed.at(-1)!;
    if (last.amountCents <= 0) return SCHEDULE_MESSAGES.finalEmpty;
    const empty = computed.find((line) => line.amountCents <= 0);
    if (empty) return SCHEDULE_MESSAGES.lineEmpty(empty.label);
    return null;
  } catch (error) {
    if (error instanceof ScheduleError) return error.message;
    throw error;
  }
}

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
    schedule: z
      .array(scheduleRowSchema)
      .max(MAX_SCHEDULE_LINES - 2, SCHEDULE_MESSAGES.tooMany)
      .optional()
      .default([]),
    finalLabel: optionalText("Final payment name", SCHEDULE_LABEL_MAX),
    finalDueKind: dueKindField.optional().default("milestone"),
    finalDueDate: z.string().trim().max(10).optional(),
    finalDueDays: z.string().trim().max(5).optional(),
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
    // The payment schedule (#37): the milestones as typed, then the final payment ("the rest").
    const schedule: ScheduleLineTerms[] = [];
    let scheduleValid = true;
    value.schedule.forEach((row, index) => {
      const path = ["schedule", index];
      let share: ScheduleLineTerms["share"] | null = null;
      if (row.shareKind === "percent") {
        const bps = parsePercentBps(row.shareValue ?? "");
        if (Number.isNaN(bps)) ctx.addIssue({ code: "custom", path: [...path, "shareValue"], message: SCHEDULE_MESSAGES.percentRange });
        else share = { kind: "percent", value: bps };
      } else {
        try {
          const cents = parseMoneyToCents(row.shareValue ?? "");
          if (!cents) throw new Error(SCHEDULE_MESSAGES.amountRange);
          share = { kind: "amount", value: cents };
        } catch (error) {
          ctx.addIssue({ code: "custom", path: [...path, "shareValue"], message: (error as Error).message });
        }
      }
      const due = parseDue(row, ctx, path, { date: "dueDate", days: "dueDays" });
      if (share && due) schedule.push({ label: row.label, share, due });
      else scheduleValid = false;
    });
    if (value.schedule.length > 0) {
      const due = parseDue({ dueKind: value.finalDueKind, dueDate: value.finalDueDate, dueDays: value.finalDueDays }, ctx, [], {
        date: "finalDueDate",
        days: "finalDueDays",
      });
      if (!due || !scheduleValid) return z.NEVER;
      schedule.push({ label: value.finalLabel || "Final payment", share: { kind: "rest" }, due });
      const totalCents = value.items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
      const problem = scheduleProblem(totalCents, depositCents(deposit, totalCents), schedule);
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["schedule"], message: problem });
        return z.NEVER;
      }
    }
    return {
      projectName: value.projectName ?? "",
      scope: value.scope,
      items: value.items.map((item) => ({ description: item.description, quantity: item.quantity, unitPriceCents: item.unitPrice })),
      timeline: value.timeline ?? "",
      deposit,
      schedule,
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
