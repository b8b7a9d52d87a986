/**
 * Database client factory: one Postgres dialect, one schema, two drivers.
 * - `DATABASE_URL` set → node-postgres pool against a PostgreSQL server.
 * - unset → embedded PGlite in a data directory (or in memory for tests).
 *
 * Nothing here runs at import time; the server (and each test) opens its own handle.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { logger } from "#app/lib/logger.server";
import * as schema from "./schema";

/** The Drizzle database type shared by both drivers. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle (inside `db.transaction(tx => …)` use `tx` only). */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either a database or a transaction: what use-cases accept for queries. */
export type Queryable = Database | Transaction;

/** An open database with its driver kind and lifecycle. */
export interface DbHandle {
  db: Database;
  driver: "pglite" | "postgres";
  /** Applies pending SQL migrations from `drizzle/` (serialised across instances on PostgreSQL). */
  migrate(): Promise<void>;
  /** Resolves when the database answers `select 1`; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connection counts (for /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Raw SQL for the job queue (pg-boss's `db` interface, ADR 019): one statement with `$n`
   * parameters, or — without parameters — several statements (pg-boss wraps its maintenance in
   * `BEGIN … COMMIT`, which runs as one unit on PGlite's single connection too). Never inside a
   * transaction of the caller: use `executorOf(tx)` (app/features/jobs/jobs.server.ts) there.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Thrown when another process already holds the PGlite data directory. */
export class DataDirLockedError extends Error {}

/**
 * Where the database lives: a PostgreSQL URL, a PGlite data directory, an in-memory PGlite, or
 * an already created PGlite client (tests clone a migrated template into one; `close()` closes it).
 */
export type OpenDatabaseOptions = { url: string; poolMax?: number } | { pgliteDir: string } | { memory: true } | { pglite: PGlite };

/** Connections per process to a PostgreSQL server when `DATABASE_POOL_MAX` is unset. */
export const DEFAULT_POOL_MAX = 10;

/** Arbitrary constant for the migration advisory lock on PostgreSQL. */
const MIGRATION_LOCK_ID = 727_274_001;

/**
 * Extensions the schema needs before its migrations run (drizzle-kit does not generate
 * `create extension`): pg_trgm for the admin lists' case-insensitive search indexes
 * (ADR 005). pg_trgm is a trusted extension on PostgreSQL 13+ and bundled with PGlite.
 */
const REQUIRED_EXTENSIONS_SQL = "create extension if not exists pg_trgm";

/** PGlite loads contrib extensions at start; these match {@link REQUIRED_EXTENSIONS_SQL}. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Opens a database.
 *
 * @param options - `{ url }` for PostgreSQL, `{ pgliteDir }` for embedded PGlite on disk,
 *   `{ memory: true }` for an in-memory PGlite (tests), `{ pglite }` for a PGlite client the caller made.
 * @throws {DataDirLockedError} when a live process holds the PGlite directory's lock file.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DbHandle> {
  const migrationsFolder = findMigrationsFolder();
  if ("url" in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? DEFAULT_POOL_MAX, connectionTimeoutMillis: 5_000 });
    // An idle client that loses its server (restart) must not crash the process.
    pool.on("error", (error) => logger.error({ err: error }, "database: idle client error"));
    // Issue #36: nor one in use (a transaction between its statements) — node-postgres emits its
    // lost connection as an "error" event, which without a listener ended the process; its next
    // query fails instead, and the request answers 503.
    pool.on("connect", (client) => client.on("error", (error) => logger.warn({ err: error }, "database: connection lost")));
    const db = drizzlePg(pool, { schema, casing: "snake_case" }) as unknown as Database;
    return {
      db,
      driver: "postgres",
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
          try {
            await client.query(REQUIRED_EXTENSIONS_SQL);
            await migratePg(drizzlePg(client, { casing: "snake_case" }), { migrationsFolder });
          } finally {
            await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
          }
        } finally {
          client.release();
        }
      },
      async ping() {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
      async executeSql(text, values) {
        const block = values?.length ? null : transactionBlock(text);
        if (!block) return pool.query(text, values);
        // pg-boss's maintenance: its own transaction, rolled back on failure before the connection
        // goes back to the pool (else the next user of the connection would find it aborted).
        const client = await pool.connect();
        try {
          await client.query("begin");
          const results = (await client.query(block)) as unknown as pg.QueryResult | pg.QueryResult[];
          await client.query("commit");
          return Array.isArray(results) ? (results.at(-1) ?? { rows: [] }) : results;
        } catch (error) {
          await client.query("rollback").catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }

  let releaseLock = () => {};
  let client: PGlite;
  if ("pgliteDir" in options) {
    fs.mkdirSync(options.pgliteDir, { recursive: true });
    releaseLock = lockDirectory(options.pgliteDir);
    try {
      client = await PGlite.create(options.pgliteDir, { extensions: PGLITE_EXTENSIONS });
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else if ("pglite" in options) {
    client = options.pglite;
  } else {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  }
  useBinaryBytea(client);
  const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    async migrate() {
      await client.exec(REQUIRED_EXTENSIONS_SQL);
      await migratePglite(drizzlePglite(client, { casing: "snake_case" }), { migrationsFolder });
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values);
      // A `BEGIN … COMMIT` block runs as a PGlite transaction: rolled back on failure, so the one
      // connection is never left in an aborted transaction for the next query.
      const block = transactionBlock(text);
      if (block) return client.transaction(async (tx) => (await tx.exec(block)).at(-1) ?? { rows: [] });
      return (await client.exec(text)).at(-1) ?? { rows: [] };
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}

/** The statements of a text that is exactly `BEGIN; … COMMIT;` (pg-boss's locked maintenance), or null. */
function transactionBlock(text: string): string | null {
  return /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/i.exec(text)?.[1] ?? null;
}

/** Clients {@link useBinaryBytea} already changed (tests lease the same client several times). */
const binaryByteaClients = new WeakSet<PGlite>();

/**
 * Makes a PGlite client pass `bytea` parameters as binary and read `bytea` results with Node's
 * hex decoder (issue #23, ADR 011). PGlite's own serializer turns a value into hex text through a
 * JavaScript array of one string per byte (≈ 30 bytes of garbage per byte: ~8 MB for one 256 KB
 * file chunk), which let the heap grow by 100+ MB while four 25 MB uploads were written; its parser
 * calls `parseInt` per byte. A `Uint8Array` returned by the serializer is sent in the binary
 * format (one copy into the protocol message); anything else keeps PGlite's text serializer.
 *
 * @param client - the PGlite client; its `serializers` / `parsers` tables are changed in place.
 */
export function useBinaryBytea(client: PGlite): void {
  if (binaryByteaClients.has(client)) return;
  binaryByteaClients.add(client);
  const textSerializer = client.serializers[pgliteTypes.BYTEA]!;
  // PGlite types serializers as returning text; its protocol writer sends an ArrayBufferView as binary.
  client.serializers[pgliteTypes.BYTEA] = ((value: unknown) => (value instanceof Uint8Array ? value : textSerializer(value))) as (
    value: unknown,
  ) => string;
  client.parsers[pgliteTypes.BYTEA] = (text: string) => {
    const bytes = Buffer.from(text.slice(2), "hex");
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  };
}

/**
 * Takes `<dir>/../<name>.lock` for this process. A lock left by a dead process is taken over.
 *
 * @returns a function that releases the lock.
 * @throws {DataDirLockedError} when a live process holds it.
 */
export function lockDirectory(dir: string): () => void {
  const lockPath = `${path.resolve(dir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(fs.readFileSync(lockPath, "utf8"));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The database directory ${dir} is in use by another process (pid ${pid}). ` +
            `Stop it first, or set DATA_DIR to another directory.`,
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock from a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the database directory ${dir}.`);
}

/**
 * @param pid - a process id.
 * @returns whether a process with this id runs on this machine (signal 0; EPERM means it runs as
 *   another user). Used for stale lock files here and for test clones left by ended processes.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Finds the committed `drizzle/` folder, from the source tree or from `build/server`. */
function findMigrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    dir = path.dirname(dir);
  }
  const fromCwd = path.resolve("drizzle");
  if (fs.existsSync(fromCwd)) return fromCwd;
  throw new Error("Could not find the drizzle/ migrations folder.");
}
