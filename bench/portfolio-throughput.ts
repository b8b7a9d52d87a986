/**
 * Issue #40: a case study published from the admin (read from the database, cached in memory,
 * re-rendered on publish) against `/project1` — the page that was prerendered from
 * `app/content/projects.ts` until now and is today the first seeded case study — in one run of the
 * built app on PostgreSQL (target: ≥ 0.9 × /project1). A third row shows the same case study
 * rendered per request (a query string skips the page cache) to show what the cache saves.
 *
 * The bench publishes its case study the way the admin does: a copy of /project1's content with
 * a Markdown Impact, written to the database, plus the live event that makes every server process
 * drop and re-render its cached pages (what `publishCaseStudy` writes through `recordAudit`).
 *
 * Load generator: wrk (one thread, 50 connections, with the browser's `Accept-Encoding`) when
 * installed, else autocannon (50 connections) in this process. The rows alternate (A B C A B C) so
 * that the machine's other load falls on each alike; the generator's CPU share is shown per row.
 *
 * Environment: BENCH_SECONDS (default 10) per row; TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres).
 *
 *   npm run build && npx tsx bench/portfolio-throughput.ts
 */
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { startApp, trialStorage, removeTrialStorage, writeResults } from "./lib/server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CONNECTIONS = 50;
const ENCODING = "gzip, deflate, br";
const HAS_WRK = spawnSync("sh", ["-c", "command -v wrk"]).status === 0;

interface Row {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  generatorCpu: number;
}

async function withAutocannon(url: string): Promise<Row> {
  const cpu0 = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": ENCODING } });
  const cpu = process.cpuUsage(cpu0);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    generatorCpu: (cpu.user + cpu.system) / 1e6 / wall,
  };
}

function withWrk(url: string): Promise<Row> {
  const ms = (text: string) =>
    text.endsWith("us") ? parseFloat(text) / 1000 : text.endsWith("ms") ? parseFloat(text) : parseFloat(text) * 1000;
  const child = spawn("/usr/bin/time", [
    "-f",
    "%U %S %e",
    "wrk",
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${DURATION}s`,
    "--latency",
    "-H",
    `Accept-Encoding: ${ENCODING}`,
    url,
  ]);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`wrk failed (${code}): ${out}${err}`));
      const [user, sys, wall] = err.trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number];
      resolve({
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
        p50: ms(/\s50%\s+(\S+)/.exec(out)![1]!),
        p99: ms(/\s99%\s+(\S+)/.exec(out)![1]!),
        errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
        generatorCpu: (user + sys) / wall,
      });
    }),
  );
}

async function main() {
  const storage = await trialStorage("postgres", "bench_portfolio", PG_URL);
  const app = await startApp({ ...storage.env, NODE_ENV: "production" });
  const sql = new pg.Client({ connectionString: storage.database!.url });
  await sql.connect();
  try {
    // Publish a case study as the admin's "Publish" does: the row, then the live event.
    await sql.query(`
      insert into case_study (slug, draft, published, published_at, position)
      select 'bench-case-study', c, c, now(), 99
        from (select jsonb_set(jsonb_set(published, '{slug}', '"bench-case-study"'), '{impact}',
                '"Staff find free space **from a screen**, not the aisles:\\n\\n- filters by clearance\\n- spreadsheet export"') as c
                from case_study where slug = 'project1') s`);
    await sql.query(
      `insert into live_event (kind, entity_id, data, user_ids, admins) values ('case_study.published', 'bench', '{}', '{}', true)`,
    );
    const urls = {
      prerendered: `${app.baseUrl}/project1`,
      published: `${app.baseUrl}/bench-case-study`,
      uncached: `${app.baseUrl}/bench-case-study?uncached=1`,
    };
    // Both pages cached (an ETag), and the new one shows its Markdown.
    for (let i = 0; ; i++) {
      const [a, b] = await Promise.all([fetch(urls.prerendered), fetch(urls.published)]);
      const html = await b.text();
      if (a.headers.get("etag") && b.headers.get("etag") && html.includes("<strong>from a screen</strong>")) break;
      if (i > 600) throw new Error("the published case study never reached the page cache");
      await new Promise((r) => setTimeout(r, 100));
    }
    const run = HAS_WRK ? withWrk : withAutocannon;
    const rows: Record<keyof typeof urls, Row[]> = { prerendered: [], published: [], uncached: [] };
    for (let round = 0; round < 2; round++) {
      for (const name of Object.keys(urls) as (keyof typeof urls)[]) rows[name].push(await run(urls[name]));
    }
    const mean = (list: Row[], key: keyof Row) => list.reduce((s, r) => s + r[key], 0) / list.length;
    const line = (name: keyof typeof urls, label: string) => {
      const list = rows[name];
      return `| ${label} | ${Math.round(mean(list, "rps")).toLocaleString("en-US")} | ${list.map((r) => Math.round(r.rps).toLocaleString("en-US")).join(" / ")} | ${mean(list, "p50").toFixed(1)} | ${mean(list, "p99").toFixed(1)} | ${list.reduce((s, r) => s + r.errors, 0)} | ${(100 * mean(list, "generatorCpu")).toFixed(0)} % |`;
    };
    const ratio = mean(rows.published, "rps") / mean(rows.prerendered, "rps");
    const body = `
Generator: ${HAS_WRK ? "wrk (1 thread)" : "autocannon in the bench process (wrk is not installed here)"}, ${CONNECTIONS} connections, ${DURATION} s per row, two alternating rounds, \`Accept-Encoding: ${ENCODING}\`.
Server: the built app, one process, PostgreSQL, LOG_LEVEL=warn. Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")} (other work shares this machine).

| page | req/s (mean) | per round | p50 ms | p99 ms | errors | generator CPU |
|---|---:|---|---:|---:|---:|---:|
${line("prerendered", "/project1 (seeded; before #40 prerendered from projects.ts)")}
${line("published", "/bench-case-study (published through the database)")}
${line("uncached", "/bench-case-study?uncached=1 (rendered per request)")}

**Ratio published / /project1: ${ratio.toFixed(2)}** (target ≥ 0.90: ${ratio >= 0.9 ? "met" : "NOT met"}).

Both cached pages take the same path (server/page-cache.ts answers before express from memory,
precompressed); the third row is the price of a page the cache does not hold (a database read and a
React render per request), paid only until the page is rendered again after a publish.
`;
    console.log(body);
    console.log(
      `written to ${writeResults("portfolio-throughput", "Portfolio: a published case study vs /project1", "npx tsx bench/portfolio-throughput.ts", body)}`,
    );
  } finally {
    await sql.end();
    await app.stop();
    await removeTrialStorage(storage);
  }
}

await main();
