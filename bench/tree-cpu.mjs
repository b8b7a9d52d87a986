#!/usr/bin/env node
/**
 * The CPU time of a process tree, Chromium included (issue #42: a test suite that fits in a stop).
 *
 *   node bench/tree-cpu.mjs <out.jsonl> -- <command…>
 *
 * Runs the command and samples /proc every 0.5 s: each process of the tree (by parent chain, recorded
 * once seen) keeps its last user + system time, and each sample line of `out.jsonl` holds, per
 * "<worker>:<kind>" key, the sum over every process seen so far (exited ones keep their last figure):
 * worker is the Playwright TEST_PARALLEL_INDEX of the process or of its nearest ancestor that has one
 * ("runner" otherwise), kind one of chromium, app (the built server), node, pg, other.
 * Prints the totals per kind at the end; exits with the command's status.
 *
 * Why: GNU time (`/usr/bin/time`, bench/test-speed.sh, scripts/test.mjs --report-dir) counts only the
 * children that were waited for, and misses nearly all of Chromium's renderers: a page that burnt
 * 23 s of CPU in a loop showed 1.3 s under GNU time. A Playwright run's CPU is mostly Chromium's.
 * The figures miss at most the last 0.5 s of each process, and CPU of processes outside the tree
 * (a PostgreSQL server of TEST_DATABASE_URL).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";

const sep = process.argv.indexOf("--");
const out = process.argv[2];
const command = process.argv.slice(sep + 1);
if (sep !== 3 || command.length === 0) {
  console.error("usage: node bench/tree-cpu.mjs <out.jsonl> -- <command…>");
  process.exit(2);
}
const HZ = 100; // USER_HZ of /proc/<pid>/stat on Linux
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
const root = child.pid;
/** @type {Map<string, { key: string; cpu: number }>} pid:start time → its key and last CPU seconds. */
const known = new Map();
const fd = fs.openSync(out, "w");

/** @returns {{ ppid: number; cpu: number; start: string } | null} a process's parent, CPU seconds and start time. */
function stat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / HZ, start: f[19] };
  } catch {
    return null; // exited meanwhile
  }
}
/** @returns {string} "<worker or empty>:<kind>" of a process, from its command line and environment. */
function classify(pid) {
  const read = (file) => {
    try {
      return fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
    } catch {
      return "";
    }
  };
  const cmd = read("cmdline").replace(/\0/g, " ");
  const worker = /(?:^|\0)TEST_PARALLEL_INDEX=(\d+)/.exec(read("environ"))?.[1] ?? "";
  let kind = "other";
  if (/postgres/.test(cmd)) kind = "pg";
  else if (/chrom/i.test(cmd)) kind = "chromium";
  else if (/build\/server\/main\.js/.test(cmd)) kind = "app";
  else if (/node/.test(cmd)) kind = "node";
  return `${worker}:${kind}`;
}
function sample() {
  /** @type {Map<number, { ppid: number; cpu: number; start: string }>} */
  const procs = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s) procs.set(Number(name), s);
  }
  /** @type {Map<number, string>} pid → the id of the tree's process it is, this sample. */
  const ids = new Map();
  const inTree = (pid) => {
    for (let p = pid, n = 0; p > 1 && n < 64; n++, p = procs.get(p)?.ppid ?? 0) if (p === root) return true;
    return false;
  };
  for (const [pid, s] of [...procs].sort(([a], [b]) => a - b)) {
    if (!inTree(pid)) continue;
    const id = `${pid}:${s.start}`;
    ids.set(pid, id);
    let entry = known.get(id);
    if (!entry) {
      let key = classify(pid);
      if (key.startsWith(":")) {
        // Chromium and the app servers a worker starts: the worker index of the nearest ancestor that has one.
        for (let p = s.ppid, n = 0; p > 1 && n < 64; n++, p = procs.get(p)?.ppid ?? 0) {
          const parent = known.get(ids.get(p) ?? "");
          if (parent && !parent.key.startsWith("runner:")) {
            key = `${parent.key.split(":")[0]}${key}`;
            break;
          }
        }
        if (key.startsWith(":")) key = `runner${key}`;
      }
      entry = { key, cpu: 0 };
      known.set(id, entry);
    }
    entry.cpu = s.cpu;
  }
  /** @type {Record<string, number>} */
  const sums = {};
  for (const { key, cpu } of known.values()) sums[key] = Math.round(((sums[key] ?? 0) + cpu) * 100) / 100;
  fs.writeSync(fd, `${JSON.stringify({ t: Date.now(), sums })}\n`);
  return sums;
}
const timer = setInterval(sample, 500);
child.on("exit", (code, signal) => {
  clearInterval(timer);
  const sums = sample();
  fs.closeSync(fd);
  /** @type {Record<string, number>} */
  const byKind = {};
  for (const [key, cpu] of Object.entries(sums)) {
    const kind = key.split(":")[1];
    byKind[kind] = (byKind[kind] ?? 0) + cpu;
  }
  const total = Object.values(byKind).reduce((a, b) => a + b, 0);
  console.error(
    `tree CPU ${total.toFixed(1)} s: ${Object.entries(byKind)
      .map(([kind, cpu]) => `${kind} ${cpu.toFixed(1)} s`)
      .join(", ")}`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
