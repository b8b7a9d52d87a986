/**
 * Test databases: every integration test runs on a fresh in-memory PGlite, and also on
 * the PostgreSQL server when `TEST_DATABASE_URL` is set (CI sets it), in a database of
 * its own that is dropped afterwards.
 *
 * Usage (`useTestServices` in ./services opens a database before each test and closes it after):
 *   describe.each(testDatabases())("contact on %s", (_name, open) => {
 *     const ctx = useTestServices(open);
 *     it("stores", async () => { const { t } = ctx; ... });
 *   });
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DbHandle } from "#app/db/client.server";

export type TestDb = DbHandle;

type Opener = () => Promise<TestDb>;

/** @returns `[name, open]` pairs: always `pglite`, plus `postgres` when TEST_DATABASE_URL is set. */
export function testDatabases(): Array<[string, Opener]> {
  const list: Array<[string, Opener]> = [["pglite", openPglite]];
  if (process.env.TEST_DATABASE_URL) list.push(["postgres", openPostgres]);
  return list;
}

async function openPglite(): Promise<TestDb> {
  const handle = await openDatabase({ memory: true });
  await handle.migrate();
  return handle;
}

async function openPostgres(): Promise<TestDb> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
