/**
 * Where one portal page's time goes at agency scale: starts the built app on the `--scale`
 * database (PORTAL_SCALE_DB, seeded by bench/portal-scale.ts), signs the page's role in, asks for
 * each page a few times (uncompressed, as wrk asks) and prints the median wall time and the size of
 * its HTML. The statements of a page: `alter database … set log_min_duration_statement = 0` and
 * PostgreSQL's log.
 *
 *   npm run build && PORTAL_SCALE_DB=portal_scale_keep npx tsx bench/profile-page.ts [/admin …]
 *   CPU_PROF=/tmp/prof REPEAT=200 …   # and a V8 CPU profile of the server
 *   HTML_DIR=/tmp/html …                # and each page's HTML written there
 */
import fs from "node:fs";
import nodePath from "node:path";
import { startApp } from "./lib/server";
import { signIn } from "./lib/sign-in";
import { DEMO_ACCOUNTS } from "../scripts/seed-demo";
import { openDatabase } from "../app/db/client.server";
import { demoActors, PORTAL_SCALE_PAGES, pagePath, seededIds } from "./lib/scale-pages";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function main() {
  const url = new URL(PG_URL);
  url.pathname = `/${process.env.PORTAL_SCALE_DB ?? "portal_scale_keep"}`;
  const handle = await openDatabase({ url: url.toString() });
  const actors = await demoActors(handle.db);
  const ids = await seededIds(handle.db, actors.client, actors.ambassador);
  await handle.close();
  const only = process.argv.slice(2);
  const pages = PORTAL_SCALE_PAGES.filter((p) => only.length === 0 || only.includes(p.path));
  // CPU_PROF=dir: the server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const cpuProf = process.env.CPU_PROF;
  const app = await startApp(
    { DATABASE_URL: url.toString(), WEB_CONCURRENCY: "1" },
    cpuProf ? { args: ["--cpu-prof", `--cpu-prof-dir=${cpuProf}`, "build/server/main.js"] } : {},
  );
  const cookies = {
    client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "10.0.0.1" }),
    ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: "10.0.0.2" }),
    admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "10.0.0.3" }),
  };
  const time = async (path: string, cookie: string | null) => {
    const runs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < Number(process.env.REPEAT ?? 15); i++) {
      const t0 = performance.now();
      // Uncompressed, as wrk asks for it (bench/portal-scale.ts).
      const res = await fetch(`${app.baseUrl}${path}`, {
        headers: { "accept-encoding": "identity", ...(cookie ? { cookie } : {}) },
        redirect: "manual",
      });
      const body = Buffer.from(await res.arrayBuffer());
      bytes = body.byteLength;
      if (process.env.HTML_DIR) fs.writeFileSync(nodePath.join(process.env.HTML_DIR, `${path.replace(/[^a-z0-9]+/gi, "_")}.html`), body);
      runs.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
    runs.sort((a, b) => a - b);
    return `${runs[Math.floor(runs.length / 2)]!.toFixed(1)} ms, ${(bytes / 1024).toFixed(1)} KB of HTML`;
  };
  console.log(`/login: ${await time("/login", null)}`);
  for (const page of pages) {
    const path = pagePath(page, ids);
    console.log(`${page.role} ${path}: ${await time(path, cookies[page.role])}`);
  }
  await app.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
