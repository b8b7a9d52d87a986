/**
 * The live-update hub of one server process (docs/product.md#live-updates): it answers
 * `GET /events` with a Server-Sent Events stream per signed-in browser tab and writes each event
 * of `live_event` to exactly the streams of its audience.
 *
 * - Authorised by the session cookie (better-auth); without a valid session it answers 204 (the
 *   SSE way to say "do not reconnect"). Every {@link LiveHubOptions.sessionCheckMs}
 *   the sessions of all open streams are checked in one query, and a stream whose session ended
 *   (sign-out, deactivation, password change, expiry) or whose user's role changed is ended, and
 *   so is a client's whose organisation or role there changed (removed from it, docs/product.md#organisations).
 * - Events arrive as ids from the {@link NotificationSource} (LISTEN/NOTIFY); their rows are read
 *   once per process and written to the matching streams. After the listening connection was
 *   lost, what was written meanwhile is replayed from the table (each event is sent once).
 * - A browser reconnecting with `Last-Event-ID` first gets what it missed (its audience's events
 *   after that id), or a `reload` event when more is missing than the table keeps.
 * - Limits: {@link LiveHubOptions.maxStreams} per process (above: 503 with Retry-After), 6 per user
 *   in a process (a seventh closes the oldest), a comment heartbeat every 25 s, a stream whose
 *   client does not read is dropped.
 * - The hub answers the raw node request before express (server/main.ts): a stream is never
 *   counted as a request in flight, and {@link LiveHub.closeAll} ends every stream at shutdown.
 */
import { sessionMembershipSql } from "#app/features/organisations/access.server";
import type { IncomingMessage, ServerResponse } from "node:http";
import { and, asc, eq, gt, inArray, min, or, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { liveEvent, session, user } from "#app/db/schema";
import type { Auth } from "#app/features/users/auth.server";
import { roleOf } from "#app/features/users/actor";
import type { Role } from "#app/db/enums";
import { logger } from "#app/lib/logger.server";
import { pruneLiveEvents, readEvents, type LiveEventRow } from "./live-events.server";
import { END_EVENT, LIVE_EVENT, READY_EVENT, RELOAD_EVENT, type LiveUpdate, type StreamEndReason } from "./live-kinds";
import type { NotificationSource } from "./listener.server";

export interface LiveHubOptions {
  db: Database;
  auth: Auth;
  source: NotificationSource;
  /** Open streams per process; above it a new one is answered 503 (SSE_MAX_STREAMS, default 5,000). */
  maxStreams?: number;
  /** Open streams per user in this process; a new one closes the oldest (default 6). */
  maxStreamsPerUser?: number;
  /** Comment heartbeat interval (ms, default 25 s). */
  heartbeatMs?: number;
  /** How often the sessions of the open streams are checked (ms, default 2 s). */
  sessionCheckMs?: number;
  /** How long the browser waits before it reconnects a dropped stream (ms, default 3 s). */
  retryMs?: number;
  /** How often old events are deleted (ms, default 10 minutes). */
  pruneMs?: number;
  /** Most missed events replayed on reconnect; more → `reload` (default 200). */
  maxReplay?: number;
  /** Told of every event this process reads (once each), e.g. to drop cached public pages (issue #40). */
  onEvent?: (row: LiveEventRow) => void;
}

/** The hub's handle. */
export interface LiveHub {
  /** Answers `GET /events` (any other method: 405). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Open streams in this process. */
  size(): number;
  /** Ends every stream and refuses new ones (503) from now on: the process is stopping. */
  closeAll(): void;
  /** Stops listening and the timers (after {@link closeAll}). */
  stop(): Promise<void>;
}

interface Stream {
  res: ServerResponse;
  userId: string;
  role: Role;
  sessionId: string;
  /** A client's `organisation_id:role` when the stream opened ({@link sessionMembershipSql}). */
  membership: string | null;
  opened: number;
  /** Events that arrived while the stream's missed events were being replayed. */
  queue: LiveEventRow[] | null;
  /** Ids already written to this stream (during the replay). */
  sent: Set<number> | null;
}

/** A stream's write buffer above this (bytes) means the client does not read: it is dropped. */
const MAX_BUFFERED = 512 * 1024;
/** Missed-notification replay looks this far before the time the connection was last known good. */
const REPLAY_MARGIN_MS = 30_000;
/** Event ids remembered as dispatched (so a replay never sends one twice). */
const DISPATCHED_MEMORY = 50_000;

/** The `data:` of an event. */
export function toUpdate(row: LiveEventRow): LiveUpdate {
  return { id: row.id, kind: row.kind, entityId: row.entityId, proposalId: row.proposalId, data: row.data ?? {} };
}

/** One SSE frame. */
function frame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Whether a user (of a role) is in an event's audience. */
export function isRecipient(row: Pick<LiveEventRow, "admins" | "userIds">, userId: string, role: Role): boolean {
  return (row.admins && role === "admin") || row.userIds.includes(userId);
}

/**
 * Creates the hub and starts listening.
 *
 * @throws when the notification source cannot start (the database does not answer).
 */
export async function createLiveHub(options: LiveHubOptions): Promise<LiveHub> {
  const { db, auth, source } = options;
  const maxStreams = options.maxStreams ?? 5_000;
  const perUser = options.maxStreamsPerUser ?? 6;
  const retryMs = options.retryMs ?? 3_000;
  const maxReplay = options.maxReplay ?? 200;

  const streams = new Set<Stream>();
  const byUser = new Map<string, Stream[]>();
  const admins = new Set<Stream>();
  let stopping = false;
  let pendingAuth = 0;

  // Events dispatched by this process (insertion-ordered; the oldest are forgotten).
  const dispatched = new Set<number>();
  const remember = (id: number) => {
    dispatched.add(id);
    if (dispatched.size > DISPATCHED_MEMORY) dispatched.delete(dispatched.values().next().value!);
  };

  const write = (stream: Stream, chunk: string) => {
    if (stream.res.destroyed || stream.res.writableEnded) return;
    if (stream.res.writableLength > MAX_BUFFERED) {
      logger.warn({ userId: stream.userId }, "live updates: a stream does not read; dropped");
      stream.res.destroy();
      return;
    }
    stream.res.write(chunk);
  };

  const deliver = (row: LiveEventRow) => {
    const chunk = frame(LIVE_EVENT, toUpdate(row), row.id);
    const send = (stream: Stream) => {
      if (stream.queue) stream.queue.push(row);
      else write(stream, chunk);
    };
    if (row.admins) for (const stream of admins) send(stream);
    for (const userId of row.userIds) {
      for (const stream of byUser.get(userId) ?? []) if (!(row.admins && stream.role === "admin")) send(stream);
    }
  };

  // Ids notified since the last read: read in one query per turn of the event loop.
  let pending: number[] = [];
  let reading: Promise<void> = Promise.resolve();
  const flush = () => {
    const ids = pending.filter((id) => !dispatched.has(id));
    pending = [];
    if (ids.length === 0) return;
    for (const id of ids) remember(id);
    reading = reading
      .then(async () => {
        for (const row of await readEvents(db, ids)) {
          options.onEvent?.(row);
          deliver(row);
        }
      })
      .catch((error) => {
        for (const id of ids) dispatched.delete(id);
        logger.error({ err: error }, "live updates: could not read notified events");
      });
  };
  const replaySince = (since: Date) => {
    reading = reading
      .then(async () => {
        const rows = await db
          .select()
          .from(liveEvent)
          .where(sql`${liveEvent.createdAt} >= ${new Date(since.getTime() - REPLAY_MARGIN_MS).toISOString()}`)
          .orderBy(asc(liveEvent.id));
        let replayed = 0;
        for (const row of rows) {
          if (dispatched.has(row.id)) continue;
          remember(row.id);
          options.onEvent?.(row);
          deliver(row);
          replayed++;
        }
        logger.info({ replayed }, "live updates: replayed events missed while not listening");
      })
      .catch((error) => logger.error({ err: error }, "live updates: could not replay missed events"));
  };

  await source.start({
    onIds(ids) {
      if (pending.length === 0) setImmediate(flush);
      pending.push(...ids);
    },
    onReconnected: replaySince,
  });

  const remove = (stream: Stream) => {
    if (!streams.delete(stream)) return;
    admins.delete(stream);
    const list = byUser.get(stream.userId);
    if (list) {
      const rest = list.filter((s) => s !== stream);
      if (rest.length) byUser.set(stream.userId, rest);
      else byUser.delete(stream.userId);
    }
  };

  const end = (stream: Stream, reason: StreamEndReason) => {
    remove(stream);
    if (!stream.res.destroyed && !stream.res.writableEnded) stream.res.end(frame(END_EVENT, { reason }));
  };

  const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers });
    res.end(status === 204 ? undefined : message);
  };
  /**
   * No valid session: 204, the Server-Sent Events way to tell a browser to stop reconnecting
   * (the page then reloads its data, and its guard sends it to sign-in).
   */
  const signedOut = (res: ServerResponse) => refuse(res, 204, "");

  /** Sends what a reconnecting browser missed, then what arrived meanwhile. */
  const replayFor = async (stream: Stream, lastEventId: number | null) => {
    if (lastEventId !== null) {
      const audience =
        stream.role === "admin"
          ? or(eq(liveEvent.admins, true), sql`${liveEvent.userIds} @> array[${stream.userId}]::text[]`)
          : sql`${liveEvent.userIds} @> array[${stream.userId}]::text[]`;
      const [rows, [oldest]] = await Promise.all([
        db
          .select()
          .from(liveEvent)
          .where(and(gt(liveEvent.id, lastEventId), audience))
          .orderBy(asc(liveEvent.id))
          .limit(maxReplay + 1),
        db.select({ id: min(liveEvent.id) }).from(liveEvent),
      ]);
      // Pruned events after lastEventId, or more than we replay: the page reloads its data instead.
      const gap = oldest?.id !== null && oldest?.id !== undefined && oldest.id > lastEventId + 1;
      if (gap || rows.length > maxReplay) write(stream, frame(RELOAD_EVENT, {}));
      else
        for (const row of rows) {
          stream.sent!.add(row.id);
          write(stream, frame(LIVE_EVENT, toUpdate(row), row.id));
        }
    }
    const queued = stream.queue ?? [];
    const sent = stream.sent!;
    stream.queue = null;
    stream.sent = null;
    for (const row of queued) if (!sent.has(row.id)) write(stream, frame(LIVE_EVENT, toUpdate(row), row.id));
    write(stream, frame(READY_EVENT, { userId: stream.userId }));
  };

  const open = async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(key, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    }
    if (!headers.get("cookie")?.includes("session_token")) return signedOut(res);
    const found = await auth.api.getSession({ headers });
    const u = found?.user as { id: string; role?: string | null; banned?: boolean | null } | undefined;
    if (!found?.session || !u || u.banned) return signedOut(res);
    // A client's organisation and role (docs/product.md#organisations): when it changes (removed,
    // another role, another organisation chosen) the stream ends and the page reloads.
    const membership =
      roleOf(u.role) === "client"
        ? ((
            await db
              .select({ v: sessionMembershipSql(sql`"session"."user_id"`, sql`"session"."active_organisation_id"`) })
              .from(session)
              .where(eq(session.id, found.session.id))
          )[0]?.v ?? null)
        : null;
    // A client in no organisation (removed from their last one) has nothing to follow: no stream.
    if (roleOf(u.role) === "client" && membership === null) return signedOut(res);
    if (res.destroyed || req.destroyed) return;
    if (stopping) return refuse(res, 503, "The server is restarting.", { "Retry-After": "5" });

    const url = new URL(req.url ?? "/events", "http://localhost");
    const lastRaw = req.headers["last-event-id"] ?? url.searchParams.get("lastEventId") ?? "";
    const lastParsed = /^\d{1,15}$/.test(String(lastRaw)) ? Number(lastRaw) : null;

    req.socket.setNoDelay(true);
    req.socket.setTimeout(0);
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    });
    res.write(`retry: ${retryMs}\n\n`);

    const stream: Stream = {
      res,
      userId: u.id,
      role: roleOf(u.role),
      sessionId: found.session.id,
      membership,
      opened: Date.now(),
      queue: [],
      sent: new Set(),
    };
    streams.add(stream);
    if (stream.role === "admin") admins.add(stream);
    const list = byUser.get(stream.userId) ?? [];
    list.push(stream);
    byUser.set(stream.userId, list);
    for (const oldest of list.slice(0, Math.max(0, list.length - perUser))) end(oldest, "too-many-streams");
    res.once("close", () => remove(stream));
    res.on("error", () => remove(stream));
    await replayFor(stream, lastParsed);
  };

  // Heartbeat: one comment line per stream keeps proxies from closing an idle stream.
  const heartbeat = setInterval(() => {
    for (const stream of streams) if (!stream.queue) write(stream, ": heartbeat\n\n");
  }, options.heartbeatMs ?? 25_000);
  heartbeat.unref();

  // Sessions: one query for every open stream's session; ended or changed → the stream ends.
  let checking = false;
  const checkSessions = async () => {
    if (checking || streams.size === 0) return;
    checking = true;
    try {
      // Only the streams open now are judged: one opened while the query runs is checked next time.
      const checked = [...streams];
      const ids = [...new Set(checked.map((s) => s.sessionId))];
      const alive = new Map<string, { role: Role; membership: string | null }>();
      for (let i = 0; i < ids.length; i += 1_000) {
        const rows = await db
          .select({
            id: session.id,
            role: user.role,
            banned: user.banned,
            membership: sessionMembershipSql(sql`"session"."user_id"`, sql`"session"."active_organisation_id"`),
          })
          .from(session)
          .innerJoin(user, eq(user.id, session.userId))
          .where(and(inArray(session.id, ids.slice(i, i + 1_000)), sql`${session.expiresAt} > now()`));
        for (const row of rows) if (!row.banned) alive.set(row.id, { role: roleOf(row.role), membership: row.membership ?? null });
      }
      for (const stream of checked) {
        if (!streams.has(stream)) continue;
        const now = alive.get(stream.sessionId);
        if (now === undefined) end(stream, "signed-out");
        else if (now.role !== stream.role) end(stream, "role-changed");
        else if (stream.role === "client" && now.membership !== stream.membership) end(stream, "membership-changed");
      }
    } catch (error) {
      logger.error({ err: error }, "live updates: could not check the streams' sessions");
    } finally {
      checking = false;
    }
  };
  const sessionTimer = setInterval(() => void checkSessions(), options.sessionCheckMs ?? 2_000);
  sessionTimer.unref();

  const prune = () =>
    pruneLiveEvents(db).catch((error: unknown) => logger.error({ err: error }, "live updates: could not delete old events"));
  void prune();
  const pruneTimer = setInterval(() => void prune(), options.pruneMs ?? 10 * 60_000);
  pruneTimer.unref();

  return {
    handle(req, res) {
      if (req.method !== "GET") return refuse(res, 405, "Method not allowed.", { Allow: "GET" });
      if (stopping) return refuse(res, 503, "The server is restarting.", { "Retry-After": "5" });
      if (streams.size + pendingAuth >= maxStreams) {
        return refuse(res, 503, "Too many open live-update streams; try again later.", { "Retry-After": "30" });
      }
      pendingAuth++;
      open(req, res)
        .catch((error) => {
          logger.error({ err: error }, "live updates: could not open a stream");
          // The session could not be read (the database is down or busy): try again later.
          if (!res.headersSent) refuse(res, 503, "Live updates are unavailable right now.", { "Retry-After": "10" });
          else res.destroy();
        })
        .finally(() => pendingAuth--);
    },
    size: () => streams.size,
    closeAll() {
      stopping = true;
      for (const stream of [...streams]) {
        remove(stream);
        // No `end` event: the browser reconnects (to another process) after `retry`.
        if (!stream.res.writableEnded) stream.res.end();
      }
    },
    async stop() {
      clearInterval(heartbeat);
      clearInterval(sessionTimer);
      clearInterval(pruneTimer);
      await source.stop();
      await reading;
    },
  };
}
