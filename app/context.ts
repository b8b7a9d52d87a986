/**
 * The router context key of the services every layer may read: the database, the
 * environment and the database probe. The server creates them once and puts them here for
 * every request (see `server/app.ts`); routes read them with `context.get(servicesContext)`.
 * Tests build their own services, so nothing here is a module-level singleton.
 *
 * This module sits below the features (it imports only db and lib types): a feature's own
 * service has its own key in the feature (`authContext` in features/users/auth-context.server.ts,
 * `filesContext` in features/files/files-context.ts), so no import arrow points up from here.
 * The per-request facts (IP, nonce, request id) are in lib/request-info.ts.
 */
import { createContext } from "react-router";
import type { Database } from "./db/client.server";
import type { Env } from "./lib/env.server";

/** Long-lived services shared by all requests. */
export interface AppServices {
  db: Database;
  env: Env;
  /** Reports whether the database answers (used by /healthz and /readyz). */
  ping(): Promise<void>;
}

export const servicesContext = createContext<AppServices>();
