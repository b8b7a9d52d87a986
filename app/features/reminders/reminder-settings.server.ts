/**
 * The reminder settings (docs/product.md#reminders): on/off per kind and the lists of days, in a
 * table of their own (`reminder_settings`, one row, id 1; the defaults when it was never saved).
 * The digest's time zone is the agency's, `settings.time_zone`.
 */
import { sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { reminderSettings } from "#app/db/schema";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError } from "#app/lib/errors";
import { parseDays, formatDays, type ReminderSettingsInput } from "./reminders.schema";
import { REMINDER_MESSAGES } from "./reminders.messages";

export type ReminderSettings = Omit<typeof reminderSettings.$inferSelect, "id" | "updatedAt">;

/** Defaults of migration 0022: everything on; invoices −3, 0, 7, 14 days from the due date; proposals after 3 and 7 days. */
export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  invoiceEnabled: true,
  invoiceDays: [-3, 0, 7, 14],
  proposalEnabled: true,
  proposalDays: [3, 7],
  meetingEnabled: true,
  digestEnabled: true,
};

/** @returns the saved reminder settings, or the defaults. */
export async function getReminderSettings(q: Queryable): Promise<ReminderSettings> {
  const [row] = await q.select().from(reminderSettings).limit(1);
  if (!row) return { ...DEFAULT_REMINDER_SETTINGS };
  const { id: _id, updatedAt: _updatedAt, ...rest } = row;
  return rest;
}

/**
 * Saves the reminder settings (docs/product.md#reminders). The day lists are checked again here
 * (whole numbers in range, distinct, at most 10; at least one while the kind is on), sorted and
 * stored; a change is audited as a settings change (only the changed fields), saving the same
 * values records nothing.
 *
 * @throws {AppError} 403 unless the actor is an admin; 400 on `invoiceDays` / `proposalDays` when a list is refused.
 */
export async function saveReminderSettings(db: Database, actor: Actor, input: ReminderSettingsInput): Promise<ReminderSettings> {
  assertRole(actor, "admin");
  const check = (days: number[], kind: "invoice" | "proposal", enabled: boolean, field: string) => {
    const parsed = parseDays(formatDays(days), kind);
    if ("error" in parsed) throw fieldError(field, parsed.error);
    if (enabled && parsed.days.length === 0) throw fieldError(field, REMINDER_MESSAGES.daysRequired);
    return parsed.days;
  };
  const values: ReminderSettings = {
    invoiceEnabled: input.invoiceEnabled,
    invoiceDays: check(input.invoiceDays, "invoice", input.invoiceEnabled, "invoiceDays"),
    proposalEnabled: input.proposalEnabled,
    proposalDays: check(input.proposalDays, "proposal", input.proposalEnabled, "proposalDays"),
    meetingEnabled: input.meetingEnabled,
    digestEnabled: input.digestEnabled,
  };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REMINDER_SETTINGS_LOCK_ID})`);
    const current = await getReminderSettings(tx);
    const { before, after } = changedFields({ ...current }, { ...values });
    await tx
      .insert(reminderSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: reminderSettings.id, set: { ...values, updatedAt: sql`now()` } });
    if (after)
      await recordAudit(tx, actor, {
        entity: "settings",
        entityId: 1,
        action: "updated",
        before: { reminders: before },
        after: { reminders: after },
      });
    return values;
  });
}

/** Arbitrary constant for the reminder settings' advisory lock. */
const REMINDER_SETTINGS_LOCK_ID = 727_274_026;
