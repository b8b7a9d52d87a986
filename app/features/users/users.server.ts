/**
 * Admin user management use-cases (spec §4 "User active flag", §6 admin). Issue #3 needs
 * deactivation; the admin screens of issue #5 build on these.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { session, user } from "#app/db/schema";
import { notFound } from "#app/lib/errors";
import { assertRole, type Actor } from "./actor";

/**
 * Deactivates (`active = false`) or reactivates a non-admin user. Deactivation ends all of
 * their sessions in the same transaction, so they are signed out at their next request.
 *
 * @throws {AppError} 403 unless the actor is an admin; 404 for an unknown id or an admin.
 */
export async function setUserActive(db: Database, actor: Actor, userId: string, active: boolean): Promise<void> {
  assertRole(actor, "admin");
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(user)
      .set({ banned: !active, banReason: active ? null : "Deactivated by an admin", updatedAt: sql`now()` })
      .where(and(eq(user.id, userId), ne(user.role, "admin")))
      .returning({ id: user.id });
    if (updated.length === 0) throw notFound("User not found");
    if (!active) await tx.delete(session).where(eq(session.userId, userId));
  });
}
