/**
 * A TCP proxy in front of PostgreSQL that counts the statements sent through it (issue #42: "where a
 * page is below 0.5 × the floor, name what holds it"). Point an app's DATABASE_URL at it, reset the
 * counter, ask for a page, read the counter: the statements (round trips) that page's request cost.
 *
 * Counted from the frontend protocol: each simple query (`Q`) and each extended-protocol `Sync` (`S`;
 * node-postgres sends Parse/Bind/Describe/Execute/Sync for each parameterized query) is one round
 * trip. Bytes pass unchanged; the proxy is used for counting only, never during a timed run.
 * bench/page-statements.ts lists each page's statements with it.
 */
import net from "node:net";

export interface PgCountProxy {
  /** A connection string like `databaseUrl` whose host and port are the proxy's. */
  url: string;
  /** Statements (round trips) sent through the proxy since the last reset. */
  count(): number;
  /** The SQL text of each statement since the last reset (a parsed statement's text, a simple query's text), in order. */
  texts(): string[];
  reset(): void;
  close(): Promise<void>;
}

/** The protocol version 3.0 code of a startup message; SSLRequest and GSSENCRequest carry others. */
const PROTOCOL_3 = 196_608;

/**
 * Starts a counting proxy on a free loopback port.
 *
 * @param databaseUrl - the real PostgreSQL URL (its host and port are where the proxy connects).
 */
export async function startPgCountProxy(databaseUrl: string): Promise<PgCountProxy> {
  const target = new URL(databaseUrl);
  let statements = 0;
  let texts: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let started = false;
    let pending: Buffer = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (!started) {
          // Untyped: int32 length, int32 code (startup, SSLRequest, GSSENCRequest, CancelRequest).
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          if (pending.readInt32BE(4) === PROTOCOL_3) started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === "Q" || type === "S") statements++;
        // Parse: name\0 query\0 …; Query: query\0. (A prepared statement run again sends no Parse.)
        if (type === "P" || type === "Q") {
          const body = pending.subarray(5, 1 + length);
          const start = type === "P" ? body.indexOf(0) + 1 : 0;
          texts.push(body.subarray(start, body.indexOf(0, start)).toString().replace(/\s+/g, " ").trim());
        }
        pending = pending.subarray(1 + length);
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    count: () => statements,
    texts: () => texts,
    reset: () => {
      statements = 0;
      texts = [];
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
