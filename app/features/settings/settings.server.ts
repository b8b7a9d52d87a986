/**
 * Global settings (spec §3 settings; issue #5 edits them). One row, id 1; read with
 * defaults when it does not exist yet.
 */
import { sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { settings } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError } from "#app/lib/errors";
import type { SettingsInput } from "./settings.schema";

export type Settings = typeof settings.$inferSelect;

/** Defaults of spec §9 and issue #5: allowNewClients true, commission 15 %. */
export const DEFAULT_SETTINGS: Omit<Settings, "updatedAt"> = {
  id: 1,
  companyName: "",
  supportEmail: "",
  defaultTimeline: "",
  allowNewClients: true,
  requireEmailVerification: false,
  commissionRateBps: 1500,
  currency: "USD",
};

/** @returns the settings row, or the defaults when none was saved. */
export async function getSettings(q: Queryable): Promise<Settings> {
  const [row] = await q.select().from(settings).limit(1);
  return row ?? { ...DEFAULT_SETTINGS, updatedAt: new Date(0) };
}

/**
 * Reads the settings for the admin form (spec §2 /admin/settings).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function getSettingsForAdmin(q: Queryable, actor: Actor): Promise<Settings> {
  assertRole(actor, "admin");
  return getSettings(q);
}

/**
 * Saves the global settings (spec §7 "set settings/global"): creates the row on first save,
 * replaces every editable field afterwards. `allowNewClients = false` closes client
 * registration at once (`registerClient` reads it); `requireEmailVerification` refuses the
 * sign-in of unverified addresses from the next attempt (docs/product.md#email-verification). When a field changes, one audit event
 * `updated` with the changed fields before/after is recorded in the same transaction
 * (issue #6); saving the same values records nothing.
 *
 * @param input - validated values; `commissionRateBps` 0–10000 (basis points).
 * @returns the saved row.
 * @throws {AppError} 403 unless the actor is an admin; 400 on `commissionRatePercent` for a rate outside 0–100 %.
 */
export async function saveSettings(db: Database, actor: Actor, input: SettingsInput): Promise<Settings> {
  assertRole(actor, "admin");
  if (!Number.isInteger(input.commissionRateBps) || input.commissionRateBps < 0 || input.commissionRateBps > 10_000) {
    throw fieldError("commissionRatePercent", "The rate must be between 0 and 100 %.");
  }
  return db.transaction(async (tx) => {
    // Serialises concurrent saves so each audit event's "before" is what it replaced.
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_LOCK_ID})`);
    const current = await getSettings(tx);
    const values = {
      companyName: input.companyName.slice(0, 200),
      supportEmail: input.supportEmail.slice(0, 254),
      defaultTimeline: input.defaultTimeline.slice(0, 200),
      allowNewClients: input.allowNewClients,
      requireEmailVerification: input.requireEmailVerification ?? current.requireEmailVerification,
      commissionRateBps: input.commissionRateBps,
    };
    const { before, after } = changedFields(
      {
        companyName: current.companyName,
        supportEmail: current.supportEmail,
        defaultTimeline: current.defaultTimeline,
        allowNewClients: current.allowNewClients,
        requireEmailVerification: current.requireEmailVerification,
        commissionRateBps: current.commissionRateBps,
      },
      values,
    );
    const [row] = await tx
      .insert(settings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: settings.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    if (after) await recordAudit(tx, actor, { entity: "settings", entityId: 1, action: "updated", before, after });
    return row!;
  });
}

/** Arbitrary constant for the settings advisory lock. */
const SETTINGS_LOCK_ID = 727_274_006;
