/**
 * Words and limits of recurring billing (issue #39), zod-free so pages can import them
 * (docs/architecture.md#forms).
 */
import type { BillingFrequency } from "./plan-dates";

/** At most this many line items on a plan. */
export const MAX_PLAN_ITEMS = 20;

/** How each frequency reads ("Monthly"). */
export const FREQUENCY_LABELS: Record<BillingFrequency, string> = {
  weekly: "Weekly",
  monthly: "Monthly",
  quarterly: "Every 3 months",
  yearly: "Yearly",
};

/** How each plan status reads. */
export const PLAN_STATUS_LABELS = { active: "Active", paused: "Paused", cancelled: "Cancelled", ended: "Ended" } as const;
export type PlanDisplayStatus = keyof typeof PLAN_STATUS_LABELS;

export const BILLING_MESSAGES = {
  planNotFound: "Billing plan not found.",
  organisationNotFound: "Choose the client organisation.",
  startInPast: "The start date cannot be before today.",
  endBeforeStart: "The end date cannot be before the start date.",
  endAndCycles: "Give an end date or a number of invoices, not both.",
  dayOfMonth: "Enter a day of the month from 1 to 31.",
  dueDays: "Enter 0 to 365 days.",
  maxCycles: "Enter a number of invoices from 1 to 1000.",
  noCycle: "This plan would never issue an invoice: check the start date, end date and number of invoices.",
  cancelled: "This plan is cancelled; make a new plan instead.",
  notActive: "Only an active plan can be paused.",
  notPaused: "Only a paused plan can be resumed.",
  ended: "This plan has ended.",
  created: (name: string) => `Billing plan “${name}” created.`,
  saved: "Changes saved. They apply from the next invoice.",
  paused: "Plan paused: no invoices until it is resumed.",
  resumed: (date: string | null) =>
    date ? `Plan resumed. The next invoice is issued on ${date}.` : "Plan resumed; it has no more invoices to issue.",
  cancelledDone: "Plan cancelled: no further invoices.",
} as const;
