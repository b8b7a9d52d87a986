/**
 * Issue #36: a database that cannot be reached is told apart from a bug — with the errors the
 * real drivers throw (node-postgres against a closed port and a server that goes away, PGlite
 * once closed, both through drizzle), and a form action answers 503 with Retry-After for it.
 */
import net from "node:net";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "./database-unavailable.server";
import { formAction, runIntent, type FormReply } from "./form-action.server";
import type { DbHandle } from "#app/db/client.server";
import { openPgliteClone } from "../../tests/helpers/test-database";

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The error a query throws. */
async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("the query did not fail");
}

// One PGlite for the file (the tests' migrated template: a fresh one takes minutes on a busy machine): its query errors first, then closed.
let handle: DbHandle;
beforeAll(async () => {
  handle = await openPgliteClone();
}, 600_000);
afterAll(async () => {
  await handle.close().catch(() => {});
});

describe("isDatabaseUnavailable", () => {
  it("is true for node-postgres against a server that refuses connections, through drizzle", async () => {
    const pool = new pg.Pool({ connectionString: `postgres://u@127.0.0.1:${await deadPort()}/d`, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => {});
    const db = drizzlePg(pool);
    expect(isDatabaseUnavailable(await thrown(() => db.execute(sql`select 1`)))).toBe(true);
    await pool.end();
  });

  it("is true for a server that accepts and then drops the connection (terminated, or no answer in time)", async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.once("data", () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const pool = new pg.Pool({ connectionString: `postgres://u@127.0.0.1:${port}/d`, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => {});
    expect(isDatabaseUnavailable(await thrown(() => drizzlePg(pool).execute(sql`select 1`)))).toBe(true);
    await pool.end();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is true for a closed PGlite, through drizzle; false for its query errors", async () => {
    const db = handle.db;
    expect(isDatabaseUnavailable(await thrown(() => db.execute(sql`select nonsense from nowhere`)))).toBe(false);
    await db.execute(sql`create table idem_probe (id int primary key)`);
    await db.execute(sql`insert into idem_probe values (1)`);
    expect(isDatabaseUnavailable(await thrown(() => db.execute(sql`insert into idem_probe values (1)`)))).toBe(false);
    expect(isDatabaseUnavailable(await thrown(() => db.execute(sql`select 1/0`)))).toBe(false);
    await handle.close();
    expect(isDatabaseUnavailable(await thrown(() => db.execute(sql`select 1`)))).toBe(true);
  });

  it("is false for bugs", () => {
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });

  it("is true for PostgreSQL's shutdown and connection codes", () => {
    for (const code of ["57P01", "57P03", "08006", "08001", "53300"]) {
      expect(isDatabaseUnavailable(new Error("x", { cause: Object.assign(new Error("y"), { code }) }))).toBe(true);
    }
  });
});

/** A form helper's answer (never a Response here). */
const replyOf = (answer: unknown) => answer as { init: ResponseInit | null; data: FormReply };

describe("form actions while the database is down", () => {
  const schema = z.object({ name: z.string() });
  const ref = () => {
    const body = new URLSearchParams({ name: "Ada", intent: "save" });
    return { request: new Request("http://localhost/page", { method: "POST", body }), context: new RouterContextProvider() };
  };

  it("answer 503 with Retry-After and say nothing was saved; a bug stays a 500", async () => {
    // Closed by the test above.
    const db = handle.db;
    const write = async () => {
      await db.execute(sql`select 1`);
      return "Saved.";
    };
    const down = replyOf(await formAction(ref(), schema, write));
    expect(down.init?.status).toBe(503);
    expect(new Headers(down.init?.headers).get("Retry-After")).toMatch(/^\d+$/);
    expect(down.data.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);

    const intent = replyOf(await runIntent(ref(), { save: write }));
    expect(intent.init?.status).toBe(503);
    expect(new Headers(intent.init?.headers).get("Retry-After")).toMatch(/^\d+$/);

    const bug = replyOf(
      await formAction(ref(), schema, async () => {
        throw new TypeError("a bug");
      }),
    );
    expect(bug.init?.status).toBe(500);
  });
});
