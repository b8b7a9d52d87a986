/**
 * Crash test: the server is killed with SIGKILL during a stream of writes, then
 * restarted; every write that was acknowledged (HTTP 200) must be in the database. Runs on
 * PGlite and on PostgreSQL (TEST_DATABASE_URL, default the local server). Writes
 * bench/results/crash.md; exits 1 if any acknowledged write is missing.
 *
 *   npm run build && npx tsx bench/crash.ts
 */
import { startApp, stopAndRead, trialStorage, writeResults } from "./lib/server";

const WRITERS = 16;
const KILL_AFTER_MS = Number(process.env.CRASH_AFTER_MS ?? 4_000);
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Trial {
  driver: string;
  acknowledged: number;
  failed: number;
  found: number;
  lost: number;
  restartMs: number;
}

async function stream(baseUrl: string, run: string, stopAt: { stopped: boolean }) {
  const acked: string[] = [];
  let failed = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      while (!stopAt.stopped) {
        const marker = `${run}-${w}-${n++}`;
        try {
          const response = await fetch(`${baseUrl}/contact`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `crash-${marker}` },
            body: new URLSearchParams({ user_name: "Crash Test", user_email: "crash@example.org", message: marker }),
          });
          if (response.status === 200) acked.push(marker);
          else failed++;
          await response.arrayBuffer();
        } catch {
          failed++;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }),
  );
  return { acked, failed };
}

async function trial(driver: "pglite" | "postgres"): Promise<Trial> {
  const run = `crash-${driver}-${Date.now()}`;
  const storage = await trialStorage(driver, "crash", PG_URL);
  const env = storage.env;
  const app = await startApp(env);
  const flag = { stopped: false };
  const writes = stream(app.baseUrl, run, flag);
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  app.child.kill("SIGKILL");
  await new Promise((r) => app.child.once("exit", r));
  flag.stopped = true;
  const { acked, failed } = await writes;

  const t0 = Date.now();
  const restarted = await startApp(env); // must boot on the killed server's data (stale lock taken over)
  const restartMs = Date.now() - t0;
  const [messages] = (await stopAndRead(restarted, storage, ["select message as v from contact_message"])) as [string[]];
  const present = new Set(messages);
  const lost = acked.filter((m) => !present.has(m)).length;
  return { driver, acknowledged: acked.length, failed, found: messages.length, lost, restartMs };
}

async function main() {
  const trials: Trial[] = [];
  for (const driver of ["pglite", "postgres"] as const) {
    const result = await trial(driver);
    console.log(result);
    trials.push(result);
  }
  const file = writeResults(
    "crash",
    "Crash: SIGKILL during a stream of writes",
    "npm run build && npx tsx bench/crash.ts",
    `${WRITERS} concurrent writers post contact messages (each stored, then an e-mail queued in the same transaction); the server gets SIGKILL after ${KILL_AFTER_MS / 1000} s, is restarted on the same data, and every acknowledged (HTTP 200) message is looked up.

| database | acknowledged | refused/failed requests | rows after restart | acknowledged but missing | restart to healthy |
|---|---|---|---|---|---|
${trials.map((t) => `| ${t.driver} | ${t.acknowledged} | ${t.failed} | ${t.found} | **${t.lost}** | ${t.restartMs} ms |`).join("\n")}

Rows after restart may exceed acknowledged writes: a write can commit after the response was lost with the process. PGlite does not fsync: this shows a killed process loses nothing, not a power cut (see README).
`,
  );
  console.log(`wrote ${file}`);
  if (trials.some((t) => t.lost > 0 || t.acknowledged === 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
