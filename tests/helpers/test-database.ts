/**
 * The one place that makes databases for tests and benchmarks (vitest, Playwright, bench/*).
 *
 * Migrations run once per migration set, into a template, and every database is a copy of it:
 * - PostgreSQL: a template database `portal_tmpl_<hash>` migrated once (under an advisory lock,
 *   so parallel workers and runs build it once), then `create database … template …` (≈ 50 ms
 *   instead of ≈ 1 s of migrations on a quiet server, 1–4 s at load 15: the copy is written and
 *   fsynced). A test's clone is then renamed, reset to the template's state and kept for the
 *   process's next test (see {@link openPgClone}) instead of being dropped and copied again.
 * - PGlite: a migrated data directory dumped once to `<tmpdir>/portal-pglite-template-<hash>.tar`
 *   and loaded into a new in-memory PGlite (`loadDataDir`), with the WebAssembly modules compiled
 *   once per process, instead of `initdb` + migrations (≈ 1.8 s) per test. Each test file keeps
 *   its clone and restores it to the template's state between tests (see {@link openPgliteClone}).
 * - Seeded: tests that all start from the same rows (the demo data) get them written once into a
 *   clone whose `close()` restores that seeded state (`seed` of {@link openPgliteClone} and
 *   {@link openPgClone}), instead of a seed before every test.
 *
 * `<hash>` covers the `drizzle/` folder (and, for PGlite, the PGlite version), so a changed
 * migration builds a new template and a stale one is never used.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { isAlive, openDatabase, PGLITE_EXTENSIONS, type Database, type DbHandle } from "#app/db/client.server";

/** The local PostgreSQL server the browser tests used before the embedded server (and what CI sets). */
export const DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Arbitrary constant for the advisory lock that serialises template builds. */
const TEMPLATE_LOCK_ID = 727_274_002;

const require = createRequire(import.meta.url);

/** @returns a hex digest of the migrations (names and contents), plus `extra`. */
function migrationsHash(extra = ""): string {
  const dir = path.resolve("drizzle");
  const hash = createHash("sha256").update(extra);
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else hash.update(path.relative(dir, file)).update("\0").update(fs.readFileSync(file)).update("\0");
    }
  };
  walk(dir);
  return hash.digest("hex").slice(0, 12);
}

/** A database created on a PostgreSQL server for one test, run or benchmark. */
export interface CreatedPgDatabase {
  name: string;
  /** The admin URL with the new database's name. */
  url: string;
  /** Drops the database (closing its connections). */
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops database `name` of the server of `adminUrl` if it exists, ending its connections (`with (force)`). */
async function dropPgDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
}

function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const templates = new Map<string, Promise<string>>();

/**
 * The migrated template on the server of `adminUrl`, built once (by whichever process gets the
 * advisory lock first; the others wait and reuse it).
 *
 * @returns the template database's name.
 */
export function pgTemplate(adminUrl: string): Promise<string> {
  let pending = templates.get(adminUrl);
  if (!pending) {
    pending = buildPgTemplate(adminUrl);
    templates.set(adminUrl, pending);
    pending.catch(() => templates.delete(adminUrl));
  }
  return pending;
}

async function buildPgTemplate(adminUrl: string): Promise<string> {
  const name = `portal_tmpl_${migrationsHash()}`;
  return withAdmin(adminUrl, async (admin) => {
    await admin.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK_ID]);
    try {
      const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount) return name;
      const building = `${name}_build_${randomBytes(3).toString("hex")}`;
      await admin.query(`create database "${building}"`);
      const handle = await openDatabase({ url: withDatabase(adminUrl, building) });
      try {
        await handle.migrate();
      } finally {
        await handle.close();
      }
      await admin.query(`alter database "${building}" rename to "${name}"`);
      await admin.query(`alter database "${name}" is_template true`);
      return name;
    } finally {
      await admin.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK_ID]);
    }
  });
}

/**
 * Creates a database on the server of `adminUrl`, copied from the migrated template (or empty).
 *
 * @param adminUrl - a URL whose user may create databases (e.g. `TEST_DATABASE_URL`).
 * @param prefix - the start of the database's name (letters, digits, `_`).
 * @param opts.empty - create an empty database (no template, no migrations).
 * @returns its name, URL and `drop()`.
 */
export async function createPgDatabase(adminUrl: string, prefix: string, opts: { empty?: boolean } = {}): Promise<CreatedPgDatabase> {
  const template = opts.empty ? null : await pgTemplate(adminUrl);
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`));
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () => dropPgDatabase(adminUrl, name),
  };
}

/** The start of the name of a reusable PostgreSQL clone; the process id that owns it follows. */
const REUSABLE_PREFIX = "test_p";

/** A reusable clone's name: `test_p<pid>_<time>_<random>` (a new one at each reuse). */
const reusableName = () => `${REUSABLE_PREFIX}${process.pid}_${Date.now()}_${randomBytes(4).toString("hex")}`;

/**
 * Writes the rows a file's tests start from (e.g. `seedDemo`) into a new clone, once: see
 * {@link openPgliteClone}. Its identity (the function object) tells seeded clones apart.
 */
export type Seed = (db: Database) => Promise<unknown>;

/** An idle PostgreSQL clone: its name, the state `close()` restores and the template's state. */
interface PgEntry {
  name: string;
  base: Baseline;
  plain: Baseline;
}

/** Idle PostgreSQL clones of this process, per admin URL and seed (`undefined`: the template's state). */
const idlePg = new Map<string, Map<Seed | undefined, PgEntry[]>>();

/** @returns the (mutable) list of idle clones of `adminUrl` in the state of `seed`. */
function idlePgOf(adminUrl: string, seed: Seed | undefined): PgEntry[] {
  let bySeed = idlePg.get(adminUrl);
  if (!bySeed) idlePg.set(adminUrl, (bySeed = new Map()));
  let list = bySeed.get(seed);
  if (!list) bySeed.set(seed, (list = []));
  return list;
}
/** Admin URLs whose leftover clones (of processes that ended) were dropped by this process. */
const swept = new Set<string>();

/**
 * Drops the reusable clones that processes which ended left on the server (a worker's idle clones
 * outlive it: nothing runs when vitest ends its workers). Clones of live processes (another run
 * beside this one) are left alone.
 */
async function sweepLeftovers(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where starts_with(datname, $1)", [
    REUSABLE_PREFIX,
  ]);
  for (const { datname } of rows) {
    const pid = Number(/^test_p(\d+)_/.exec(datname)?.[1]);
    if (pid && !isAlive(pid)) await admin.query(`drop database if exists "${datname}" with (force)`);
  }
}

/** Runs baseline SQL (see {@link captureBaseline}) on a node-postgres client. */
function pgSql(client: pg.Client): SqlClient {
  const self: SqlClient = {
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as T[] }),
    exec: async (text: string) => {
      await client.query(text);
    },
    transaction: async (fn) => {
      await client.query("begin");
      try {
        await fn(self);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      }
    },
  };
  return self;
}

/**
 * Takes a test's clone back: every connection to it ended (as `drop … with (force)` would), then
 * renamed — a client of the test that connects again by its old URL finds no database — and reset
 * to the template's state (see {@link restoreBaseline}).
 *
 * @returns the clone's new name, or null when it was dropped instead (the test changed the
 *   catalog, a connection would not end, the reset failed).
 */
async function recyclePgClone(adminUrl: string, name: string, base: Baseline): Promise<string | null> {
  const next = reusableName();
  const renamed = await withAdmin(adminUrl, async (admin) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
      try {
        await admin.query(`alter database "${name}" rename to "${next}"`);
        return true;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20)); // an ended backend takes a moment to leave
      }
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
    return false;
  });
  if (!renamed) return null;
  const reusable = await withPgClient(withDatabase(adminUrl, next), (client) => restoreBaseline(client, base)).catch(() => false);
  if (reusable) return next;
  await dropPgDatabase(adminUrl, next);
  return null;
}

/** A new clone of the template on the server of `adminUrl`, with its baseline. */
async function newPgClone(adminUrl: string): Promise<PgEntry> {
  const template = await pgTemplate(adminUrl);
  const name = reusableName();
  await withAdmin(adminUrl, (admin) => admin.query(`create database "${name}" template "${template}"`));
  const base = await withPgClient(withDatabase(adminUrl, name), captureBaseline);
  return { name, base, plain: base };
}

/** Runs `fn` on a new node-postgres client of `url` (baseline SQL), then ends the client. */
async function withPgClient<T>(url: string, fn: (client: SqlClient) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(pgSql(client));
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Opens a test database on PostgreSQL: a migrated database of its own, in the template's state
 * (or, with `seed`, in the state `seed` leaves it in).
 *
 * The first time (and whenever no clone is idle) it is a copy of the template; `close()` ends
 * every connection to it, renames it (so late queries of the test, by the old URL, fail as on
 * a dropped database) and resets it like a PGlite clone — all tables truncated, the template's
 * rows and sequence values restored — for the process's next test; a clone whose catalog the test
 * changed, or that cannot be reset, is dropped. Idle clones are named after their process and
 * dropped by a later run once that process has ended.
 *
 * @param adminUrl - a URL whose user may create databases (e.g. `TEST_DATABASE_URL`).
 * @param seed - rows to start from: run once on a clone, which `close()` then resets to the
 *   seeded state (not the template's) for the next `openPgClone(adminUrl, seed)` with the same
 *   function; {@link releaseSeeded} gives such clones back to the template's pool. Throws what
 *   `seed` throws (the clone is then dropped).
 */
export async function openPgClone(adminUrl: string, seed?: Seed): Promise<DbHandle> {
  if (!swept.has(adminUrl)) {
    swept.add(adminUrl);
    await withAdmin(adminUrl, sweepLeftovers);
  }
  let entry = idlePgOf(adminUrl, seed).pop();
  if (!entry) {
    entry = idlePgOf(adminUrl, undefined).pop() ?? (await newPgClone(adminUrl));
    if (seed) {
      const { name, plain } = entry;
      const url = withDatabase(adminUrl, name);
      try {
        const seeding = await openDatabase({ url });
        try {
          await seed(seeding.db);
        } finally {
          await seeding.close();
        }
        entry = { name, base: await withPgClient(url, captureBaseline), plain };
      } catch (error) {
        await dropPgDatabase(adminUrl, name);
        throw error;
      }
    }
  }
  const { name, base, plain } = entry;
  const handle = await openDatabase({ url: withDatabase(adminUrl, name) });
  let closed = false;
  return {
    ...handle,
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
      const next = await recyclePgClone(adminUrl, name, base);
      if (next) idlePgOf(adminUrl, seed).push({ name: next, base, plain });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PGlite

interface PgliteAssets {
  dump: Blob;
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let assets: Promise<PgliteAssets> | undefined;

function pgliteAssets(): Promise<PgliteAssets> {
  assets ??= (async () => {
    const dist = path.dirname(require.resolve("@electric-sql/pglite"));
    const version = (JSON.parse(fs.readFileSync(path.join(dist, "..", "package.json"), "utf8")) as { version: string }).version;
    const file = path.join(os.tmpdir(), `portal-pglite-template-${migrationsHash(version)}.tar`);
    if (!fs.existsSync(file)) {
      const handle = await openDatabase({ memory: true });
      await handle.migrate();
      const client = (handle.db as unknown as { $client: PGlite }).$client;
      await client.exec("checkpoint");
      const tar = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
      await handle.close();
      const partial = `${file}.${process.pid}.${randomBytes(3).toString("hex")}`;
      fs.writeFileSync(partial, tar);
      fs.renameSync(partial, file); // atomic: a parallel worker reads a whole file or none
    }
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(fs.readFileSync(path.join(dist, "pglite.wasm"))),
      WebAssembly.compile(fs.readFileSync(path.join(dist, "initdb.wasm"))),
    ]);
    return {
      dump: new Blob([fs.readFileSync(file)], { type: "application/x-tar" }),
      pgliteWasmModule,
      initdbWasmModule,
      fsBundle: new Blob([fs.readFileSync(path.join(dist, "pglite.data"))]),
    };
  })();
  assets.catch(() => (assets = undefined));
  return assets;
}

/**
 * Writes the migrated template into `dir`, a new PGlite data directory — what `openDatabase({
 * pgliteDir })` and `migrate()` leave there — for the tests that need a database on disk (the
 * command-line scripts, several processes on one directory): ≈ 0.3 s of CPU instead of ≈ 3–6 s
 * for `initdb` and the migrations. (app/db/client.server.test.ts still makes one that way.)
 *
 * @param dir - a directory that does not exist yet or is empty.
 */
export async function migratedPgliteDir(dir: string): Promise<void> {
  const a = await pgliteAssets();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = await PGlite.create(dir, {
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: a.dump,
    pgliteWasmModule: a.pgliteWasmModule,
    initdbWasmModule: a.initdbWasmModule,
    fsBundle: a.fsBundle,
  });
  await client.close();
}

/** A new in-memory PGlite loaded from the migrated template dump. */
export async function loadPgliteTemplate(): Promise<PGlite> {
  const a = await pgliteAssets();
  return PGlite.create({
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: a.dump,
    pgliteWasmModule: a.pgliteWasmModule,
    initdbWasmModule: a.initdbWasmModule,
    fsBundle: a.fsBundle,
  });
}

/** What the baseline functions need of a database client (PGlite's own methods; {@link pgSql} on PostgreSQL). */
interface SqlTx {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}
interface SqlClient extends SqlTx {
  transaction(fn: (tx: SqlTx) => Promise<void>): Promise<unknown>;
}

/** What a clone holds right after loading: enough to put it back in that state. */
interface Baseline {
  /** `schema.table` of every table, quoted. */
  tables: string[];
  /** Rows of the tables that are not empty in the template (migration bookkeeping, seeds). */
  rows: Array<{ table: string; columns: string; json: string }>;
  /** Every sequence with its value. */
  sequences: Array<{ seq: string; last_value: string; is_called: boolean }>;
  /** A digest of the catalog (relations, columns, functions, triggers, constraints, extensions). */
  fingerprint: string;
}

const FINGERPRINT_SQL = `select md5(concat_ws('|',
  (select string_agg(oid::text || relname || relkind::text || relnatts, ',' order by oid) from pg_class where relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)),
  (select string_agg(attrelid::text || attname || atttypid || attnotnull || atthasdef || attisdropped, ',' order by attrelid, attnum) from pg_attribute where attrelid >= 16384),
  (select string_agg(oid::text || md5(prosrc), ',' order by oid) from pg_proc where oid >= 16384),
  (select string_agg(oid::text || tgenabled::text, ',' order by oid) from pg_trigger where oid >= 16384),
  (select string_agg(oid::text || convalidated, ',' order by oid) from pg_constraint where oid >= 16384),
  (select string_agg(oid::text, ',' order by oid) from pg_extension),
  (select string_agg(oid::text, ',' order by oid) from pg_type where oid >= 16384),
  (select string_agg(nspname, ',' order by oid) from pg_namespace),
  (select string_agg(coalesce(array_to_string(setconfig, ';'), ''), ',') from pg_db_role_setting
    where setdatabase in (0, (select oid from pg_database where datname = current_database())))
)) as fp`;

async function captureBaseline(client: SqlClient): Promise<Baseline> {
  const tables = (
    await client.query<{ t: string }>(
      `select format('%I.%I', schemaname, tablename) as t from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
    )
  ).rows.map((r) => r.t);
  const rows: Baseline["rows"] = [];
  for (const table of tables) {
    const { rows: found } = await client.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`);
    if (!found[0]?.json) continue;
    const columns = (
      await client.query<{ c: string }>(
        `select string_agg(format('%I', attname), ', ' order by attnum) as c from pg_attribute
         where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''`,
        [table],
      )
    ).rows[0]!.c;
    rows.push({ table, columns, json: found[0].json });
  }
  const sequences: Baseline["sequences"] = [];
  const seqNames = (
    await client.query<{ s: string }>(
      `select format('%I.%I', schemaname, sequencename) as s from pg_sequences where schemaname not in ('pg_catalog', 'information_schema')`,
    )
  ).rows;
  for (const { s } of seqNames) {
    const { rows: v } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${s}`);
    sequences.push({ seq: s, last_value: v[0]!.last_value, is_called: v[0]!.is_called });
  }
  const fingerprint = (await client.query<{ fp: string }>(FINGERPRINT_SQL)).rows[0]!.fp;
  return { tables, rows, sequences, fingerprint };
}

/**
 * Puts a clone back into the template's state: session reset, every table that holds rows (or
 * held rows in the template) emptied and rewritten, the template's rows and every sequence's value
 * restored (triggers off while doing so). `delete` then `vacuum full` of the few tables a test
 * wrote, not `truncate` of all 74: truncating makes new files for every table and index (1–2 s on
 * PostgreSQL, fsynced) where a test writes a handful of tables, and `truncate` of only those is
 * refused for tables other (empty) tables reference. `vacuum full` gives each written table a new,
 * empty heap, as `truncate` or a fresh copy did: an insert never lands in the space of a deleted
 * row, so rows read without `order by` still come in insertion order, as on a fresh database.
 *
 * @returns true when the catalog is the template's too (else the clone must be thrown away).
 */
async function restoreBaseline(client: SqlClient, base: Baseline): Promise<boolean> {
  await client.exec("discard all");
  // The tables with rows, but the template's tables whose rows are still exactly the template's.
  const written = new Set(base.rows.map((r) => r.table));
  if (base.tables.length) {
    const probe = base.tables.map((table, i) => `select ${i} as i where exists (select from ${table})`).join(" union all ");
    for (const { i } of (await client.query<{ i: number }>(probe)).rows) written.add(base.tables[i]!);
  }
  if (base.rows.length) {
    const same = base.rows
      .map((r, i) => `select ${i} as i where (select json_agg(t)::text from ${r.table} t) = $${i + 1}`)
      .join(" union all ");
    const unchanged = await client.query<{ i: number }>(
      same,
      base.rows.map((r) => r.json),
    );
    for (const { i } of unchanged.rows) written.delete(base.rows[i]!.table);
  }
  if (written.size) {
    await client.transaction(async (tx: SqlTx) => {
      await tx.exec("set local session_replication_role = replica");
      await tx.exec([...written].map((table) => `delete from ${table};`).join("\n"));
    });
    await client.exec(`vacuum full ${[...written].join(", ")}`);
  }
  await client.transaction(async (tx: SqlTx) => {
    await tx.exec("set local session_replication_role = replica");
    for (const r of base.rows.filter((r) => written.has(r.table))) {
      await tx.query(
        `insert into ${r.table} (${r.columns}) overriding system value select ${r.columns} from json_populate_recordset(null::${r.table}, $1::json)`,
        [r.json],
      );
    }
    if (base.sequences.length) {
      await tx.query(
        `select count(setval(s.seq::regclass, s.last_value::bigint, s.is_called)) from json_to_recordset($1::json) as s(seq text, last_value text, is_called boolean)`,
        [JSON.stringify(base.sequences)],
      );
    }
  });
  const fp = (await client.query<{ fp: string }>(FINGERPRINT_SQL)).rows[0]!.fp;
  return fp === base.fingerprint;
}

/** An idle PGlite clone: the state `close()` restores and the template's state. */
interface PgliteEntry {
  client: PGlite;
  base: Baseline;
  plain: Baseline;
}

/** Idle PGlite clones of this process, per seed (`undefined`: the template's state). */
const idle = new Map<Seed | undefined, PgliteEntry[]>();

/** @returns the (mutable) list of idle PGlite clones in the state of `seed`. */
function idleOf(seed: Seed | undefined): PgliteEntry[] {
  let list = idle.get(seed);
  if (!list) idle.set(seed, (list = []));
  return list;
}

/**
 * Opens a test database on PGlite: a migrated in-memory PGlite in the template's state (or, with
 * `seed`, in the state `seed` leaves it in).
 *
 * A clone is loaded from the template dump (≈ 0.3–0.6 s) the first time; `close()` then
 * empties it back to the template's state — all tables truncated, the template's rows and
 * sequence values restored, session state discarded — and keeps it for the next test of the
 * file, unless the test changed the catalog (schema, functions, triggers, extensions…) or the
 * reset fails: then the clone is closed and the next test loads a new one. After `close()`
 * the handle refuses queries, as a closed PGlite does, so late writes of a test cannot reach
 * the next test's database.
 *
 * @param seed - rows to start from, written once instead of before every test: the first
 *   `openPgliteClone(seed)` runs `seed` on a clone and records the result as the state `close()`
 *   restores (the same reset as above: the seeded rows and sequence values put back), for the
 *   next `openPgliteClone` with the same function. {@link releaseSeeded} gives such clones back to
 *   the template's pool when the file is done. Throws what `seed` throws (the clone is closed).
 */
export async function openPgliteClone(seed?: Seed): Promise<DbHandle> {
  let entry = idleOf(seed).pop();
  if (!entry) {
    entry = idleOf(undefined).pop();
    if (!entry) {
      const client = await loadPgliteTemplate();
      const base = await captureBaseline(client);
      entry = { client, base, plain: base };
    }
    if (seed) {
      const { client, plain } = entry;
      try {
        await seed((await openDatabase({ pglite: client })).db);
        entry = { client, base: await captureBaseline(client), plain };
      } catch (error) {
        await client.close();
        throw error;
      }
    }
  }
  const { client, base, plain } = entry;
  let released = false;
  const lease = new Proxy(client, {
    get(target, prop) {
      if (released && prop !== "closed") throw new Error("PGlite is closed");
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const handle = await openDatabase({ pglite: lease });
  return {
    ...handle,
    async close() {
      if (released) return;
      released = true;
      const reusable = await restoreBaseline(client, base).catch(() => false);
      if (reusable) idleOf(seed).push({ client, base, plain });
      else await client.close();
    },
  };
}

/**
 * Hands the idle clones seeded by `seed` (PGlite, and PostgreSQL of every admin URL) back to the
 * template's pools, reset to the template's state (or closed / dropped when that fails), so that a
 * file's seeded clones neither stay in memory after it nor reach another file in its seeded state.
 * Clones still open are not touched: call it after their `close()` (e.g. in `afterAll`).
 *
 * @param seed - the function given to {@link openPgliteClone} / {@link openPgClone}.
 */
export async function releaseSeeded(seed: Seed): Promise<void> {
  for (const { client, plain } of idle.get(seed)?.splice(0) ?? []) {
    if (await restoreBaseline(client, plain).catch(() => false)) idleOf(undefined).push({ client, base: plain, plain });
    else await client.close();
  }
  for (const [adminUrl, bySeed] of idlePg) {
    for (const { name, plain } of bySeed.get(seed)?.splice(0) ?? []) {
      const reset = await withPgClient(withDatabase(adminUrl, name), (client) => restoreBaseline(client, plain)).catch(() => false);
      if (reset) idlePgOf(adminUrl, undefined).push({ name, base: plain, plain });
      else await dropPgDatabase(adminUrl, name);
    }
  }
}

/**
 * A small pool for a test's own queries on `url`. An idle connection the server ends (the database
 * dropped `with (force)` at the end of a test, a restart) would make the pool emit an `error` with
 * no listener — an uncaught exception that fails whatever test runs then; here it only closes that
 * connection (the next query opens another).
 */
export function testPool(url: string, max = 2): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on("error", () => {});
  return pool;
}
