/**
 * Test databases: every integration test runs on a fresh, migrated in-memory PGlite, and also on
 * the PostgreSQL server when `TEST_DATABASE_URL` is set (CI sets it), in a database of
 * its own that is dropped afterwards.
 *
 * Usage (`useTestServices` in ./services opens a database before each test and closes it after):
 *   describe.each(testDatabases())("contact on %s", (_name, open) => {
 *     const ctx = useTestServices(open);
 *     it("stores", async () => { const { t } = ctx; ... });
 *   });
 */
import type { DbHandle } from "#app/db/client.server";
import { openPgClone, openPgliteClone } from "./test-database";

export type TestDb = DbHandle;

type Opener = () => Promise<TestDb>;

/**
 * @returns `[name, open]` pairs: always `pglite`, plus `postgres` when TEST_DATABASE_URL is set.
 *   Each `open()` gives a migrated database of the test's own (a copy of a template migrated
 *   once: see ./test-database); its `close()` releases it.
 */
export function testDatabases(): Array<[string, Opener]> {
  const list: Array<[string, Opener]> = [["pglite", openPgliteClone]];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push(["postgres", () => openPgClone(url)]);
  return list;
}
