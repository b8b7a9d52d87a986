/**
 * Issue #40's benchmark: a case study published from the admin (read from the database, cached in
 * memory, re-rendered on publish) against THE PRERENDERED `/project1` OF THE RELEASE BEFORE #40 —
 * the page rendered from `app/content/projects.ts` at start — in one wrk run (target: published ≥
 * 0.9 × that baseline). Today's `/project1` (since #40 itself a case study from the database) and
 * the published page rendered per request (a query string skips the page cache) are measured too.
 *
 * The baseline is the parent of the commit that first added a `drizzle/*_portfolio.sql` migration
 * (the last commit whose portfolio is prerendered from code). It is checked out into a temporary git
 * worktree (node_modules: a hard-linked copy of this checkout's when every package its lockfile names
 * is locked here at the same version, else `npm ci` there), built there (`npm run build`), and
 * started from there on its own port with its own, empty PostgreSQL database (its migrations run at
 * its start). Today's build runs beside it with a database of its own.
 *
 * The bench publishes its case study the way the admin does: a copy of /project1's content with a
 * Markdown Impact, written to the database, plus the live event that makes every server process drop
 * and re-render its cached pages (what `publishCaseStudy` writes through `recordAudit`).
 *
 * Load generator: wrk (one thread, 50 connections, the browser's `Accept-Encoding`), required. Every
 * row is run right after a discarded 2 s warm-up of the same URL, so that each measures a server
 * already answering that page: a Node server that sat idle for 10 s or more (while wrk loaded the
 * other server or page) answered its next seconds measurably slower and at a higher CPU cost per
 * request (heap and code warm up again; measured on this machine, 2026-11-29: after 15 s idle
 * 12.5–14.6k req/s and 49–60 µs/request, hot 14.6–15.6k and 47–51 µs, same page). The earlier
 * fixed order (baseline, published, project1, uncached) made the published page always the first on
 * today's server after its idle spell while today's /project1 followed it hot: the run of 14:53
 * measured the published page at 0.88 × the baseline and today's /project1 at 0.96, although both
 * take the same path and cost the same per request. The three cached pages alternate in rounds whose
 * order rotates (A B C, B C A, C A B, …: over three rounds each page runs once in each place); the
 * uncached page is measured after all cached rounds. Every row records the measured server's CPU time
 * per request (user + system of its process, from /proc, over wrk's request count: what one answer
 * costs the server, which the machine's other load changes far less than req/s), wrk's CPU share
 * (near 100 % of its one thread means the generator, not the server, was the limit) and the 1-minute
 * load average after it.
 *
 * Environment: BENCH_SECONDS (default 10) per row; BENCH_ROUNDS (default 3); TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres); PORTFOLIO_BASELINE_KEEP=1 keeps the
 * baseline worktree and its build for the next run (otherwise removed). Writes
 * bench/results/portfolio-throughput.md, the previous file kept below as the earlier run.
 *
 *   npm run build && npx tsx bench/portfolio-throughput.ts
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createPgDatabase } from "../tests/helpers/test-database";
import { git, releaseWorktree, sh } from "./lib/old-release";
import { startApp, trialStorage, removeTrialStorage, writeResults, type RunningApp } from "./lib/server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const KEEP = process.env.PORTFOLIO_BASELINE_KEEP === "1";
const CONNECTIONS = 50;
/** Seconds of the discarded warm-up run of the same URL right before each row. */
const WARMUP = 2;
const ENCODING = "gzip, deflate, br";
const RESULTS = "bench/results/portfolio-throughput.md";
/** Above this share of its one thread, wrk itself may have been the limit. */
const GENERATOR_LIMIT = 0.9;

interface Row {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** wrk's CPU time over its wall time (1 = one core). */
  generatorCpu: number;
  /** The measured server process's CPU time (user + system) per request, in microseconds. */
  serverUs: number;
  /** 1-minute load average right after the row. */
  load: number;
}

/**
 * The release before #40 in a temporary worktree, with its dependencies and its production build.
 *
 * @returns its directory, commit and subject, and how its node_modules was made.
 * @throws {Error} when no commit adds a portfolio migration, or the baseline does not prerender /project1 from code.
 */
async function baselineTree(): Promise<{ dir: string; commit: string; subject: string; modules: string }> {
  const added = (await git("log", "--diff-filter=A", "--format=%H", "--", "drizzle/*_portfolio.sql")).split("\n").pop();
  if (!added) throw new Error("No commit adds a drizzle/*_portfolio.sql migration");
  const commit = await git("rev-parse", `${added}^`);
  const cache = await git("show", `${commit}:server/page-cache.ts`);
  if (!cache.includes("projects.map((p) => `/${p.slug}`)")) throw new Error(`${commit} does not prerender the projects from code`);
  const subject = await git("log", "-1", "--format=%h %s", commit);
  const { dir, modules } = await releaseWorktree(commit, "portfolio-baseline");
  if (!fs.existsSync(path.join(dir, "build/server/main.js"))) {
    console.log(`building ${commit.slice(0, 10)} in ${dir} …`);
    await sh("npm", ["run", "build"], dir);
  }
  return { dir, commit, subject, modules };
}

/** CPU time (user + system) the process `pid` used so far, in microseconds (Linux /proc). */
function cpuMicros(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /s, "")
    .split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/**
 * One row: a discarded WARMUP-second wrk run against `url`, then one of BENCH_SECONDS measured,
 * timed by /usr/bin/time for wrk's own CPU, with the CPU time of process `pid` (the server) per request.
 *
 * @throws {Error} when wrk fails.
 */
async function withWrk(url: string, pid: number): Promise<Row> {
  await runWrk(url, WARMUP);
  const before = cpuMicros(pid);
  const row = await runWrk(url, DURATION);
  return { ...row, serverUs: (cpuMicros(pid) - before) / row.requests };
}

function runWrk(url: string, seconds: number): Promise<Omit<Row, "serverUs"> & { requests: number }> {
  const ms = (text: string) =>
    text.endsWith("us") ? parseFloat(text) / 1000 : text.endsWith("ms") ? parseFloat(text) : parseFloat(text) * 1000;
  const child = spawn("/usr/bin/time", [
    "-f",
    "%U %S %e",
    "wrk",
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
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
        requests: Number(/(\d+) requests in/.exec(out)![1]),
        p50: ms(/\s50%\s+(\S+)/.exec(out)![1]!),
        p99: ms(/\s99%\s+(\S+)/.exec(out)![1]!),
        // Non-2xx answers plus socket errors (connect, read, write, timeout).
        errors:
          Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
          (/Socket errors: (.*)/.exec(out)?.[1] ?? "").split(",").reduce((n, part) => n + Number(/\d+/.exec(part)?.[0] ?? 0), 0),
        generatorCpu: (user + sys) / wall,
        load: os.loadavg()[0]!,
      });
    }),
  );
}

/** Waits until `url` is answered from the page cache (it has an ETag) and its body passes `check`. */
async function cached(url: string, check: (html: string) => boolean = () => true): Promise<void> {
  for (let i = 0; ; i++) {
    const res = await fetch(url);
    const html = await res.text();
    if (res.ok && res.headers.get("etag") && check(html)) return;
    if (i > 600) throw new Error(`${url} never reached the page cache (${res.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  if (spawnSync("sh", ["-c", "command -v wrk && test -x /usr/bin/time"]).status !== 0)
    throw new Error("wrk and /usr/bin/time are required (apt-get install -y wrk time)");
  const tree = await baselineTree();
  console.log(`baseline ${tree.subject} in ${tree.dir}; node_modules: ${tree.modules}`);
  const storage = await trialStorage("postgres", "bench_portfolio", PG_URL);
  // The baseline's own database, empty: its own migrations run when it starts.
  const baselineDb = await createPgDatabase(PG_URL, "bench_portfolio_baseline", { empty: true });
  const baselineData = fs.mkdtempSync(path.join(os.tmpdir(), "bench-portfolio-baseline-"));
  const apps: RunningApp[] = [];
  const sql = new pg.Client({ connectionString: storage.database!.url });
  try {
    const app = await startApp({ ...storage.env, NODE_ENV: "production" });
    apps.push(app);
    const baseline = await startApp(
      { DATA_DIR: baselineData, DATABASE_URL: baselineDb.url, NODE_ENV: "production" },
      { cwd: tree.dir, args: [path.join(tree.dir, "build/server/main.js")] },
    );
    apps.push(baseline);
    await sql.connect();
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
      baseline: `${baseline.baseUrl}/project1`,
      published: `${app.baseUrl}/bench-case-study`,
      project1: `${app.baseUrl}/project1`,
      uncached: `${app.baseUrl}/bench-case-study?uncached=1`,
    };
    const labels: Record<keyof typeof urls, string> = {
      baseline: `/project1 of the release before #40 (${tree.commit.slice(0, 10)}: prerendered from projects.ts)`,
      published: "/bench-case-study today (published through the database, page cache)",
      project1: "/project1 today (seeded case study from the database, page cache)",
      uncached: "/bench-case-study?uncached=1 today (rendered per request)",
    };
    await cached(urls.baseline);
    await cached(urls.project1);
    await cached(urls.published, (html) => html.includes("<strong>from a screen</strong>"));
    const pids: Record<keyof typeof urls, number> = {
      baseline: baseline.child.pid!,
      published: app.child.pid!,
      project1: app.child.pid!,
      uncached: app.child.pid!,
    };
    const rows: Record<keyof typeof urls, Row[]> = { baseline: [], published: [], project1: [], uncached: [] };
    const names = Object.keys(urls) as (keyof typeof urls)[];
    const cachedNames = names.filter((n) => n !== "uncached");
    for (let round = 0; round < ROUNDS; round++) {
      const order = cachedNames.map((_, i) => cachedNames[(i + round) % cachedNames.length]!);
      for (const name of order) {
        rows[name].push(await withWrk(urls[name], pids[name]));
        console.log(
          `round ${round + 1}/${ROUNDS} ${name}: ${Math.round(rows[name].at(-1)!.rps)} req/s, ${Math.round(rows[name].at(-1)!.serverUs)} µs/req`,
        );
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      rows.uncached.push(await withWrk(urls.uncached, pids.uncached));
      console.log(`uncached ${round + 1}/${ROUNDS}: ${Math.round(rows.uncached.at(-1)!.rps)} req/s`);
    }
    const mean = (list: Row[], key: keyof Row) => list.reduce((s, r) => s + r[key], 0) / list.length;
    const int = (n: number) => Math.round(n).toLocaleString("en-US");
    const line = (name: keyof typeof urls) => {
      const list = rows[name];
      return `| ${labels[name]} | ${int(mean(list, "rps"))} | ${list.map((r) => int(r.rps)).join(" / ")} | ${mean(list, "p50").toFixed(1)} | ${mean(list, "p99").toFixed(1)} | ${list.reduce((s, r) => s + r.errors, 0)} | ${int(mean(list, "serverUs"))} (${list.map((r) => int(r.serverUs)).join(" / ")}) | ${list.map((r) => `${(100 * r.generatorCpu).toFixed(0)} %`).join(" / ")} | ${list.map((r) => r.load.toFixed(1)).join(" / ")} |`;
    };
    const ratio = mean(rows.published, "rps") / mean(rows.baseline, "rps");
    const perRound = rows.baseline.map((b, i) => (rows.published[i]!.rps / b.rps).toFixed(2)).join(" / ");
    const busiest = Math.max(...names.flatMap((n) => rows[n].map((r) => r.generatorCpu)));
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8").replace(/^# .*\n/, "") : "";
    const smoke =
      DURATION < 10 || ROUNDS < 3
        ? `**Smoke run** (${DURATION} s × ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}): proves the bench works; its ratio is not a figure to quote.\n\n`
        : "";
    const body = `
${smoke}Generator: wrk (1 thread), ${CONNECTIONS} connections, ${DURATION} s per row, \`Accept-Encoding: ${ENCODING}\`; every row right after a discarded ${WARMUP} s warm-up of its URL.
${ROUNDS} round${ROUNDS === 1 ? "" : "s"} of the three cached pages in rotating order (${Array.from({ length: Math.min(ROUNDS, cachedNames.length) }, (_, r) => cachedNames.map((_, i) => cachedNames[(i + r) % cachedNames.length]).join(", ")).join("; ")}: each page once in each position), then ${ROUNDS} row${ROUNDS === 1 ? "" : "s"} of the uncached page.
Server CPU per request: the measured server process's user + system time over the row (/proc) divided by the requests wrk completed.
Servers: two production builds side by side, one process each, LOG_LEVEL=warn, each on its own port and PostgreSQL database:
the baseline is \`${tree.subject.replace(/`/g, "'").split(/[:;(]/)[0]}…\` — the parent of the commit that first added a
\`drizzle/*_portfolio.sql\` migration, built in a temporary git worktree (node_modules: ${tree.modules}); today's is this checkout's \`build/\`.
Machine: ${os.cpus().length} cores shared with other work; load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}.

| page | req/s (mean) | per round | p50 ms | p99 ms | errors | server CPU µs/request (per round) | wrk CPU per round | load (1 min) per round |
|---|---:|---|---:|---:|---:|---|---|---|
${names.map(line).join("\n")}

**Ratio published / baseline (prerendered /project1 before #40): ${ratio.toFixed(2)}** (per round ${perRound}; target ≥ 0.90: ${ratio >= 0.9 ? "met" : "NOT met"}).
Today's /project1 / baseline: ${(mean(rows.project1, "rps") / mean(rows.baseline, "rps")).toFixed(2)}. Server CPU per request, published / today's /project1: ${(mean(rows.published, "serverUs") / mean(rows.project1, "serverUs")).toFixed(2)}; published / baseline: ${(mean(rows.published, "serverUs") / mean(rows.baseline, "serverUs")).toFixed(2)}.

Generator: wrk used at most ${(100 * busiest).toFixed(0)} % of its one thread's core (${busiest < GENERATOR_LIMIT ? "below" : "AT OR ABOVE"} ${GENERATOR_LIMIT * 100} %: ${busiest < GENERATOR_LIMIT ? "the servers, not wrk, set the pace" : "wrk itself may have been the limit — read the req/s as a floor"}).
With ${os.cpus().length} cores, wrk and the measured server share the machine; a load average well above ${os.cpus().length} means other work took CPU from both.

Every cached page takes the same path in both builds (server/page-cache.ts answers before express from memory,
precompressed); the last row is the price of a page the cache does not hold (a database read and a React render
per request), paid only until the page is rendered again after a publish.
${previous ? `\n---\n\n## Earlier run\n${previous.replace(/^## /gm, "### ")}` : ""}`;
    console.log(body.split("\n---\n")[0]);
    console.log(
      `written to ${writeResults("portfolio-throughput", "Portfolio: a published case study vs the prerendered /project1 before #40", `npm run build && BENCH_SECONDS=${DURATION} BENCH_ROUNDS=${ROUNDS} npx tsx bench/portfolio-throughput.ts`, body)}`,
    );
  } finally {
    await sql.end().catch(() => {});
    for (const a of apps) await a.stop();
    await removeTrialStorage(storage);
    await baselineDb.drop();
    fs.rmSync(baselineData, { recursive: true, force: true });
    if (!KEEP) await git("worktree", "remove", "--force", tree.dir).catch((e: Error) => console.error(e.message));
  }
}

await main();
