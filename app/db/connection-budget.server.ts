/**
 * The connection budget on a PostgreSQL server (docs/product.md#operations): every server process
 * holds up to `DATABASE_POOL_MAX` pooled connections — shared by requests, migrations and the job
 * queue (ADR 019: pg-boss runs on the app's pool, it opens none of its own) — plus one for live
 * updates (`LISTEN`). A start whose processes could together open more than the server accepts is
 * refused with one line, instead of failing later under load with "too many clients".
 */
import { EnvError } from "#app/lib/env.server";

/** Connections a process holds beside its pool: the live-update listener (app/features/live/listener.server.ts). */
export const CONNECTIONS_BESIDE_POOL = 1;

/** What the server accepts for ordinary roles. */
export interface ServerConnectionLimits {
  maxConnections: number;
  /** `superuser_reserved_connections` plus, on PostgreSQL 16+, `reserved_connections`. */
  reserved: number;
}

/**
 * Reads the server's limits.
 *
 * @param executeSql - one statement on the server (the database handle's `executeSql`).
 */
export async function readConnectionLimits(executeSql: (text: string) => Promise<{ rows: unknown[] }>): Promise<ServerConnectionLimits> {
  const { rows } = await executeSql(
    "select name, setting from pg_settings where name in ('max_connections', 'superuser_reserved_connections', 'reserved_connections')",
  );
  const settings = new Map((rows as Array<{ name: string; setting: string }>).map((r) => [r.name, Number(r.setting)]));
  return {
    maxConnections: settings.get("max_connections") ?? 100,
    reserved: (settings.get("superuser_reserved_connections") ?? 0) + (settings.get("reserved_connections") ?? 0),
  };
}

/**
 * Checks that `processes` × (`poolMax` + {@link CONNECTIONS_BESIDE_POOL}) fits the server.
 *
 * @throws {EnvError} e.g. `Invalid configuration: DATABASE_POOL_MAX: 64 server processes × (10 pooled + 1
 *   listener) = 704 connections, but the PostgreSQL server accepts 97 (max_connections 100 − 3 reserved)
 *   — lower WEB_CONCURRENCY or DATABASE_POOL_MAX, or raise max_connections`.
 */
export function assertConnectionBudget(limits: ServerConnectionLimits, options: { processes: number; poolMax: number }): void {
  const needed = options.processes * (options.poolMax + CONNECTIONS_BESIDE_POOL);
  const available = limits.maxConnections - limits.reserved;
  if (needed > available) {
    throw new EnvError(
      `Invalid configuration: DATABASE_POOL_MAX: ${options.processes} server process${options.processes === 1 ? "" : "es"} × ` +
        `(${options.poolMax} pooled + ${CONNECTIONS_BESIDE_POOL} listener) = ${needed} connections, but the PostgreSQL server accepts ` +
        `${available} (max_connections ${limits.maxConnections} − ${limits.reserved} reserved) — lower WEB_CONCURRENCY or DATABASE_POOL_MAX, or raise max_connections`,
    );
  }
}
