/**
 * The SQL a use-case sends, and its query plans: a Drizzle database on PostgreSQL whose logger
 * records every statement with its parameters, then `EXPLAIN` of each. Used by the owner-index test
 * (app/db/owner-index.server.test.ts) and the scale benchmark's plans (bench/lib/scale-explain.ts).
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Database } from "#app/db/client.server";
import * as schema from "#app/db/schema";

/** One statement a use-case sent. */
export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/**
 * Runs `fn` on a database at `url` that records every statement it sends.
 *
 * @returns the statements, in order (transaction control excluded).
 */
export async function captureQueries(url: string, fn: (db: Database) => Promise<unknown>): Promise<CapturedQuery[]> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const captured: CapturedQuery[] = [];
  const db = drizzle(pool, {
    schema,
    casing: "snake_case",
    logger: { logQuery: (query, params) => captured.push({ sql: query, params }) },
  }) as unknown as Database;
  try {
    await fn(db);
  } finally {
    await pool.end();
  }
  return captured.filter((q) => /^\s*(select|with|insert|update|delete)\b/i.test(q.sql));
}

/** A plan node of `EXPLAIN (FORMAT JSON)`. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/**
 * @param client - a connection to the same database (EXPLAIN ANALYZE runs the statement: give it reads).
 * @returns the statement's plan as JSON (with `analyze`, its actual rows and times).
 */
export async function explainJson(client: pg.ClientBase | pg.Pool, query: CapturedQuery, analyze = false): Promise<PlanNode> {
  const { rows } = await client.query(`explain (${analyze ? "analyze, buffers, " : ""}format json) ${query.sql}`, query.params);
  return (rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
}

/** @returns the statement's plan as text, as psql prints it. */
export async function explainText(client: pg.ClientBase | pg.Pool, query: CapturedQuery): Promise<string> {
  const { rows } = await client.query(`explain (analyze, buffers) ${query.sql}`, query.params);
  return rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
}

/** @returns every node of a plan tree, depth first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** @returns the tables of `tables` that the plan reads with a sequential scan. */
export function seqScansOn(plan: PlanNode, tables: readonly string[]): string[] {
  return planNodes(plan)
    .filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] && tables.includes(n["Relation Name"]))
    .map((n) => n["Relation Name"]!);
}

/**
 * @returns the tables of `tables` that the plan reads whole: a sequential scan, or an index scan
 *   without an index condition (with `enable_seqscan = off` the planner walks a whole index instead
 *   of the table — the same cost). An index walked in order right under a `Limit` is not counted:
 *   it stops after a page of matching rows, and the planner picks it only when it expects them early.
 */
export function wholeTableReadsOf(plan: PlanNode, tables: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode, parent: PlanNode | null) => {
    const table = node["Relation Name"];
    const walk = (node["Node Type"] === "Index Scan" || node["Node Type"] === "Index Only Scan") && node["Index Cond"] === undefined;
    if (
      table !== undefined &&
      tables.includes(table) &&
      (node["Node Type"] === "Seq Scan" || (walk && parent?.["Node Type"] !== "Limit"))
    ) {
      found.push(`${node["Node Type"]} on ${table}`);
    }
    for (const child of node.Plans ?? []) visit(child, node);
  };
  visit(plan, null);
  return found;
}
