/**
 * The application as an express router, bundled by Vite together with the routes (it is
 * the SSR build's entry), so the server and the routes share one module graph.
 *
 * `createServerApp` opens the database, applies migrations, starts the mail outbox worker
 * and the tally folding (app/db/tally.server.ts), and returns the request handlers;
 * `server/main.ts` mounts them behind static files.
 */
import { randomUUID } from "node:crypto";
import express from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { requestInfoContext, servicesContext, type AppServices } from "#app/context";
import { openDatabase, type DbHandle } from "#app/db/client.server";
import { startTallyFolding } from "#app/db/tally.server";
import { createMailSender, startOutboxWorker, type OutboxWorker } from "#app/features/mail/outbox.server";
import { createAuth, resolveAuthSecret, type Auth } from "#app/features/users/auth.server";
import type { Env } from "#app/lib/env.server";
import { owner } from "#app/content/site";
import { ensureFirstAdmin } from "#app/features/users/accounts.server";
import { createRequestHandler } from "./request-handler";

export { parseEnv, EnvError } from "#app/lib/env.server";
export { DataDirLockedError } from "#app/db/client.server";

/** The request's id: a well-formed incoming X-Request-Id (from a proxy), else a new one; echoed in the response. */
function requestIdFor(req: express.Request, res: express.Response): string {
  const incoming = req.get("x-request-id");
  const id = incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  return id;
}

const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

export interface ServerApp {
  /** Express router: /healthz and every page, action and resource route. */
  router: express.Router;
  services: AppServices;
  /** Stops the outbox worker and closes the database. */
  close(): Promise<void>;
}

/**
 * Boots the application's services and returns its router.
 *
 * @param env - validated configuration (see `parseEnv`).
 * @throws {DataDirLockedError} when another process holds the PGlite directory.
 */
export async function createServerApp(env: Env): Promise<ServerApp> {
  const handle: DbHandle = env.DATABASE_URL
    ? await openDatabase({ url: env.DATABASE_URL })
    : await openDatabase({ pgliteDir: env.pgliteDir });
  let worker: OutboxWorker | undefined;
  let folding: { stop(): Promise<void> } | undefined;
  let auth: Auth;
  try {
    await handle.migrate();
    auth = createAuth({ db: handle.db, env, secret: await resolveAuthSecret(handle.db, env.BETTER_AUTH_SECRET) });
    const firstAdmin = await ensureFirstAdmin({ db: handle.db, auth }, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
    if (firstAdmin?.generatedPassword) {
      console.log(
        `\nCreated the first admin account (shown once):\n  email:    ${firstAdmin.email}\n  password: ${firstAdmin.generatedPassword}\n` +
          `Sign in at ${env.origin}/login and keep this password safe (npm run admin:create changes it).\n`,
      );
    } else if (firstAdmin) {
      console.log(`Created the first admin account ${firstAdmin.email} from ADMIN_EMAIL/ADMIN_PASSWORD.`);
    }
    worker = startOutboxWorker({
      db: handle.db,
      from: env.MAIL_FROM,
      origin: env.origin,
      adminEmail: env.OWNER_EMAIL ?? owner.email,
      send: createMailSender({ smtpUrl: env.SMTP_URL, outboxDir: env.outboxDir }),
    });
    folding = startTallyFolding(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }

  const services: AppServices = { db: handle.db, env, auth, ping: () => handle.ping() };
  const router = express.Router();

  router.get("/healthz", async (_req, res) => {
    try {
      await services.ping();
      res.status(200).json({ status: "ok", database: handle.driver });
    } catch (error) {
      res.status(503).json({ status: "error", error: (error as Error).message });
    }
  });

  router.all(
    "/{*splat}",
    createRequestHandler({
      // Production: import the build once (a dynamic import per request costs a trip through
      // the module loader's hooks). Development: per request, so Vite's HMR is picked up.
      build: env.NODE_ENV === "production" ? await loadBuild() : loadBuild,
      mode: env.NODE_ENV === "production" ? "production" : "development",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(requestInfoContext, {
          ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
          nonce: String(res.locals.cspNonce ?? ""),
          requestId: requestIdFor(req, res),
        });
        return context;
      },
    }),
  );

  return {
    router,
    services,
    async close() {
      await worker?.stop();
      await folding?.stop();
      await handle.close();
    },
  };
}
