/**
 * A client's name and e-mail as every list, invoice and export shows them (one definition): the
 * business name, else the account name. A closed account's own name is gone
 * (docs/product.md#closing-an-account): a kept invoice shows what it was billed to, frozen on its
 * proposal at closing, passed here as the fallback.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { user } from "#app/db/schema";

/**
 * @param fallbacks - columns tried in order when the account has no name to show (e.g. the
 *   proposal's `client_name`); the account row's own name ("Closed account") comes last.
 * @returns SQL of the name (the `user` table must be joined).
 */
export function clientNameSql(...fallbacks: SQLWrapper[]): SQL<string> {
  const rest = fallbacks.map((f) => sql`${f}, `);
  return sql<string>`coalesce(case when ${user.closedAt} is null then coalesce(${user.businessName}, ${user.name}) end, ${sql.join(rest)}${user.name})`;
}

/**
 * @param fallback - the column used when the account is closed or missing (e.g. the proposal's `client_email`).
 * @returns SQL of the e-mail (null when neither is known).
 */
export function clientEmailSql(fallback: SQLWrapper): SQL<string | null> {
  return sql<string | null>`coalesce(case when ${user.closedAt} is null then ${user.email} end, ${fallback})`;
}
