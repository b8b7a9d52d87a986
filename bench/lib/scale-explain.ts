/**
 * The query plans of each measured page, for bench/results/portal-scale.md: every statement the
 * page's use-cases send (captured with tests/helpers/query-plans.ts), explained with
 * `EXPLAIN (ANALYZE, BUFFERS)` on the seeded data.
 */
import pg from "pg";
import { captureQueries, explainText } from "../../tests/helpers/query-plans";
import { demoActors, pagePath, seededIds, type ScalePage } from "./scale-pages";
import { openDatabase } from "../../app/db/client.server";

/** Statements this slow or more get their plan in full; faster ones a one-line summary. */
const FULL_PLAN_MS = 2;

/** @returns a Markdown section per page: each statement's execution time and its plan. */
export async function explainPageQueries(url: string, pages: ScalePage[]): Promise<string> {
  const handle = await openDatabase({ url });
  const actors = await demoActors(handle.db);
  const ids = await seededIds(handle.db, actors.client, actors.ambassador);
  await handle.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sections: string[] = [];
  try {
    for (const page of pages) {
      const queries = await captureQueries(url, (db) => page.load(db, actors[page.role], ids));
      const parts: string[] = [];
      for (const query of queries) {
        const plan = await explainText(client, query);
        const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
        const first = query.sql.replace(/\s+/g, " ").slice(0, 140);
        parts.push(
          ms >= FULL_PLAN_MS
            ? `- **${ms.toFixed(2)} ms** \`${first}…\`\n\n\`\`\`\n${plan}\n\`\`\``
            : `- ${ms.toFixed(2)} ms \`${first}…\` — ${plan.split("\n")[0]!.trim()}`,
        );
      }
      sections.push(`### ${page.role} ${pagePath(page, ids)}\n\n${parts.join("\n")}`);
    }
  } finally {
    await client.end();
  }
  return sections.join("\n\n");
}
