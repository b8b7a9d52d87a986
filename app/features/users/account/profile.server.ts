/** The account page's profile form (docs/product.md#account-page). */
import { eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { user } from "#app/db/schema";
import { fieldError } from "#app/lib/errors";
import type { ProfileInput } from "../account.schema";
import type { SessionUser } from "../actor";

/**
 * Saves the signed-in user's profile (docs/product.md#account-page): clients their business
 * name, phone and website; ambassadors their name and phone (never the referral link ID);
 * admins their name. A client's account name follows the business name, as at registration.
 *
 * @param input - validated by the role's schema (`account.schema.ts`).
 * @throws {AppError} 400 when a field the role needs is missing.
 */
export async function updateProfile(db: Database, actor: SessionUser, input: ProfileInput): Promise<void> {
  const values: Partial<typeof user.$inferInsert> = {};
  if (actor.role === "client") {
    if (!("businessName" in input)) throw fieldError("businessName", "Business name is required.");
    Object.assign(values, { businessName: input.businessName, name: input.businessName, phone: input.phone, website: input.website });
  } else if (actor.role === "ambassador") {
    if (!("phone" in input) || !("name" in input)) throw fieldError("phone", "Phone is required.");
    Object.assign(values, { name: input.name, phone: input.phone });
  } else {
    if (!("name" in input)) throw fieldError("name", "Name is required.");
    values.name = input.name;
  }
  await db
    .update(user)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(user.id, actor.id));
}
