/**
 * Runs one migration's SQL file again on a test database: how a data migration is tested with rows
 * in the old shape inserted after the schema was created (the migrator ran it on an empty table).
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";

/**
 * @param tag - the migration's file name without `.sql`, e.g. `0020_invoice_owner`.
 * @throws when the file is missing or a statement fails.
 */
export async function rerunMigration(db: Queryable, tag: string): Promise<void> {
  const text = fs.readFileSync(`drizzle/${tag}.sql`, "utf8");
  for (const statement of text.split("--> statement-breakpoint")) {
    if (statement.replace(/--.*$/gm, "").trim()) await db.execute(sql.raw(statement));
  }
}
