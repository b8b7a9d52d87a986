/**
 * PostgreSQL restarted under the running app: requests fail cleanly (503 from
 * /healthz, the error page or the form's failure message — never a hang or a crash) for a
 * moment, and the app recovers without a restart. Restarts the local PostgreSQL cluster:
 * run it alone. Writes bench/results/pg-restart.md; exits 1 if the app does not recover.
 *
 *   npm run build && npx tsx bench/pg-restart.ts
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import { startApp, writeResults } from "./lib/server";
import { createPgDatabase } from "../tests/helpers/test-database";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function main() {
  const database = await createPgDatabase(PG_URL, "pgrestart");
  const app = await startApp({ DATABASE_URL: database.url });

  const samples: { t: number; health: number; contact: number }[] = [];
  let stop = false;
  const t0 = Date.now();
  let seq = 0;
  const probe = (async () => {
    while (!stop) {
      const at = Date.now() - t0;
      const status = async (p: Promise<Response>) => {
        try {
          const r = await p;
          await r.arrayBuffer();
          return r.status;
        } catch {
          return 0;
        }
      };
      const [health, contact] = await Promise.all([
        status(fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) })),
        status(
          fetch(`${app.baseUrl}/contact`, {
            method: "POST",
            signal: AbortSignal.timeout(10_000),
            headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `pgr-${seq++}` },
            body: new URLSearchParams({ user_name: "R", user_email: "r@example.org", message: "during restart" }),
          }),
        ),
      ]);
      samples.push({ t: at, health, contact });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  await new Promise((r) => setTimeout(r, 2_000));
  const version = fs.readdirSync("/etc/postgresql")[0];
  const restartAt = Date.now() - t0;
  execSync(`pg_ctlcluster --skip-systemctl-redirect ${version} main restart`, { stdio: "inherit" });
  const restartedAt = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 6_000));
  stop = true;
  await probe;
  const alive = app.child.exitCode === null;
  await app.stop();
  await database.drop();

  const during = samples.filter((s) => s.t >= restartAt);
  const bad = during.filter((s) => s.health !== 200 || s.contact !== 200);
  const lastBad = bad.at(-1)?.t ?? restartAt;
  const after = samples.filter((s) => s.t > lastBad);
  const statuses = (key: "health" | "contact") => [...new Set(during.map((s) => s[key]))].sort().join(", ");
  const recovered = alive && after.length > 5 && after.every((s) => s.health === 200 && s.contact === 200);
  const hung = samples.some((s) => s.health === 0 || s.contact === 0);
  const file = writeResults(
    "pg-restart",
    "PostgreSQL restarted under the running app",
    "npm run build && npx tsx bench/pg-restart.ts",
    `A prober sends GET /healthz and POST /contact every 100 ms; \`pg_ctlcluster ${version} main restart\` runs at ${restartAt} ms and returns at ${restartedAt} ms.

| | value |
|---|---|
| statuses seen from /healthz after the restart began | ${statuses("health")} |
| statuses seen from POST /contact after the restart began | ${statuses("contact")} |
| failing samples | ${bad.length} of ${during.length} |
| last failure | ${lastBad - restartAt} ms after the restart began |
| app process still running | ${alive ? "yes" : "no"} |
| recovered without an app restart | ${recovered ? "yes" : "**no**"} |
| requests that hung or lost their connection | ${hung ? "**yes**" : "none"} |
`,
  );
  console.log(fs.readFileSync(file, "utf8"));
  if (!recovered || hung) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
