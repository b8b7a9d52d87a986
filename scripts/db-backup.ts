/**
 * `npm run db:backup [-- --out backups/portal.tar.gz]`: backs up the embedded database
 * (stop the server first). With DATABASE_URL set, use pg_dump (see README).
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { backupPglite } from "../app/db/backup.server";
import { parseEnv } from "../app/lib/env.server";

try {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  if (env.DATABASE_URL) throw new Error("DATABASE_URL is set: back up the PostgreSQL server with pg_dump (see README).");
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = values.out ?? `backups/portal-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`;
  const bytes = await backupPglite(env.pgliteDir, out);
  console.log(`Backed up ${env.pgliteDir} to ${out} (${(bytes / 1024).toFixed(0)} KiB).`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
