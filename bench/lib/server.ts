/**
 * Benchmark helpers: start the built app (production mode) on a free port with its own
 * data directory or PostgreSQL database, and describe the machine for the results file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { freePort, spawnApp, type AppProcess } from "../../tests/helpers/app-server";
import { createPgDatabase, type CreatedPgDatabase } from "../../tests/helpers/test-database";

export { freePort };
export type RunningApp = AppProcess;

/**
 * Starts the built app with the benchmark admin (admin@bench.test / admin-bench-password), its own data directory and LOG_LEVEL=warn.
 *
 * @param options - passed to spawnApp (e.g. `args` to start another entry point, `cwd` another checkout's build).
 */
export async function startApp(env: Record<string, string> = {}, options: Parameters<typeof spawnApp>[1] = {}): Promise<RunningApp> {
  if (!fs.existsSync(path.join(options.cwd ?? "", "build/server/index.js"))) throw new Error("Run `npm run build` first.");
  return spawnApp(
    {
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      ADMIN_EMAIL: "admin@bench.test",
      ADMIN_PASSWORD: "admin-bench-password",
      DATA_DIR: env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-")),
      // No request log: at tens of thousands of requests per second it would be collected in this process.
      LOG_LEVEL: "warn",
      ...env,
    },
    options,
  );
}

/** A trial's own storage: a data directory and, on PostgreSQL, a database of its own; `env` points the app at them. */
export interface TrialStorage {
  driver: "pglite" | "postgres";
  dataDir: string;
  database?: CreatedPgDatabase;
  env: { DATA_DIR: string; DATABASE_URL: string };
}

/**
 * Creates a trial's storage: a temporary data directory and, for `postgres`, a migrated database
 * (a copy of the test template) whose name starts with `name` on the server at `pgUrl`.
 */
export async function trialStorage(driver: "pglite" | "postgres", name: string, pgUrl: string): Promise<TrialStorage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const database = driver === "postgres" ? await createPgDatabase(pgUrl, name) : undefined;
  return { driver, dataDir, database, env: { DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "" } };
}

/**
 * Stops the app, reads what it stored (each query's `v` column, from its PGlite data directory or its
 * PostgreSQL database) and then removes the trial's storage.
 *
 * @returns one list of values per query, in order.
 */
export async function stopAndRead(app: RunningApp, storage: TrialStorage, queries: string[]): Promise<string[][]> {
  const readAll = async (query: (text: string) => Promise<{ rows: { v: string }[] }>) => {
    const results: string[][] = [];
    for (const text of queries) results.push((await query(text)).rows.map((r) => r.v));
    return results;
  };
  let results: string[][];
  if (storage.driver === "pglite") {
    await app.stop();
    const db = await PGlite.create(path.join(storage.dataDir, "pglite"));
    results = await readAll((text) => db.query<{ v: string }>(text));
    await db.close();
  } else {
    const client = new pg.Client({ connectionString: storage.database!.url });
    await client.connect();
    results = await readAll((text) => client.query<{ v: string }>(text));
    await client.end();
    await app.stop();
  }
  await removeTrialStorage(storage);
  return results;
}

/** Removes a trial's storage (its PostgreSQL database, if any, and its data directory); the app must be stopped. */
export async function removeTrialStorage(storage: TrialStorage): Promise<void> {
  await storage.database?.drop();
  fs.rmSync(storage.dataDir, { recursive: true, force: true });
}

/** One line describing the machine, for results files. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Writes a results file with the standard header (date, machine, command). */
export function writeResults(name: string, title: string, command: string, body: string): string {
  const file = path.join("bench/results", `${name}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `# ${title}\n\n- Date: ${new Date().toISOString()}\n- Machine: ${machine()}\n- Command: \`${command}\`\n\n${body.trim()}\n`,
  );
  return file;
}
