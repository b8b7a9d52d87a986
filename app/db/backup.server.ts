/**
 * Backup and restore of the embedded PGlite database: a gzipped tarball of the
 * data directory made by PGlite itself (`dumpDataDir`) and loaded back with `loadDataDir`.
 * Both take the directory's lock, so the server must be stopped; a PostgreSQL server is
 * backed up with pg_dump instead (README).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { lockDirectory } from "./client.server";

/**
 * Writes a backup of `pgliteDir` to `outFile` (`.tar.gz`).
 *
 * @returns the archive's size in bytes.
 * @throws {DataDirLockedError} when the server (or another process) holds the directory.
 */
export async function backupPglite(pgliteDir: string, outFile: string): Promise<number> {
  if (!fs.existsSync(path.join(pgliteDir, "PG_VERSION"))) throw new Error(`No database found in ${pgliteDir}.`);
  const release = lockDirectory(pgliteDir);
  try {
    const db = await PGlite.create(pgliteDir);
    try {
      await db.query("checkpoint");
      const archive = await db.dumpDataDir("gzip");
      const bytes = Buffer.from(await archive.arrayBuffer());
      fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
      fs.writeFileSync(`${outFile}.partial`, bytes);
      fs.renameSync(`${outFile}.partial`, outFile);
      return bytes.length;
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

/**
 * Restores `archiveFile` into `pgliteDir`. An existing directory is refused unless `force`,
 * in which case it is kept aside as `<dir>.before-restore-<timestamp>` (never deleted).
 *
 * @returns the path the previous directory was moved to, if any.
 * @throws {Error} when the directory exists and `force` is not set, or the archive is not a PGlite backup.
 * @throws {DataDirLockedError} when the server holds the directory.
 */
export async function restorePglite(archiveFile: string, pgliteDir: string, { force = false } = {}): Promise<string | null> {
  const archive = fs.readFileSync(archiveFile);
  const exists = fs.existsSync(pgliteDir) && fs.readdirSync(pgliteDir).length > 0;
  if (exists && !force) throw new Error(`${pgliteDir} already holds a database. Add --force to keep it aside and restore over it.`);
  fs.mkdirSync(path.dirname(path.resolve(pgliteDir)), { recursive: true });
  const release = lockDirectory(pgliteDir);
  let movedTo: string | null = null;
  try {
    if (exists) {
      movedTo = `${pgliteDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(pgliteDir, movedTo);
    }
    const db = await PGlite.create(pgliteDir, { loadDataDir: new Blob([archive]) });
    try {
      await db.query("select 1");
    } finally {
      await db.close();
    }
    return movedTo;
  } catch (error) {
    // Put the previous database back if the restore failed.
    if (movedTo) {
      fs.rmSync(pgliteDir, { recursive: true, force: true });
      fs.renameSync(movedTo, pgliteDir);
    }
    throw error;
  } finally {
    release();
  }
}
