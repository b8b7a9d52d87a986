/**
 * Throughput of the public pages: our server (one process) vs nginx (one worker) serving the same
 * bytes, side by side in one run (target ratio ≥ 0.5).
 *
 * The load generator is wrk (Debian's package), not a Node client, so that it is not the limit: each
 * server is pinned to CPU 0 and wrk (one thread, 50 connections) to CPU 1 with `taskset`, and every
 * row shows the CPU both used — a server near 100 % of its core with the generator below it means
 * the server is what was measured. nginx reads the HTML our server rendered, with `gzip_static` and
 * the file gzipped at level 9 (the page cache's level), so both send the same bytes for the same
 * `Accept-Encoding`. Our server runs as shipped (security headers, request id, metrics); the request
 * log is measured both off (LOG_LEVEL=warn) and on (LOG_LEVEL=info, one JSON line per request to
 * /dev/null).
 *
 *   apt-get install -y wrk nginx-light && npm run build && npx tsx bench/public-throughput.ts
 *
 * Environment: BENCH_SECONDS (default 10) per measurement.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { rawGet } from "../tests/helpers/raw-get";
import { freePort, startApp, writeResults, type RunningApp } from "./lib/server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"]).stdout.toString().trim() || 100);

/** CPU seconds (user + system, all threads) used so far by the processes `pids`. */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  }
  return ticks / CLOCK_TICKS;
}

interface WrkResult {
  rps: number;
  p50: string;
  p99: string;
  errors: number;
  /** wrk's own CPU time (user + system) as a share of one core over its run. */
  generatorCpu: number;
}

/** Runs wrk on CPU 1 against `url` for `seconds`. */
function wrk(url: string, encoding: string, seconds: number): Promise<WrkResult> {
  const args = ["-f", "%U %S %e", "taskset", "-c", "1", "wrk", "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency"];
  const child = spawn("/usr/bin/time", [...args, "-H", `Accept-Encoding: ${encoding}`, url]);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`wrk failed (${code}): ${out}${err}`));
      const [user, sys, wall] = err.trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number];
      const errors =
        Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
        (/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
          .exec(out)
          ?.slice(1)
          .reduce((a, b) => a + Number(b), 0) ?? 0);
      resolve({
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
        p50: /\s50%\s+(\S+)/.exec(out)![1]!,
        p99: /\s99%\s+(\S+)/.exec(out)![1]!,
        errors,
        generatorCpu: (user + sys) / wall,
      });
    }),
  );
}

/** One measurement: a warm-up, then the timed run with the server's CPU share. */
async function measure(url: string, encoding: string, serverPids: () => number[]) {
  await wrk(url, encoding, 2);
  const before = cpuSeconds(serverPids());
  const started = process.hrtime.bigint();
  const result = await wrk(url, encoding, DURATION);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { ...result, serverCpu: (cpuSeconds(serverPids()) - before) / elapsed };
}

/** Starts our server (one process, pinned to CPU 0, stdout to /dev/null) and waits for its page cache. */
async function startOurs(logLevel: string): Promise<RunningApp> {
  const app = await startApp({ LOG_LEVEL: logLevel, WEB_CONCURRENCY: "1" }, { discardStdout: true });
  spawnSync("taskset", ["-a", "-p", "-c", "0", String(app.child.pid)]);
  await new Promise((r) => setTimeout(r, 2_000)); // the page cache renders at start
  return app;
}

const pct = (share: number) => `${Math.round(share * 100)} %`;

/**
 * Starts, pinned to CPU 0, a bare node:http server that answers every request with the exact
 * status line, headers and gzipped body our server sent for `/` (request id included).
 */
async function referenceServer(baseUrl: string, dir: string) {
  const raw = await rawGet(`${baseUrl}/`, { "accept-encoding": "gzip" });
  // Node adds these itself.
  const pairs: string[] = [];
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    if (!/^(date|connection|keep-alive)$/i.test(raw.rawHeaders[i]!)) pairs.push(raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!);
  }
  fs.writeFileSync(path.join(dir, "reference-body"), raw.body);
  const port = await freePort();
  const script = `const http = require("node:http"); const body = require("node:fs").readFileSync(${JSON.stringify(path.join(dir, "reference-body"))});
const headers = ${JSON.stringify(pairs)};
http.createServer((req, res) => res.writeHead(200, headers).end(body)).listen(${port}, "127.0.0.1");`;
  const child = spawn("taskset", ["-c", "0", process.execPath, "-e", script], { stdio: "inherit" });
  await new Promise((r) => setTimeout(r, 1_000));
  return { child, url: `http://127.0.0.1:${port}/` };
}

async function main() {
  for (const tool of ["wrk", "nginx", "taskset"]) {
    if (spawnSync(tool, ["-v"]).error) throw new Error(`${tool} is missing: apt-get install -y wrk nginx-light`);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-bench-"));
  const pages = ["/", "/project3"];
  const encodings = ["gzip", "identity"];
  const rows: string[] = [];
  const row = (
    page: string,
    encoding: string,
    log: string,
    ours: Awaited<ReturnType<typeof measure>>,
    nginx?: Awaited<ReturnType<typeof measure>>,
  ) => {
    rows.push(
      `| \`${page}\` | ${encoding} | ${log} | ${ours.rps.toFixed(0)} | ${nginx ? nginx.rps.toFixed(0) : "–"} | ${nginx ? `**${(ours.rps / nginx.rps).toFixed(2)}**` : "–"} | ${ours.p50} / ${ours.p99} | ${nginx ? `${nginx.p50} / ${nginx.p99}` : "–"} | ${pct(ours.serverCpu)} / ${nginx ? pct(nginx.serverCpu) : "–"} | ${pct(ours.generatorCpu)} / ${nginx ? pct(nginx.generatorCpu) : "–"} | ${ours.errors} / ${nginx ? nginx.errors : "–"} |`,
    );
    console.log(rows.at(-1));
  };

  let app = await startOurs("warn");
  const nginxPort = await freePort();
  for (const page of pages) {
    const html = Buffer.from(await (await fetch(`${app.baseUrl}${page}`, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    const file = path.join(root, page === "/" ? "index.html" : `${page.slice(1)}.html`);
    fs.writeFileSync(file, html);
    fs.writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  }
  fs.writeFileSync(
    path.join(root, "nginx.conf"),
    `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; gzip_static on; keepalive_requests 1000000;
  client_body_temp_path ${root}; proxy_temp_path ${root}; fastcgi_temp_path ${root}; uwsgi_temp_path ${root}; scgi_temp_path ${root};
  server { listen 127.0.0.1:${nginxPort}; root ${root}; default_type text/html;
    location = / { try_files /index.html =404; }
    location / { try_files $uri.html =404; } } }\n`,
  );
  const nginx = spawn("taskset", ["-c", "0", "nginx", "-c", path.join(root, "nginx.conf"), "-p", root], { stdio: "inherit" });
  await new Promise((r) => setTimeout(r, 1_000));
  const nginxPids = () => {
    const master = Number(fs.readFileSync(path.join(root, "nginx.pid"), "utf8"));
    const children = fs.readFileSync(`/proc/${master}/task/${master}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return [master, ...children];
  };

  try {
    for (const page of pages) {
      for (const encoding of encodings) {
        const ours = await measure(`${app.baseUrl}${page}`, encoding, () => [app.child.pid!]);
        const theirs = await measure(`http://127.0.0.1:${nginxPort}${page}`, encoding, nginxPids);
        row(page, encoding, "off", ours, theirs);
      }
    }
    // Reference: a minimal node:http server (same Node, same pinning) replaying our gzipped `/`
    // with all its headers — what any Node process can do here, before any of our work.
    const reference = await referenceServer(app.baseUrl, root);
    try {
      row("/", "gzip", "minimal node:http server (reference)", await measure(reference.url, "gzip", () => [reference.child.pid!]));
    } finally {
      reference.child.kill("SIGTERM");
    }
    await app.stop();
    app = await startOurs("info");
    for (const encoding of encodings) row("/", encoding, "on", await measure(`${app.baseUrl}/`, encoding, () => [app.child.pid!]));
  } finally {
    nginx.kill("SIGTERM");
    await app.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  const file = writeResults(
    "public-throughput",
    "Public pages: our server vs nginx (same bytes)",
    "apt-get install -y wrk nginx-light && npm run build && npx tsx bench/public-throughput.ts",
    `wrk ${spawnSync("wrk", ["-v"]).stdout.toString().split(" ")[1] ?? ""} with one thread and ${CONNECTIONS} connections, ${DURATION} s per measurement after a 2 s warm-up, pinned to CPU 1; the server pinned to CPU 0: nginx with \`worker_processes 1\`, \`gzip_static\` and the page gzipped at level 9, access log off; ours one Node process (WEB_CONCURRENCY=1) answering from its page cache before express, with its security headers, request id and metrics, request log off (LOG_LEVEL=warn) or on (LOG_LEVEL=info, to /dev/null). Each row asks both servers for the same encoding, so both send the same bytes. CPU is user + system time over the run, as a share of one core: a server near 100 % with the generator below it is server-bound.

| page | encoding | our request log | ours req/s | nginx req/s | ratio (target ≥ 0.5) | ours p50/p99 | nginx p50/p99 | server CPU ours/nginx | wrk CPU ours/nginx | errors ours/nginx |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Where the time goes (not generated by this run: CPU profiles of the built server, taken on 2026-11-24 with
node:inspector's Profiler over 5 s of steady wrk load on \`/\`, same pinning):

- The reference row is a bare node:http server replaying the same headers and bytes: about 0.55–0.6 of
  nginx on this machine. Node's HTTP stack (parser, header validation, \`ServerResponse\`, one \`writev\`
  per response) is the ceiling for any Node server here.
- Our prerendered-page path, self time: the \`writev\` system call 32 %; Node's header validation and
  serialisation (\`checkInvalidHeaderChar\`, \`checkIsHttpToken\`, \`processHeader\`, \`_storeHeader\`) ≈ 9 %;
  \`process.nextTick\` and async-hook bookkeeping ≈ 13 % (better-auth's and React's AsyncLocalStorage make
  every async resource pay a propagation call); our own work (request id, page-cache lookup, histogram,
  route id) ≈ 5 %. Before this change the request tracker's \`setHeader\` + close listener and
  prom-client's per-observe label hashing cost a quarter more (27k → 36k req/s).
- The same bare handler placed inside a process that has booted the app's services answers 44–46k
  instead of 70–75k, whether or not the services are stopped afterwards: a cost every request pays once
  the app has run, not one of our per-request steps. Not GC (a larger young generation changes nothing),
  not background work (the idle process uses < 1 % CPU), not V8's array/promise protectors (intact); not
  found in this session. This gap, not our page path, keeps the ratio under the 0.5 target.
- Request log on: pino writes a line in ≈ 3 µs, but the wildcard redaction paths (\`*.password\` …) added
  14 µs per line; the request log is a child logger with only the top-level paths (its fields are fixed),
  which took the logged rows from 15.8k to 25k req/s.
`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
