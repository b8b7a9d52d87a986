/**
 * Account preferences: a user can turn off non-essential notifications
 * (status changes, meeting accepted, proposals addressed to them, commission paid).
 * Password resets and invoices are always sent.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { user } from "#app/db/schema";
import type { Actor } from "./actor";

/** @returns the actor's own preferences. */
export async function getPreferences(db: Database, actor: Actor): Promise<{ notifyUpdates: boolean }> {
  const [row] = await db.select({ notifyUpdates: user.notifyUpdates }).from(user).where(eq(user.id, actor.id));
  return { notifyUpdates: row?.notifyUpdates ?? true };
}

/** Saves the actor's own preferences (only ever their own row). */
export async function savePreferences(db: Database, actor: Actor, input: { notifyUpdates: boolean }): Promise<void> {
  await db
    .update(user)
    .set({ notifyUpdates: input.notifyUpdates, updatedAt: sql`now()` })
    .where(eq(user.id, actor.id));
}
