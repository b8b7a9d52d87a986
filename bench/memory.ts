/**
 * Idle memory per server process, in one run: PostgreSQL mode run as shipped before (the
 * TypeScript entry through tsx) and as now (the compiled `build/server/main.js` on plain
 * node), and PGlite mode (compiled) with what its memory is made of. Each process is started
 * alone, warmed with a few page loads, left idle for 10 s, then measured from /proc (RSS, peak
 * RSS, threads, child processes) and from its own /metrics (V8 heap, external memory — where
 * PGlite's WebAssembly memory lives). Writes bench/results/memory.md.
 *
 *   npm run build && npx tsx bench/memory.ts
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgDatabase } from "../tests/helpers/test-database";
import { startApp, writeResults } from "./lib/server";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TOKEN = "bench-metrics-token-0123456789";
const RUNS = Number(process.env.RUNS ?? 2);

interface Sample {
  rssMb: number;
  peakMb: number;
  threads: number;
  children: number;
  childrenRssMb: number;
  heapMb: number;
  externalMb: number;
}

const mb = (bytes: number) => bytes / 2 ** 20;

function status(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
    const [key, value] = line.split(":");
    if (key && value) out[key.trim()] = value.trim();
  }
  return out;
}

const kb = (value: string | undefined) => Number.parseInt(value ?? "0", 10) / 1024;

function descendants(pid: number): number[] {
  let out: string;
  try {
    out = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  } catch {
    return [];
  }
  const children = out.split("\n").filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function metric(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, "m").exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

async function measure(args: string[], env: Record<string, string>): Promise<Sample> {
  // tsx compiles the server on start: give it longer than the compiled build needs.
  const app = await startApp({ METRICS_TOKEN: TOKEN, ...env }, { args, startTimeoutMs: 120_000 });
  const { child, baseUrl } = app;
  try {
    for (let i = 0; i < 3; i++) {
      for (const p of ["/", "/about", "/login", "/register", "/contact"]) await (await fetch(`${baseUrl}${p}`)).arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 10_000));
    const s = status(child.pid!);
    const kids = descendants(child.pid!);
    const childrenRssMb = kids.reduce((sum, pid) => {
      try {
        return sum + kb(status(pid).VmRSS);
      } catch {
        return sum;
      }
    }, 0);
    const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    return {
      rssMb: kb(s.VmRSS),
      peakMb: kb(s.VmHWM),
      threads: Number(s.Threads),
      children: kids.length,
      childrenRssMb,
      heapMb: mb(metric(text, "nodejs_heap_size_used_bytes")),
      externalMb: mb(metric(text, "nodejs_external_memory_bytes")),
    };
  } finally {
    await app.stop();
  }
}

async function main() {
  if (!fs.existsSync("build/server/main.js")) throw new Error("Run `npm run build` first.");
  const database = await createPgDatabase(PG_URL, "bench_memory", { empty: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-memory-"));

  const modes: { label: string; args: string[]; env: Record<string, string> }[] = [
    {
      label: "PostgreSQL, as shipped before: through tsx (`node --import tsx server/main.ts`, same code)",
      args: ["--import", "tsx", "server/main.ts"],
      env: {},
    },
    { label: "PostgreSQL, now (`node build/server/main.js`)", args: ["build/server/main.js"], env: {} },
    { label: "PGlite, now (`node build/server/main.js`)", args: ["build/server/main.js"], env: {} },
  ];
  const results: { label: string; samples: Sample[] }[] = [];
  for (const mode of modes) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      const env: Record<string, string> = mode.label.startsWith("PGlite")
        ? { DATA_DIR: path.join(dataDir, `pglite-${run}`) }
        : { DATABASE_URL: database.url, DATA_DIR: path.join(dataDir, "pg") };
      samples.push(await measure(mode.args, env));
      console.log(mode.label, JSON.stringify(samples.at(-1)));
    }
    results.push({ label: mode.label, samples });
  }
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const range = (values: number[], digits = 0) => {
    const lo = Math.min(...values).toFixed(digits);
    const hi = Math.max(...values).toFixed(digits);
    return lo === hi ? lo : `${lo}–${hi}`;
  };
  const table = [
    "| process | idle RSS (MB) | peak RSS (MB) | threads | child processes (their RSS, MB) | V8 heap used (MB) | external memory (MB) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(({ label, samples }) => {
      const col = (pick: (s: Sample) => number, digits = 0) => range(samples.map(pick), digits);
      return `| ${label} | ${col((s) => s.rssMb)} | ${col((s) => s.peakMb)} | ${col((s) => s.threads)} | ${col((s) => s.children)} (${col((s) => s.childrenRssMb)}) | ${col((s) => s.heapMb)} | ${col((s) => s.externalMb)} |`;
    }),
  ].join("\n");
  const file = writeResults(
    "memory",
    "Idle memory per server process",
    "npm run build && npx tsx bench/memory.ts",
    `${RUNS} runs per mode (ranges shown), each process alone, warmed with 15 page loads, then 10 s idle. RSS and peak RSS (VmHWM) ` +
      `from /proc; V8 heap and external memory from the process's own /metrics (prom-client). Child processes: tsx starts ` +
      `esbuild service processes. With WEB_CONCURRENCY=n every figure is per server process (plus a small cluster primary).\n\n${table}\n\n` +
      `## What dominates PGlite mode\n\nPGlite runs PostgreSQL compiled to WebAssembly inside the Node process: its linear memory ` +
      `(the PostgreSQL heap, shared buffers and catalog caches) is an ArrayBuffer, counted in "external memory" above, and the ` +
      `compiled WebAssembly code adds to RSS outside both the V8 heap and the external figure. The app itself (V8 heap) is the ` +
      `same as in PostgreSQL mode. The peak at start comes from compiling the WebAssembly module and loading the data directory. ` +
      `Use DATABASE_URL (PostgreSQL) where memory matters.`,
  );
  console.log(table);
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
