/**
 * Typed React Router context keys. The server creates the services once and puts them
 * here for every request (see `server/app.ts`); routes read them with `context.get(...)`.
 * Tests build their own services, so nothing here is a module-level singleton.
 */
import { createContext } from "react-router";
import type { Database } from "./db/client.server";
import type { FileStore } from "./features/files/file-store";
import type { Auth } from "./features/users/auth.server";
import type { Env } from "./lib/env.server";

/** Long-lived services shared by all requests. */
export interface AppServices {
  db: Database;
  env: Env;
  auth: Auth;
  /** Where shared files' bytes are kept (docs/product.md#files): the database, or S3 when S3_BUCKET is set. */
  files: FileStore;
  /** Reports whether the database answers (used by /healthz and /readyz). */
  ping(): Promise<void>;
}

/** Per-request facts the server knows and routes need. */
export interface RequestInfo {
  /** Client IP as resolved by express (`trust proxy` aware). */
  ip: string;
  /** Content-Security-Policy nonce for this response's scripts. */
  nonce: string;
  /** This request's id: in every log line about it and in the X-Request-Id response header. */
  requestId: string;
  /** Facts for the request's log line, filled in while it is answered (the signed-in user's id). */
  log: { userId?: string };
}

export const servicesContext = createContext<AppServices>();
export const requestInfoContext = createContext<RequestInfo>();
