/**
 * Global settings (spec §3 settings; issue #5 edits them). One row, id 1; read with
 * defaults when it does not exist yet.
 */
import type { Queryable } from "#app/db/client.server";
import { settings } from "#app/db/schema";

export type Settings = typeof settings.$inferSelect;

/** Defaults of spec §9 and issue #5: allowNewClients true, commission 15 %. */
export const DEFAULT_SETTINGS: Omit<Settings, "updatedAt"> = {
  id: 1,
  companyName: "",
  supportEmail: "",
  defaultTimeline: "",
  allowNewClients: true,
  commissionRateBps: 1500,
  currency: "USD",
};

/** @returns the settings row, or the defaults when none was saved. */
export async function getSettings(q: Queryable): Promise<Settings> {
  const [row] = await q.select().from(settings).limit(1);
  return row ?? { ...DEFAULT_SETTINGS, updatedAt: new Date(0) };
}
