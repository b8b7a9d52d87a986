import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { proposal, user } from "#app/db/schema";
import { roleOf } from "./actor";

/**
 * Ambassador proposals addressed to `email` that have no client yet become this client's,
 * once the client has verified that address (docs/product.md#ambassador-proposals: called
 * by better-auth's `afterEmailVerification`, never at registration — whoever registers an
 * address first must not see what was addressed to it before proving it is theirs). Only those
 * made before the account existed: one addressed to an existing account stays unattached (issue #36).
 *
 * @returns how many proposals were claimed.
 */
export async function claimAddressedProposals(db: Database, userId: string, email: string): Promise<number> {
  // Only a client account receives proposals; never the ambassador who made one.
  const [owner] = await db.select({ role: user.role, createdAt: user.createdAt }).from(user).where(eq(user.id, userId));
  if (!owner || roleOf(owner.role) !== "client") return 0;
  const rows = await db
    .update(proposal)
    .set({ clientId: userId, updatedAt: sql`now()` })
    .where(
      and(
        eq(proposal.clientEmail, email.toLowerCase()),
        isNull(proposal.clientId),
        sql`${proposal.ambassadorId} is distinct from ${userId}`,
        // Made while the address had this account already: an ambassador who did not refer the
        // client cannot hand them a proposal (submitAmbassadorProposal stores it unattached).
        lte(proposal.createdAt, owner.createdAt),
      ),
    )
    .returning({ id: proposal.id });
  return rows.length;
}
