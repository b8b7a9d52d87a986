/**
 * Where a server process hears of new live events (docs/product.md#live-updates): PostgreSQL's
 * `LISTEN portal_events` on one dedicated connection per process (not one from the pool), or
 * PGlite's `listen` inside its one process. The payload is the event's id.
 *
 * On PostgreSQL the connection is watched (a `select 1` every few seconds, TCP keep-alive); when
 * it is lost — the server restarted, the connection was killed — it is opened again with
 * back-off, and the hub is told since when it may have missed notifications so that it replays
 * them from the table.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Database } from "#app/db/client.server";
import { logger } from "#app/lib/logger.server";

/** The notification channel (the insert trigger of migration 0018 notifies it). */
export const LIVE_CHANNEL = "portal_events";
/** The listening connection's `application_name` (what an operator sees in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = "portal-live-listener";

/** What the hub is told. */
export interface NotificationHandlers {
  /** Event ids whose rows can now be read. */
  onIds(ids: number[]): void;
  /** The connection was lost and is back: notifications after `since` may have been missed. */
  onReconnected(since: Date): void;
}

/** A source of event-id notifications. */
export interface NotificationSource {
  start(handlers: NotificationHandlers): Promise<void>;
  stop(): Promise<void>;
}

function idsOf(payload: string | undefined): number[] {
  const id = Number(payload);
  return Number.isSafeInteger(id) && id > 0 ? [id] : [];
}

/** PGlite: notifications inside the one process that holds the database. */
export function pgliteNotificationSource(client: PGlite): NotificationSource {
  let unsubscribe: (() => Promise<void>) | undefined;
  return {
    async start(handlers) {
      unsubscribe = await client.listen(LIVE_CHANNEL, (payload) => handlers.onIds(idsOf(payload)));
    },
    async stop() {
      await unsubscribe?.().catch(() => {});
      unsubscribe = undefined;
    },
  };
}

export interface PgSourceOptions {
  /** How often the connection is checked (ms, default 5 s). */
  checkMs?: number;
  /** First reconnect delay (ms, default 200), doubled per failure up to `maxRetryMs` (default 5 s). */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * PostgreSQL: one dedicated `LISTEN` connection with reconnect.
 *
 * @param config - the pool's connection settings (the same server and credentials).
 */
export function pgNotificationSource(config: pg.ClientConfig, options: PgSourceOptions = {}): NotificationSource {
  const checkMs = options.checkMs ?? 5_000;
  const firstRetry = options.retryMs ?? 200;
  const maxRetry = options.maxRetryMs ?? 5_000;
  let client: pg.Client | undefined;
  let handlers: NotificationHandlers | undefined;
  let stopped = false;
  let lastGood = new Date();
  let lostSince: Date | null = null;
  let retry = firstRetry;
  let retryTimer: NodeJS.Timeout | undefined;
  let checkTimer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ ...config, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
    // A connection lost while connecting or later: errors are handled by `lost`, never thrown.
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next));
    next.on("notification", (message) => {
      lastGood = new Date();
      if (message.channel === LIVE_CHANNEL) handlers?.onIds(idsOf(message.payload));
    });
    client = next;
    await next.connect();
    await next.query(`LISTEN ${LIVE_CHANNEL}`);
    lastGood = new Date();
    retry = firstRetry;
  };

  const lost = (which: pg.Client, error?: Error) => {
    if (which !== client || stopped) return;
    client = undefined;
    lostSince ??= lastGood;
    logger.warn({ err: error, retryMs: retry }, "live updates: the listening database connection was lost; reconnecting");
    which.end().catch(() => {});
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(async () => {
      if (stopped) return;
      try {
        await connect();
        const since = lostSince ?? lastGood;
        lostSince = null;
        logger.info({ since: since.toISOString() }, "live updates: listening again; replaying what was missed");
        handlers?.onReconnected(since);
      } catch (error) {
        const failed = client;
        client = undefined;
        failed?.end().catch(() => {});
        retry = Math.min(maxRetry, retry * 2);
        logger.warn({ err: error, retryMs: retry }, "live updates: could not listen yet");
        scheduleReconnect();
      }
    }, retry);
    retryTimer.unref();
  };

  const check = async () => {
    const current = client;
    if (!current || stopped) return;
    try {
      await current.query("select 1");
      lastGood = new Date();
    } catch (error) {
      lost(current, error as Error);
    }
  };

  return {
    async start(h) {
      handlers = h;
      await connect();
      checkTimer = setInterval(() => void check(), checkMs);
      checkTimer.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(checkTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * The source for a database opened by `openDatabase`: a dedicated connection with the pool's
 * settings on PostgreSQL, `listen` on PGlite.
 */
export function notificationSourceFor(db: Database, options: PgSourceOptions = {}): NotificationSource {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) return pgNotificationSource((client as unknown as { options: pg.ClientConfig }).options, options);
  return pgliteNotificationSource(client as PGlite);
}
