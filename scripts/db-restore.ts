/**
 * `npm run db:restore -- backups/portal.tar.gz [--force]`: restores the embedded database
 * from a backup (stop the server first). With --force, the current database is kept aside
 * as `data/pglite.before-restore-<time>`.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { restorePglite } from "../app/db/backup.server";
import { parseEnv } from "../app/lib/env.server";

try {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  if (env.DATABASE_URL) throw new Error("DATABASE_URL is set: restore the PostgreSQL server with pg_restore (see README).");
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: "boolean" } } });
  const archive = positionals[0];
  if (!archive) throw new Error("Usage: npm run db:restore -- <backup.tar.gz> [--force]");
  const movedTo = await restorePglite(archive, env.pgliteDir, { force: values.force });
  console.log(`Restored ${archive} into ${env.pgliteDir}.${movedTo ? ` The previous database is kept in ${movedTo}.` : ""}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
