/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, as bench/profile-page.ts writes with CPU_PROF=dir):
 * the functions with the most self time, and the functions of our own code (app/, server/) with the
 * most total time (self + callees), each in ms and as a share of the profile's sampled time.
 * Used to find which of our functions holds a portal page's server CPU (issue #42).
 *
 *   npx tsx bench/lib/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [--top 40] [--match app/]
 *
 * --top: rows per table (default 30). --match: the substring of a script's URL that marks "our
 * code" for the total-time table (default `/app/`, also `/server/`; the built server bundle is
 * build/server/index.js, so a profile of the built app shows our functions by name only).
 */
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv.splice(i, 2)[1];
};
const top = Number(flag("top") ?? 30);
const match = flag("match");
const files = argv;
if (files.length === 0) {
  console.error("usage: npx tsx bench/lib/profile-summary.ts <file.cpuprofile>… [--top N] [--match substring]");
  process.exit(2);
}

for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Self time per node from the samples and their time deltas (µs).
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/(node_modules|build|app|server)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const ours = (n: ProfileNode) =>
    match ? n.callFrame.url.includes(match) : /\/(app|server)\//.test(n.callFrame.url) || n.callFrame.url.includes("build/server/");
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    self.set(key(node), (self.get(key(node)) ?? 0) + us);
    // Total time: each distinct function on the stack once per sample.
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = node; n; n = parent.has(n.id) ? byId.get(parent.get(n.id)!) : undefined) {
      if (!ours(n)) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  const table = (title: string, rows: Map<string, number>) => {
    console.log(`\n## ${title}\n`);
    for (const [k, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)} %  ${k}`);
  };
  console.log(`# ${file}: ${(totalUs / 1000).toFixed(0)} ms sampled`);
  table("Self time", self);
  table(`Total time of our functions (${match ?? "app/, server/, build/server/"})`, total);
}
