/**
 * The statements one request of each portal page sends to PostgreSQL, in order (issue #42: what holds
 * a page below 0.5 × the framework floor). Starts the built app on the scale database through the
 * counting proxy (bench/lib/pg-count-proxy.ts), signs each role in, asks for each page twice (the
 * first warms the app's caches) and prints the second request's statements. Background work of the
 * same process may show up between them: pg-boss polling `pgboss.job` (marked) and the minute sweeps
 * (e.g. the settings' time zone, saved cards' expiry): run it twice when a line looks foreign.
 *
 *   npm run build && PORTAL_SCALE_DB=portal_scale_keep npx tsx bench/page-statements.ts [/admin …]
 */
import { openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS } from "../scripts/seed-demo";
import { startPgCountProxy } from "./lib/pg-count-proxy";
import { demoActors, PORTAL_SCALE_PAGES, pagePath, seededIds } from "./lib/scale-pages";
import { startApp } from "./lib/server";
import { signIn } from "./lib/sign-in";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function main() {
  const url = new URL(PG_URL);
  url.pathname = `/${process.env.PORTAL_SCALE_DB ?? "portal_scale_keep"}`;
  const handle = await openDatabase({ url: url.toString() });
  const actors = await demoActors(handle.db);
  const ids = await seededIds(handle.db, actors.client, actors.ambassador);
  await handle.close();
  const only = process.argv.slice(2);
  const pages = PORTAL_SCALE_PAGES.filter((p) => only.length === 0 || only.includes(p.path) || only.includes(pagePath(p, ids)));
  const proxy = await startPgCountProxy(url.toString());
  const app = await startApp({ DATABASE_URL: proxy.url, WEB_CONCURRENCY: "1" });
  try {
    const cookies = {
      client: await signIn(app.baseUrl, DEMO_ACCOUNTS.client, { forwardedFor: "10.0.2.1" }),
      ambassador: await signIn(app.baseUrl, DEMO_ACCOUNTS.ambassador, { forwardedFor: "10.0.2.2" }),
      admin: await signIn(app.baseUrl, DEMO_ACCOUNTS.admin, { forwardedFor: "10.0.2.3" }),
    };
    for (const page of pages) {
      const path = pagePath(page, ids);
      const get = async () =>
        (await fetch(`${app.baseUrl}${path}`, { headers: { cookie: cookies[page.role] }, redirect: "manual" })).arrayBuffer();
      await get();
      proxy.reset();
      await get();
      const texts = proxy.texts();
      console.log(`\n${page.role} ${path}: ${proxy.count()} round trips`);
      for (const text of texts) console.log(`  ${text.includes("pgboss.") ? "(job queue) " : ""}${text.slice(0, 180)}`);
    }
  } finally {
    await app.stop();
    await proxy.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
