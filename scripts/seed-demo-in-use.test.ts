/**
 * `npm run seed:demo` on a database in use (issue #41): it checks first and answers one sentence —
 * no insert is tried, no sequence moves, no SQL is printed, and the command exits non-zero. A
 * fresh install (only its first admin) is still seeded.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../app/db/client.server";
import { user } from "../app/db/schema";
import { insertProposal } from "../tests/helpers/admin-data";
import { bundleScripts, type ScriptBundles } from "../tests/helpers/bundled-scripts";
import { testDatabases } from "../tests/helpers/db";
import { makeClient, useTestServices } from "../tests/helpers/services";
import { createPgDatabase, migratedPgliteDir } from "../tests/helpers/test-database";
import { SeedRefusedError, seedDemo, seedRefusal } from "./seed-demo";

/** Every sequence's last value and every table's row count: what a refused seed must leave as it was. */
async function state(db: Database) {
  const sequences = (await db.execute(sql`select sequencename, last_value from pg_sequences order by sequencename`)) as unknown as {
    rows: unknown[];
  };
  const counts = (await db.execute(
    sql`select (select count(*)::int from "user") as users, (select count(*)::int from proposal) as proposals, (select count(*)::int from organisation) as organisations`,
  )) as unknown as { rows: unknown[] };
  return { sequences: sequences.rows, counts: counts.rows[0] };
}

describe.each(testDatabases())("seed:demo on a database in use, %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("refuses in one sentence before writing: no row, no sequence moved", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    await insertProposal(t.db, { clientId: client.id });
    await insertProposal(t.db, { clientId: client.id });
    const before = await state(t.db);
    expect(await seedRefusal(t.db)).toBe(
      "This database is in use (1 user, 2 proposals, 1 organisation), so seed:demo wrote nothing: point DATA_DIR or DATABASE_URL at an empty database to try the demo.",
    );
    const error = await seedDemo(t.db, { users: 5, proposals: 5, invoices: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SeedRefusedError);
    expect((error as Error).message).not.toContain("\n");
    expect(await state(t.db)).toEqual(before);
  });

  it("a fresh install with only its first admin is not in use", async () => {
    const { t } = ctx;
    await t.db.insert(user).values({ id: "first-admin", name: "Owner", email: "owner@example.com", emailVerified: true, role: "admin" });
    expect(await seedRefusal(t.db)).toBeNull();
  });
});

describe("npm run seed:demo on a database in use (the command)", () => {
  // The command built once (tests/helpers/bundled-scripts.ts): each run below starts as plain
  // Node instead of through tsx; the code run is the same.
  let script: ScriptBundles | undefined;
  beforeAll(async () => {
    script = await bundleScripts(["scripts/seed-demo.ts"]);
  });
  afterAll(() => script?.remove());
  const run = (env: Record<string, string>) => {
    const result = spawnSync(process.execPath, [script!.bundleOf("scripts/seed-demo.ts")], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env },
      timeout: 120_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const expectOneSentence = (out: { status: number | null; stdout: string; stderr: string }) => {
    expect(out.status).toBe(1);
    expect(out.stderr.trim()).toMatch(/^This database is in use \(1 user, 1 proposal, 1 organisation\), so seed:demo wrote nothing: .*\.$/);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stdout + out.stderr).not.toMatch(/insert into|Failed query/i);
  };
  async function fill(db: Database) {
    await db.execute(
      sql`insert into "user" (id, name, email, email_verified, role) values ('c1', 'Client', 'c1@example.com', true, 'client')`,
    );
    await db.execute(sql`insert into organisation (name) values ('Acme')`);
    await insertProposal(db, { clientId: "c1" });
  }

  it("on PGlite in DATA_DIR: exit 1, one sentence", { timeout: 240_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-in-use-"));
    try {
      await migratedPgliteDir(path.join(dataDir, "pglite"));
      const handle = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      await fill(handle.db);
      const before = await state(handle.db);
      await handle.close();
      expectOneSentence(run({ DATA_DIR: dataDir }));
      const again = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      expect(await state(again.db)).toEqual(before);
      await again.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL in DATABASE_URL: exit 1, one sentence", { timeout: 240_000 }, async () => {
    const created = await createPgDatabase(process.env.TEST_DATABASE_URL!, "seed_in_use");
    try {
      const handle = await openDatabase({ url: created.url });
      await fill(handle.db);
      const before = await state(handle.db);
      await handle.close();
      expectOneSentence(run({ DATABASE_URL: created.url }));
      const again = await openDatabase({ url: created.url });
      expect(await state(again.db)).toEqual(before);
      await again.close();
    } finally {
      await created.drop();
    }
  });
});
