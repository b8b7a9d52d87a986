/**
 * The application as an express router, bundled by Vite together with the routes (it is
 * the SSR build's entry), so the server and the routes share one module graph.
 *
 * `createServerApp` opens the database, applies migrations, starts the job queue (ADR 019: mail
 * delivery, data exports, and the cron sweeps — reminders, conversations, tally folding, purges)
 * and returns the request handlers; `server/main.ts` mounts them behind static files.
 */
import express from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { servicesContext, type AppServices } from "#app/context";
import { requestInfoContext } from "#app/lib/request-info";
import { openDatabase, type DbHandle } from "#app/db/client.server";
import { assertConnectionBudget, readConnectionLimits } from "#app/db/connection-budget.server";
import { foldTallies } from "#app/db/tally.server";
import { buildQueuedExport, markExportFailed, purgeExpiredExports, type DataExportJobData } from "#app/features/privacy/data-export.server";
import {
  SMTP_MAX_CONNECTIONS,
  countOutbox,
  createMailSender,
  deliverMail,
  markMailFailed,
  purgeOutbox,
  releaseMailLeases,
  type MailJobData,
} from "#app/features/mail/outbox.server";
import { startJobRunner, type JobRunner } from "#app/features/jobs/runner.server";
import { runBillingJob } from "#app/features/billing/billing-job.server";
import { runAutopayCharge, type AutopayJobData } from "#app/features/billing/autopay.server";
import { issueDueScheduleLines } from "#app/features/agreements/payment-schedule.server";
import { companyNameOf, getSettings } from "#app/features/settings/settings.server";
import { createAuth, resolveAuthSecret, type Auth } from "#app/features/users/auth.server";
import { authContext } from "#app/features/users/auth-context.server";
import type { Env } from "#app/lib/env.server";
import { owner } from "#app/content/site";
import { ensureFirstAdmin } from "#app/features/users/accounts.server";
import { createFileStore } from "#app/features/files/create-store.server";
import type { FileStore } from "#app/features/files/file-store";
import { filesContext } from "#app/features/files/files-context";
import { runConversationJobs } from "#app/features/conversations/jobs.server";
import { runReminderSweep } from "#app/features/reminders/sweep.server";
import { logger, registerSecrets } from "#app/lib/logger.server";
import { createLiveHub, type LiveHub } from "#app/features/live/hub.server";
import { PUBLIC_PAGE_EVENT, publishedCaseStudyPaths } from "#app/features/portfolio/case-studies.server";
import { PRERENDERED_PATHS } from "./page-cache";
import { notificationSourceFor } from "#app/features/live/listener.server";
import { receiveInboundMail, type InboundDeps } from "#app/features/inbound/inbound.server";
import { replyAddress } from "#app/features/inbound/reply-token.server";
import { startInboundSmtp, type InboundSmtp } from "#app/features/inbound/smtp-listener.server";
import { createThreadPoster } from "#app/features/inbound/thread-poster.server";
import { INBOUND_WEBHOOK_PATH, inboundWebhook } from "#app/features/inbound/webhook.server";
import { cardPaymentsEnabled, STRIPE_WEBHOOK_PATH, stripeWebhook } from "#app/features/payments/stripe.server";
import { bearerMatches } from "#app/lib/bearer.server";
import { purgeSubmissionKeys } from "#app/features/submissions/submission-key.server";
import { redactPath } from "#app/lib/redact-path";
import { databaseUnavailableHeaders, isDatabaseUnavailable } from "#app/lib/database-unavailable.server";
import { createMetrics, createRequestTracker, createRouteResolver, trackedRequest, type RequestTracker } from "./observability";
import { createRequestHandler } from "./request-handler";

export { parseEnv, EnvError } from "#app/lib/env.server";
export { logger, registerSecrets } from "#app/lib/logger.server";
export { DataDirLockedError } from "#app/db/client.server";

const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

export interface ServerApp {
  /** Express router: /healthz, /readyz, /metrics and every page, action and resource route. */
  router: express.Router;
  /** The shared services, the better-auth instance and the file store every request's context gets. */
  services: AppServices & { auth: Auth; files: FileStore };
  /** Request ids, the request log and request metrics for every HTTP request (prerendered pages and files too). */
  requests: RequestTracker;
  /**
   * Live updates (docs/product.md#live-updates): answers `GET /events` with the signed-in user's
   * event stream. server/main.ts calls it before express, so a stream is no request in flight.
   */
  events(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): void;
  /** The public pages to keep rendered: the static ones and every published case study (issue #40). */
  publicPagePaths(): Promise<string[]>;
  /** Calls `listener` whenever a case study or testimonial changed (in any server process). */
  onPublicPagesChanged(listener: () => void): void;
  /** From now on /readyz answers 503 (the process is stopping) and every event stream is closed; /healthz is unchanged. */
  markStopping(): void;
  /**
   * From now on the job queue takes no new job; resolves when its running jobs finished (or were
   * failed, to be retried, after `timeoutMs`). `close()` waits for it too.
   */
  stopJobs(timeoutMs: number): Promise<void>;
  /** Stops the live updates and the job queue (waiting for its running jobs), and closes the database. */
  close(): Promise<void>;
}

/**
 * Boots the application's services and returns its router.
 *
 * @param env - validated configuration (see `parseEnv`).
 * @throws {DataDirLockedError} when another process holds the PGlite directory.
 */
export async function createServerApp(env: Env): Promise<ServerApp> {
  registerSecrets([
    env.BETTER_AUTH_SECRET,
    env.ADMIN_PASSWORD,
    env.METRICS_TOKEN,
    env.INBOUND_WEBHOOK_TOKEN,
    env.S3_SECRET_ACCESS_KEY,
    env.STRIPE_SECRET_KEY,
    env.STRIPE_WEBHOOK_SECRET,
  ]);
  const handle: DbHandle = env.DATABASE_URL
    ? await openDatabase({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX })
    : await openDatabase({ pgliteDir: env.pgliteDir });
  let jobs: JobRunner | undefined;
  let live: LiveHub | undefined;
  let smtp: InboundSmtp | undefined;
  const publicPageListeners = new Set<() => void>();
  let inbound: InboundDeps | undefined;
  const files = await createFileStore(env, handle.db);
  let auth: Auth;
  const metrics = createMetrics({
    outboxCounts: () => countOutbox(handle.db),
    jobCounts: () => jobs?.counts() ?? Promise.resolve([]),
    poolStats: handle.poolStats,
    liveStreams: () => live?.size() ?? 0,
  });
  const mailSender = createMailSender({ smtpUrl: env.SMTP_URL, outboxDir: env.outboxDir });
  try {
    if (handle.driver === "postgres") {
      // docs/product.md#operations: every process's pool (and listener) must fit the server.
      assertConnectionBudget(await readConnectionLimits((text) => handle.executeSql(text)), {
        processes: env.WEB_CONCURRENCY,
        poolMax: env.DATABASE_POOL_MAX,
      });
    }
    await handle.migrate();
    const secret = await resolveAuthSecret(handle.db, env.BETTER_AUTH_SECRET);
    auth = createAuth({ db: handle.db, env, secret, appName: companyNameOf(await getSettings(handle.db)) });
    const domain = env.INBOUND_DOMAIN;
    const firstAdmin = await ensureFirstAdmin({ db: handle.db, auth }, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
    if (firstAdmin?.generatedPassword) {
      // Shown once, on purpose, to the operator's terminal — never into the log.
      process.stdout.write(
        `\nCreated the first admin account (shown once):\n  email:    ${firstAdmin.email}\n  password: ${firstAdmin.generatedPassword}\n` +
          `Sign in at ${env.origin}/login and keep this password safe (npm run admin:create changes it).\n\n`,
      );
      logger.info({ email: firstAdmin.email }, "created the first admin account with a generated password (printed once on stdout)");
    } else if (firstAdmin) {
      logger.info({ email: firstAdmin.email }, "created the first admin account from ADMIN_EMAIL/ADMIN_PASSWORD");
    }
    live = await createLiveHub({
      db: handle.db,
      auth,
      source: notificationSourceFor(handle.db),
      maxStreams: env.SSE_MAX_STREAMS,
      // Issue #40: a case study or testimonial changed in some process → every process re-renders its cached public pages.
      onEvent: (row) => {
        if (PUBLIC_PAGE_EVENT.test(row.kind)) for (const listener of publicPageListeners) listener();
      },
    });
    if (domain) {
      const post = createThreadPoster({ db: handle.db, files, maxUploadMb: env.MAX_UPLOAD_MB });
      const deps: InboundDeps = { db: handle.db, secret, domain, post };
      inbound = deps;
      if (env.INBOUND_SMTP_PORT !== undefined) {
        smtp = await startInboundSmtp({ port: env.INBOUND_SMTP_PORT, domain, receive: (raw, to) => receiveInboundMail(deps, raw, { to }) });
      }
    }
    // ADR 019: every background task is a job; this process runs its share of them.
    const mail = {
      db: handle.db,
      from: env.MAIL_FROM,
      origin: env.origin,
      adminEmail: env.OWNER_EMAIL ?? owner.email,
      send: mailSender,
      onAttempt: (outcome: "sent" | "retry" | "failed") => metrics.mailEvents.inc({ outcome }),
      // docs/product.md#email-replies: a conversation's mail carries its recipient's reply address.
      replyAddress: domain ? (target: { proposalId: number; userId: string }) => replyAddress(secret, domain, target) : undefined,
    };
    // On PGlite this is the only process: leases still held belong to a process that stopped.
    if (handle.driver === "pglite") await releaseMailLeases(handle.db);
    jobs = await startJobRunner({
      handle,
      queues: { mail: { retryLimit: env.OUTBOX_MAX_ATTEMPTS - 1 } },
      workers: {
        // docs/product.md#mail-delivery: one job per mail, as many at once as SMTP connections.
        mail: {
          handler: (job) => deliverMail(mail, job as { data: MailJobData }),
          concurrency: SMTP_MAX_CONNECTIONS,
          pollingIntervalSeconds: 1,
        },
        "mail-failed": { handler: (job) => markMailFailed(mail, job as { data: MailJobData }) },
        // docs/product.md#download-my-data: large exports are built here and mailed.
        "data-export": { handler: (job) => buildQueuedExport(handle.db, job as { data: DataExportJobData }) },
        "data-export-failed": { handler: (job) => markExportFailed(handle.db, job as { data: DataExportJobData }) },
        // docs/product.md#reminders (ADR 018).
        reminders: { handler: () => runReminderSweep(handle.db), pollingIntervalSeconds: 5 },
        conversations: { handler: () => runConversationJobs({ db: handle.db, files }), pollingIntervalSeconds: 5 },
        "tally-fold": { handler: () => foldTallies(handle.db), pollingIntervalSeconds: 5 },
        // docs/product.md#recurring-billing (#39, ADR 025): each due cycle of each plan, once.
        billing: {
          handler: () => runBillingJob(handle.db, undefined, { cardPayments: cardPaymentsEnabled(env) }),
          pollingIntervalSeconds: 2,
        },
        // #39: one charge of a saved card per job (idempotency key per invoice and attempt).
        autopay: {
          handler: (job) => runAutopayCharge(handle.db, env, (job.data as AutopayJobData).invoiceId),
          pollingIntervalSeconds: 2,
        },
        // docs/product.md#payment-schedule (#37, ADR 026): each due schedule line, once.
        schedule: {
          handler: () => issueDueScheduleLines(handle.db, undefined, { cardPayments: cardPaymentsEnabled(env) }),
          pollingIntervalSeconds: 5,
        },
        purge: {
          handler: async () => {
            await purgeOutbox(handle.db, { retentionDays: env.OUTBOX_RETENTION_DAYS });
            await purgeExpiredExports(handle.db);
            await purgeSubmissionKeys(handle.db);
          },
          pollingIntervalSeconds: 5,
        },
      },
    });
  } catch (error) {
    await jobs?.stop(0);
    await smtp?.close();
    live?.closeAll();
    await live?.stop();
    mailSender.close?.();
    await handle.close();
    throw error;
  }

  const services: ServerApp["services"] = { db: handle.db, env, auth, files, ping: () => handle.ping() };
  const router = express.Router();

  let stopping = false;
  const probe = async (req: express.Request, res: express.Response, readiness: boolean) => {
    res.set("Cache-Control", "no-store");
    if (readiness && stopping) return void res.status(503).json({ status: "stopping" });
    try {
      await services.ping();
      res.status(200).json({ status: "ok" });
    } catch (error) {
      // The reason goes to the log only: the probe is public.
      logger.error({ err: error, requestId: trackedRequest(req)?.id }, `${readiness ? "readiness" : "health"} check: database unavailable`);
      res.status(503).set(databaseUnavailableHeaders()).json({ status: "unavailable" });
    }
  };
  /** Liveness: the process answers and its database too. */
  router.get("/healthz", (req, res) => probe(req, res, false));
  /** Readiness: as /healthz, and 503 from the moment the process starts stopping. */
  router.get("/readyz", (req, res) => probe(req, res, true));
  router.get("/metrics", async (req, res) => {
    const expected = env.METRICS_TOKEN;
    if (!expected) return void res.status(404).type("text/plain").send("Not found");
    if (!bearerMatches(req.get("authorization"), expected)) {
      return void res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized");
    }
    res
      .set("Cache-Control", "no-store")
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });

  // docs/product.md#email-replies: raw RFC 822 messages from an inbound-mail service.
  const webhook = inboundWebhook({
    token: env.INBOUND_WEBHOOK_TOKEN,
    receive: inbound ? (raw) => receiveInboundMail(inbound!, raw) : undefined,
  });
  router.post(INBOUND_WEBHOOK_PATH, (req, res, next) => void webhook(req, res).catch(next));
  // docs/product.md#card-payments: Stripe events, signature checked on the raw body (nothing before it parses the body).
  const stripeHook = stripeWebhook({ db: handle.db, env });
  router.post(STRIPE_WEBHOOK_PATH, (req, res, next) => void stripeHook(req, res).catch(next));

  router.all(
    "/{*splat}",
    createRequestHandler({
      // Conversation uploads: up to 10 files of MAX_UPLOAD_MB and the form's text.
      uploadMaxBytes: (10 * env.MAX_UPLOAD_MB + 1) * 1024 * 1024,
      databaseUnavailable: (req) => trackedRequest(req)?.fields.databaseUnavailable === true,
      // Production: import the build once (a dynamic import per request costs a trip through
      // the module loader's hooks). Development: per request, so Vite's HMR is picked up.
      build: env.NODE_ENV === "production" ? await loadBuild() : loadBuild,
      mode: env.NODE_ENV === "production" ? "production" : "development",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(authContext, auth);
        context.set(filesContext, files);
        context.set(requestInfoContext, {
          ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
          nonce: String(res.locals.cspNonce ?? ""),
          requestId: trackedRequest(req)?.id ?? "",
          log: trackedRequest(req)?.fields ?? {},
        });
        return context;
      },
    }),
  );

  // An error that escaped the app (the body guard, writing the response): logged once, a plain 500.
  router.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const fields = { err: error, requestId: trackedRequest(req)?.id, method: req.method, path: redactPath(req.originalUrl) };
    const unavailable = isDatabaseUnavailable(error);
    if (unavailable) logger.warn(fields, "request failed: database unavailable");
    else logger.error(fields, "request failed");
    if (res.headersSent) return void res.destroy();
    // Issue #36: the database is down — 503 with Retry-After, as /healthz.
    if (unavailable) return void res.status(503).set(databaseUnavailableHeaders()).type("text/plain").send("Service Unavailable");
    res.status(500).type("text/plain").send("Internal Server Error");
  });

  // Route ids for the request log and metrics (development: the routes known at start).
  const build = await loadBuild();
  const requests = createRequestTracker(createRouteResolver(build.routes), metrics);

  return {
    router,
    services,
    requests,
    events: (req, res) => live!.handle(req, res),
    publicPagePaths: async () => [...PRERENDERED_PATHS, ...(await publishedCaseStudyPaths(handle.db))],
    onPublicPagesChanged: (listener) => void publicPageListeners.add(listener),
    markStopping() {
      stopping = true;
      live?.closeAll();
    },
    stopJobs: (timeoutMs) => jobs!.stop(timeoutMs),
    async close() {
      await smtp?.close();
      live?.closeAll();
      await live?.stop();
      await jobs?.stop();
      mailSender.close?.();
      await handle.close();
    },
  };
}
