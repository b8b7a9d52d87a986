/**
 * The connection budget (docs/product.md#operations): processes × (DATABASE_POOL_MAX + 1) must fit
 * the server's max_connections less its reserved connections, else the start is refused with one
 * line; read from a real server when TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from "vitest";
import { EnvError } from "#app/lib/env.server";
import { assertConnectionBudget, readConnectionLimits } from "./connection-budget.server";
import { testPool } from "../../tests/helpers/test-database";

describe("connection budget", () => {
  it("refuses 64 processes of 10 connections on a server of 100, naming the numbers and what to change", () => {
    const limits = { maxConnections: 100, reserved: 3 };
    expect(() => assertConnectionBudget(limits, { processes: 64, poolMax: 10 })).toThrow(EnvError);
    expect(() => assertConnectionBudget(limits, { processes: 64, poolMax: 10 })).toThrow(
      "Invalid configuration: DATABASE_POOL_MAX: 64 server processes × (10 pooled + 1 listener) = 704 connections, but the PostgreSQL server accepts 97 (max_connections 100 − 3 reserved) — lower WEB_CONCURRENCY or DATABASE_POOL_MAX, or raise max_connections",
    );
    // Fits exactly: 8 × 12 = 96 ≤ 97.
    expect(() => assertConnectionBudget(limits, { processes: 8, poolMax: 11 })).not.toThrow();
    expect(() => assertConnectionBudget(limits, { processes: 9, poolMax: 10 })).toThrow(
      /99 connections, but the PostgreSQL server accepts 97/,
    );
  });

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)("reads max_connections and the reserved connections from the server", async () => {
    const pool = testPool(url!, 1);
    try {
      const limits = await readConnectionLimits((text) => pool.query(text));
      const { rows } = await pool.query<{ max: string; reserved: string }>(
        "select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved",
      );
      expect(limits.maxConnections).toBe(Number(rows[0]!.max));
      expect(limits.reserved).toBeGreaterThanOrEqual(Number(rows[0]!.reserved));
    } finally {
      await pool.end();
    }
  });
});
