/**
 * The test-database helper itself: a PGlite or PostgreSQL clone handed back by `close()` must be,
 * for the next test, what a fresh copy of the migrated template is.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbHandle } from "#app/db/client.server";
import { openPgClone, openPgliteClone, releaseSeeded, testPool, type Seed } from "./test-database";

type Rows<T> = { rows: T[] };

/**
 * A test that created a table and added a column hands its clone back; the next clone opened
 * has neither (the clone was thrown away, not reset).
 */
async function expectSchemaChangeDiscarded(open: () => Promise<DbHandle>): Promise<void> {
  const first = await open();
  await first.db.execute(sql`create table scratch (x int)`);
  await first.db.execute(sql`alter table contact_message add column extra text`);
  await first.close();
  const second = await open();
  const found = (await second.db.execute(sql`select to_regclass('public.scratch') as t`)) as unknown as Rows<{ t: string | null }>;
  expect(found.rows[0]!.t).toBeNull();
  const columns = (await second.db.execute(
    sql`select count(*)::int as n from information_schema.columns where table_name = 'contact_message' and column_name = 'extra'`,
  )) as unknown as Rows<{ n: number }>;
  expect(columns.rows[0]!.n).toBe(0);
  await second.close();
}

const countOf = async (handle: DbHandle, table: "contact_message" | "case_study") =>
  ((await handle.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as unknown as Rows<{ n: number }>).rows[0]!.n;

/**
 * With a seed: the seed runs once; every later clone opened with it starts in the seeded state
 * whatever the test before wrote (rows, sequence values); `releaseSeeded` hands the clone back in
 * the template's state, to openers without the seed.
 */
async function expectSeededState(open: (seed?: Seed) => Promise<DbHandle>): Promise<void> {
  let runs = 0;
  const seed: Seed = async (db) => {
    runs++;
    await db.execute(
      sql`insert into contact_message (user_name, user_email, message, ip) values ('S', 's@example.com', 'seeded', '192.0.2.9')`,
    );
  };
  const first = await open(seed);
  expect(await countOf(first, "contact_message")).toBe(1);
  await first.db.execute(
    sql`insert into contact_message (user_name, user_email, message, ip) values ('A', 'a@example.com', 'hello', '192.0.2.1')`,
  );
  const firstId = (await first.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
  await first.db.execute(sql`delete from case_study`);
  await first.close();

  const second = await open(seed);
  expect(runs).toBe(1);
  const rows = (await second.db.execute(sql`select message from contact_message`)) as unknown as Rows<{ message: string }>;
  expect(rows.rows.map((r) => r.message)).toEqual(["seeded"]);
  expect(await countOf(second, "case_study")).toBeGreaterThan(0);
  await second.db.execute(
    sql`insert into contact_message (user_name, user_email, message, ip) values ('B', 'b@example.com', 'hi', '192.0.2.2')`,
  );
  const secondId = (await second.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
  expect(secondId.rows[0]!.id).toBe(firstId.rows[0]!.id); // the seeded sequence value comes back too
  await second.close();

  await releaseSeeded(seed);
  const plain = await open();
  expect(await countOf(plain, "contact_message")).toBe(0);
  await plain.close();
}

describe("openPgliteClone", () => {
  it("gives a migrated database, and the next one is back to the template's state", async () => {
    const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };
    const first = await openPgliteClone();
    const migrations = (await first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as Rows<{
      n: number;
    }>;
    expect(migrations.rows[0]!.n).toBe(journal.entries.length);
    await first.db.execute(
      sql`insert into contact_message (user_name, user_email, message, ip) values ('A', 'a@example.com', 'hello', '192.0.2.1')`,
    );
    const firstId = (await first.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
    await first.db.execute(sql`set timezone = 'Asia/Tokyo'`);
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/closed/) } });

    const second = await openPgliteClone();
    const count = (await second.db.execute(sql`select count(*)::int as n from contact_message`)) as unknown as Rows<{ n: number }>;
    expect(count.rows[0]!.n).toBe(0);
    await second.db.execute(
      sql`insert into contact_message (user_name, user_email, message, ip) values ('B', 'b@example.com', 'hi', '192.0.2.2')`,
    );
    const secondId = (await second.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
    expect(secondId.rows[0]!.id).toBe(firstId.rows[0]!.id); // sequences restart too
    const tz = (await second.db.execute(sql`show timezone`)) as unknown as Rows<{ TimeZone: string }>;
    expect(tz.rows[0]!.TimeZone).not.toBe("Asia/Tokyo");
    const again = (await second.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as Rows<{
      n: number;
    }>;
    expect(again.rows[0]!.n).toBe(journal.entries.length);
    await second.close();
  });

  it("throws a clone away when a test changed the schema", () => expectSchemaChangeDiscarded(openPgliteClone));

  it("with a seed, seeds once and gives every later clone the seeded state", () => expectSeededState(openPgliteClone));
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)("openPgClone", () => {
  const open = () => openPgClone(pgUrl!);
  const nameOf = async (handle: Awaited<ReturnType<typeof open>>) =>
    ((await handle.db.execute(sql`select current_database() as name`)) as unknown as Rows<{ name: string }>).rows[0]!.name;

  it("gives a migrated database, and the next one is back to the template's state, by another name", async () => {
    const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };
    const first = await open();
    const firstName = await nameOf(first);
    await first.db.execute(
      sql`insert into contact_message (user_name, user_email, message, ip) values ('A', 'a@example.com', 'hello', '192.0.2.1')`,
    );
    const firstId = (await first.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
    // A connection of the test's own that it leaves open (a pool, a listener).
    // A table the template fills (case studies), emptied by the test.
    const seeded = (await first.db.execute(sql`select count(*)::int as n from case_study`)) as unknown as Rows<{ n: number }>;
    expect(seeded.rows[0]!.n).toBeGreaterThan(0);
    await first.db.execute(sql`delete from case_study`);
    const stray = testPool(new URL(`/${firstName}`, pgUrl).toString(), 1);
    await stray.query("select 1");
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();
    // The stray pool's connection was ended, and its old URL no longer names a database.
    await expect(stray.query("select 1")).rejects.toThrow(/does not exist|terminat/);
    await stray.end();

    const second = await open();
    expect(await nameOf(second)).not.toBe(firstName);
    const count = (await second.db.execute(sql`select count(*)::int as n from contact_message`)) as unknown as Rows<{ n: number }>;
    expect(count.rows[0]!.n).toBe(0);
    const reseeded = (await second.db.execute(sql`select count(*)::int as n from case_study`)) as unknown as Rows<{ n: number }>;
    expect(reseeded.rows[0]!.n).toBe(seeded.rows[0]!.n);
    await second.db.execute(
      sql`insert into contact_message (user_name, user_email, message, ip) values ('B', 'b@example.com', 'hi', '192.0.2.2')`,
    );
    const secondId = (await second.db.execute(sql`select max(id) as id from contact_message`)) as unknown as Rows<{ id: number }>;
    expect(secondId.rows[0]!.id).toBe(firstId.rows[0]!.id); // sequences restart too
    const migrations = (await second.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as Rows<{
      n: number;
    }>;
    expect(migrations.rows[0]!.n).toBe(journal.entries.length);
    await second.close();
  });

  it("drops a clone when a test changed the schema", () => expectSchemaChangeDiscarded(open));

  it("with a seed, seeds once and gives every later clone the seeded state", () => expectSeededState((seed) => openPgClone(pgUrl!, seed)));
});
