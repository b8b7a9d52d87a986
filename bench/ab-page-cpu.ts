/**
 * Server CPU per request of the same pages on two checkouts' builds (issue #42), interleaved A, B, B, A …:
 * each checkout's built app runs on the scale database (one process), each page is asked `AB_N`
 * times with `AB_C` requests at once (uncompressed), and the server's user + system time over those
 * requests (from /proc, less its idle rate measured first) ÷ `AB_N` is printed, per round and as medians.
 * Fixed request counts instead of wrk's fixed duration: on a loaded machine wrk's few requests
 * made the per-request CPU of slow pages mostly the process's background work.
 *
 *   AB_DIRS=/path/to/before,/path/to/after [AB_PAGES=/login,/messages] [AB_N=250] [AB_ROUNDS=5] npx tsx bench/ab-page-cpu.ts
 */
import fs from "node:fs";
import { startApp } from "./lib/server";
import { signIn } from "./lib/sign-in";
import { DEMO_ACCOUNTS } from "../scripts/seed-demo";
const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
url.pathname = `/${process.env.PORTAL_SCALE_DB ?? "portal_scale_keep"}`;
const PG = url.toString();
const dirs = (process.env.AB_DIRS ?? "").split(",").filter(Boolean);
if (dirs.length < 2) throw new Error("AB_DIRS=<checkout A>,<checkout B> (each built with npm run build)");
const pages = (process.env.AB_PAGES ?? "/login,/messages,/admin/audit,/invoices,/ambassador/earnings").split(",");
const N = Number(process.env.AB_N ?? 400),
  C = Number(process.env.AB_C ?? 4),
  R = Number(process.env.AB_ROUNDS ?? 3);
const role = (p: string) =>
  p.startsWith("/admin") ? "admin" : p.startsWith("/ambassador") ? "ambassador" : p === "/login" ? null : "client";
const cpu = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const apps = [] as Array<{ dir: string; app: Awaited<ReturnType<typeof startApp>>; cookies: Record<string, string>; idle: number }>;
for (const [i, dir] of dirs.entries()) {
  const app = await startApp({ DATABASE_URL: PG, WEB_CONCURRENCY: "1" }, { cwd: dir });
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: `10.9.${i}.1` }),
    ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: `10.9.${i}.2` }),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: `10.9.${i}.3` }),
  };
  apps.push({ dir, app, cookies, idle: 0 });
}
for (const a of apps) {
  const c0 = cpu(a.app.child.pid!);
  await new Promise((r) => setTimeout(r, 4000));
  a.idle = (cpu(a.app.child.pid!) - c0) / 4000;
}
console.log("idle CPU ms/ms", apps.map((a) => a.idle.toFixed(4)).join(" "), "load", fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const run = async (a: (typeof apps)[0], page: string, n: number) => {
  const r = role(page);
  const headers: Record<string, string> = { "accept-encoding": "identity" };
  if (r) headers.cookie = a.cookies[r]!;
  let left = n;
  let bad = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (left-- > 0) {
        const res = await fetch(a.app.baseUrl + page, { headers, redirect: "manual" });
        await res.arrayBuffer();
        if (res.status !== 200) bad++;
      }
    }),
  );
  return bad;
};
const results: Record<string, number[][]> = {};
for (const page of pages) for (const a of apps) await run(a, page, 100); // warm
for (let round = 0; round < R; round++) {
  for (const page of pages) {
    for (const a of round % 2 ? [...apps].reverse() : apps) {
      const idx = apps.indexOf(a);
      const t0 = performance.now();
      const c0 = cpu(a.app.child.pid!);
      const bad = await run(a, page, N);
      const ms = performance.now() - t0;
      const used = cpu(a.app.child.pid!) - c0;
      const per = (used - a.idle * ms) / N;
      (results[page] ??= apps.map(() => []))[idx]!.push(per);
      console.log(
        `round ${round} ${page} ${a.dir}: ${per.toFixed(2)} ms CPU/req (raw ${(used / N).toFixed(2)}), ${((N / ms) * 1000).toFixed(0)} req/s${bad ? `, ${bad} not 200` : ""}, load ${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`,
      );
    }
  }
}
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
console.log("\nmedian ms CPU/request:", dirs.join(" | "));
for (const [page, per] of Object.entries(results))
  console.log(
    page.padEnd(24),
    per.map((xs) => med(xs).toFixed(2)).join("  "),
    " ",
    per.map((xs) => xs.map((x) => x.toFixed(2)).join(",")).join(" | "),
  );
for (const a of apps) await a.app.stop();
