/**
 * The reminder settings form (docs/product.md#reminders): four switches and two lists of days,
 * typed as "-3, 0, 7, 14". The lists are parsed, checked and sorted here (the server re-checks
 * in {@link saveReminderSettings}).
 */
import { z } from "zod";
import { REMINDER_DAY_LIMITS, REMINDER_MESSAGES } from "./reminders.messages";

export { REMINDER_MESSAGES, REMINDER_DAY_LIMITS, DEFAULT_REMINDER_DAYS } from "./reminders.messages";

/** A checkbox: present ("on") = true, absent = false. */
const checkbox = () =>
  z
    .boolean()
    .optional()
    .transform((v) => v ?? false);

/**
 * Parses a list of days.
 *
 * @returns the sorted distinct days, or the message of the first problem.
 */
export function parseDays(text: string, kind: "invoice" | "proposal"): { days: number[] } | { error: string } {
  const format = kind === "invoice" ? REMINDER_MESSAGES.invoiceDaysFormat : REMINDER_MESSAGES.proposalDaysFormat;
  const range = kind === "invoice" ? REMINDER_MESSAGES.invoiceDaysRange : REMINDER_MESSAGES.proposalDaysRange;
  const limits = REMINDER_DAY_LIMITS[kind];
  const parts = text
    .split(/[,;\s]+/)
    .map((p) => p.trim().replace(/^\u2212/, "-"))
    .filter(Boolean);
  if (parts.length > REMINDER_DAY_LIMITS.count) return { error: REMINDER_MESSAGES.daysCount };
  const days: number[] = [];
  for (const part of parts) {
    if (!/^[+-]?\d{1,4}$/.test(part)) return { error: format };
    const n = Number(part);
    if (n < limits.min || n > limits.max) return { error: range };
    if (days.includes(n)) return { error: REMINDER_MESSAGES.daysDuplicate };
    days.push(n);
  }
  return { days: days.sort((a, b) => a - b) };
}

/** @returns `[-3, 0, 7, 14]` → "-3, 0, 7, 14". */
export function formatDays(days: number[]): string {
  return days.join(", ");
}

const days = (kind: "invoice" | "proposal") =>
  z
    .string()
    .max(200, { error: REMINDER_MESSAGES.daysCount, abort: true })
    .optional()
    .transform((v, ctx) => {
      const parsed = parseDays(v ?? "", kind);
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.days;
    });

export const reminderSettingsSchema = z
  .object({
    invoiceEnabled: checkbox(),
    invoiceDays: days("invoice"),
    proposalEnabled: checkbox(),
    proposalDays: days("proposal"),
    meetingEnabled: checkbox(),
    digestEnabled: checkbox(),
  })
  .superRefine((v, ctx) => {
    if (v.invoiceEnabled && v.invoiceDays.length === 0)
      ctx.addIssue({ code: "custom", path: ["invoiceDays"], message: REMINDER_MESSAGES.daysRequired });
    if (v.proposalEnabled && v.proposalDays.length === 0)
      ctx.addIssue({ code: "custom", path: ["proposalDays"], message: REMINDER_MESSAGES.daysRequired });
  });

export type ReminderSettingsInput = z.output<typeof reminderSettingsSchema>;
