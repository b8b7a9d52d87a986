/**
 * Account preferences: a user can turn off non-essential notifications
 * (status changes, meeting accepted, proposals addressed to them, commission paid) and, clients
 * and admins, the mails about new messages in their conversations (docs/product.md#conversations-mail); clients and
 * ambassadors, the automatic reminders (docs/product.md#reminders).
 * Password resets and invoices are always sent.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { user } from "#app/db/schema";
import type { Actor } from "./actor";

/** @returns the actor's own preferences. */
export async function getPreferences(
  db: Database,
  actor: Actor,
): Promise<{ notifyUpdates: boolean; notifyMessages: boolean; notifyReminders: boolean }> {
  const [row] = await db
    .select({ notifyUpdates: user.notifyUpdates, notifyMessages: user.notifyMessages, notifyReminders: user.notifyReminders })
    .from(user)
    .where(eq(user.id, actor.id));
  return {
    notifyUpdates: row?.notifyUpdates ?? true,
    notifyMessages: row?.notifyMessages ?? true,
    notifyReminders: row?.notifyReminders ?? true,
  };
}

/** Saves the actor's own preferences (only ever their own row). */
export async function savePreferences(
  db: Database,
  actor: Actor,
  input: { notifyUpdates: boolean; notifyMessages?: boolean; notifyReminders?: boolean },
): Promise<void> {
  await db
    .update(user)
    .set({
      notifyUpdates: input.notifyUpdates,
      ...(input.notifyMessages !== undefined ? { notifyMessages: input.notifyMessages } : {}),
      // Automatic reminders (docs/product.md#reminders): the sweep and "Send reminder now" skip a user who turned them off.
      ...(input.notifyReminders !== undefined ? { notifyReminders: input.notifyReminders } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(user.id, actor.id));
}
