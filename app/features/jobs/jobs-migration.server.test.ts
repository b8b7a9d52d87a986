/**
 * Migration 0026 (ADR 019) from the schema before the job queue, with data in the old shape: every
 * mail waiting in the outbox and every export waiting to be built becomes one job (due when the row
 * was due), sent and failed mails get none, and the queue's schema answers pg-boss's version check.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPgDatabase } from "../../../tests/helpers/test-database";

/** A copy of drizzle/ whose journal stops before 0026. */
function foldersBeforeJobs(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-before-jobs-"));
  fs.cpSync("drizzle", dir, { recursive: true });
  const file = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < 26);
  fs.writeFileSync(file, JSON.stringify(journal));
  return dir;
}

type Exec = (query: string) => Promise<Record<string, unknown>[]>;

const OLD_SHAPE = `
  insert into "user" (id, name, email, role) values ('c1', 'Client', 'c1@example.com', 'client');
  insert into mail_outbox (id, "to", subject, text, attempts, next_attempt_at, locked_until, sent_at, failed_at) values
    (1, 'a@example.com', 'waiting', 'x', 0, '2030-01-01T09:00:00Z', null, null, null),
    (2, 'b@example.com', 'retrying', 'x', 3, '2020-01-01T09:00:00Z', '2020-01-01T09:01:00Z', null, null),
    (3, 'c@example.com', 'sent', 'x', 1, now(), null, now(), null),
    (4, 'd@example.com', 'failed', 'x', 10, now(), null, null, now());
  insert into data_export (id, user_id, status, token_hash) values (7, 'c1', 'pending', 'p'), (8, 'c1', 'failed', 'f');
`;

async function checkMigrated(exec: Exec) {
  const mails = await exec(
    `select m.id, m.attempts, m.locked_until, j.name, j.state::text as state, j.data, j.start_after, j.retry_limit, j.dead_letter
       from mail_outbox m left join pgboss.job j on j.id = m.job_id order by m.id`,
  );
  expect(mails.map((r) => [r.id, r.name, r.state, r.data, r.retry_limit, r.dead_letter, r.locked_until])).toEqual([
    [1, "mail", "created", { mailId: 1 }, 9, "mail-failed", null],
    [2, "mail", "created", { mailId: 2 }, 9, "mail-failed", null],
    [3, null, null, null, null, null, null],
    [4, null, null, null, null, null, null],
  ]);
  expect(new Date(mails[0]!.start_after as string).toISOString()).toBe("2030-01-01T09:00:00.000Z");
  expect(mails[1]!.attempts).toBe(3);
  const exports = await exec(`select name, data from pgboss.job where name = 'data-export'`);
  expect(exports).toEqual([{ name: "data-export", data: { exportId: 7 } }]);
  expect(await exec(`select version from pgboss.version`)).toEqual([{ version: 24 }]);
}

describe("migration 0026_jobs_queue with data in the old shape", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it("on pglite", async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    cleanups.push(() => client.close());
    await client.exec("create extension if not exists pg_trgm");
    const db = drizzlePglite(client, { casing: "snake_case" });
    await migratePglite(db, { migrationsFolder: foldersBeforeJobs() });
    await client.exec(OLD_SHAPE);
    await migratePglite(db, { migrationsFolder: "drizzle" });
    await checkMigrated(async (q) => (await client.query<Record<string, unknown>>(q)).rows);
  });

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)("on postgres", async () => {
    const created = await createPgDatabase(url!, "mig", { empty: true });
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    cleanups.push(async () => {
      await client.end();
      await created.drop();
    });
    await client.query("create extension if not exists pg_trgm");
    const db = drizzlePg(client, { casing: "snake_case" });
    await migratePg(db, { migrationsFolder: foldersBeforeJobs() });
    await client.query(OLD_SHAPE);
    await migratePg(db, { migrationsFolder: "drizzle" });
    await checkMigrated(async (q) => (await client.query<Record<string, unknown>>(q)).rows);
  });
});
