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
import { afterAll } from "vitest";
import type { DbHandle } from "#app/db/client.server";
import { openPgClone, openPgliteClone, releaseSeeded, type Seed } from "./test-database";

export type TestDb = DbHandle;

type Opener = () => Promise<TestDb>;

/**
 * @param opts.seed - rows every test starts from (e.g. the demo data), written once per database
 *   kind and worker instead of before each test: each `open()` then gives a database in the state
 *   `seed` left, and its `close()` puts that state back (see `openPgliteClone`). Pass the same
 *   function object each time (its identity keys the seeded clones). With a seed this registers
 *   an `afterAll` in the calling file or `describe` that hands the seeded clones back.
 * @returns `[name, open]` pairs: always `pglite`, plus `postgres` when TEST_DATABASE_URL is set.
 *   Each `open()` gives a migrated database of the test's own (a copy of a template migrated
 *   once: see ./test-database); its `close()` releases it.
 */
export function testDatabases(opts: { seed?: Seed } = {}): Array<[string, Opener]> {
  const { seed } = opts;
  const list: Array<[string, Opener]> = [["pglite", () => openPgliteClone(seed)]];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push(["postgres", () => openPgClone(url, seed)]);
  if (seed) afterAll(() => releaseSeeded(seed));
  return list;
}
