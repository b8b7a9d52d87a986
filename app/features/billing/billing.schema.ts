/**
 * The billing plan forms (issue #39, docs/product.md#recurring-billing): create (everything) and
 * change (what applies from the next invoice: name, items, due days, automatic payment, end). The
 * server re-checks every rule in the use-cases (`plans.server.ts`).
 */
import { z } from "zod";
import { idSchema, optionalWholeNumber, requiredText } from "#app/lib/text-fields";
import { invoiceItemSchema, calendarDateField } from "#app/features/invoices/invoices.schema";
import { MAX_CENTS } from "#app/lib/money";
import { BILLING_FREQUENCIES } from "./plan-dates";
import { BILLING_MESSAGES, MAX_PLAN_ITEMS } from "./billing.messages";

export { BILLING_MESSAGES, MAX_PLAN_ITEMS } from "./billing.messages";

/** A checkbox: present = true, absent = false. */
const checkbox = () =>
  z
    .boolean()
    .optional()
    .transform((v) => v ?? false);

const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(calendarDateField(label).optional())
    .transform((value) => value ?? null);

const changeFields = {
  name: requiredText("Plan name", 120),
  items: z
    .array(invoiceItemSchema, { error: "Add at least one item." })
    .min(1, "Add at least one item.")
    .max(MAX_PLAN_ITEMS, `A plan can have at most ${MAX_PLAN_ITEMS} items.`),
  dueDays: optionalWholeNumber("Days to pay", { min: 0, max: 365 }).transform((v) => v ?? 14),
  autopay: checkbox(),
  endDate: optionalDate("End date"),
  maxCycles: optionalWholeNumber("Number of invoices", { min: 1, max: 1000 }),
};

const totalPositive: [(value: { items: { amount: number }[] }) => boolean, { path: string[]; message: string }] = [
  (value) => {
    const total = value.items.reduce((sum, item) => sum + item.amount, 0);
    return total > 0 && total <= MAX_CENTS;
  },
  { path: ["items"], message: "The total must be more than $0.00 and at most $10,000,000.00." },
];
const oneEnd: [(value: { endDate: string | null; maxCycles: number | null }) => boolean, { path: string[]; message: string }] = [
  (value) => value.endDate === null || value.maxCycles === null,
  { path: ["maxCycles"], message: BILLING_MESSAGES.endAndCycles },
];

/** Create a plan. */
export const planCreateSchema = z
  .object({
    organisationId: idSchema,
    ...changeFields,
    frequency: z.enum(BILLING_FREQUENCIES, { error: "Choose how often to bill." }),
    startDate: calendarDateField("Start date"),
    dayOfMonth: optionalWholeNumber("Day of the month", { min: 1, max: 31 }),
  })
  .refine(...totalPositive)
  .refine(...oneEnd);

/** Change a plan (from its next invoice). */
export const planChangeSchema = z
  .object(changeFields)
  .refine(...totalPositive)
  .refine(...oneEnd);

/** What the plan use-cases take: amounts in cents, dates `YYYY-MM-DD`. */
export interface PlanChangeInput {
  name: string;
  items: { description: string; amountCents: number }[];
  dueDays: number;
  autopay: boolean;
  endDate: string | null;
  maxCycles: number | null;
}
export interface PlanCreateInput extends PlanChangeInput {
  organisationId: number;
  frequency: (typeof BILLING_FREQUENCIES)[number];
  startDate: string;
  dayOfMonth: number | null;
}

const itemsOf = (items: { description: string; amount: number }[]) =>
  items.map((item) => ({ description: item.description, amountCents: item.amount }));

/** Maps the create form's value to {@link PlanCreateInput}. */
export function toPlanCreateInput(value: z.infer<typeof planCreateSchema>): PlanCreateInput {
  return { ...value, items: itemsOf(value.items) };
}

/** Maps the change form's value to {@link PlanChangeInput}. */
export function toPlanChangeInput(value: z.infer<typeof planChangeSchema>): PlanChangeInput {
  return { ...value, items: itemsOf(value.items) };
}
