/**
 * Per-test database setup time, old way vs template copies (bench/results/test-speed.md):
 * - PGlite: `initdb` + migrations per test (old) vs one load of the migrated template dump
 *   then a reset to the template's state per test (tests/helpers/test-database.ts);
 * - PostgreSQL (TEST_DATABASE_URL, else skipped): `create database` + migrations vs
 *   `create database … template`.
 * Reports wall time and this process's CPU time per open+close, so a busy machine shows.
 *
 *   npx tsx bench/test-db-setup.ts [--runs 8]
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, type DbHandle } from "../app/db/client.server";
import { createPgDatabase, openPgClone, openPgliteClone } from "../tests/helpers/test-database";

const { values } = parseArgs({ options: { runs: { type: "string", default: "8" } } });
const RUNS = Number(values.runs);

async function measure(label: string, open: () => Promise<DbHandle>): Promise<string> {
  // One warm-up (builds the template / compiles the WebAssembly once), then RUNS timed cycles.
  const warm = await open();
  await warm.close();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const h = await open();
    await h.db.execute(sql`insert into contact_message (user_name, user_email, message) values ('a', 'a@example.com', 'm')`);
    await h.close();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = `| ${label} | ${med(wall).toFixed(0)} | ${med(cpu).toFixed(0)} |`;
  console.log(line);
  return line;
}

const rows = [
  await measure("PGlite, old: new PGlite + initdb + migrations", async () => {
    const h = await openDatabase({ memory: true });
    await h.migrate();
    return h;
  }),
  await measure("PGlite, new: template clone, reset between tests", openPgliteClone),
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  rows.push(
    await measure("PostgreSQL, old: create database + migrations", async () => {
      const d = await createPgDatabase(pgUrl, "bench_old", { empty: true });
      const h = await openDatabase({ url: d.url });
      await h.migrate();
      return { ...h, close: async () => (await h.close(), await d.drop()) };
    }),
    await measure("PostgreSQL, new: create database … template", () => openPgClone(pgUrl)),
  );
}
console.log(`\n| Setup (open + one insert + close) | median wall ms | median CPU ms (this process) |\n|---|---|---|\n${rows.join("\n")}`);
