/**
 * Server configuration, read from environment variables once at boot and validated
 * with zod. A bad value stops the server with one line naming the variable.
 *
 * Every variable is documented in README.md and `.env.example` (docs/product.md#operations).
 */
import path from "node:path";
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const urlWithProtocol = (protocols: string[]) => z.url({ protocol: new RegExp(`^(${protocols.join("|")})$`) });

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("development")),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(emptyToUndefined, urlWithProtocol(["postgres", "postgresql"]).optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, urlWithProtocol(["smtp", "smtps"]).optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().min(3).default("Portfolio <no-reply@localhost>")),
  OWNER_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  BETTER_AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  BETTER_AUTH_URL: z.preprocess(emptyToUndefined, urlWithProtocol(["http", "https"]).optional()),
  /** Which proxies may set X-Forwarded-For/-Proto (express `trust proxy`); none by default (README "Behind a proxy"). */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().default("false")),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(6).optional()),
  PASSWORD_MIN_LENGTH: z.preprocess(emptyToUndefined, z.coerce.number().int().min(6).max(128).default(6)),
  /**
   * Connections each server process keeps to the PostgreSQL server (its pool, shared by requests and
   * the job queue; one more for live updates). WEB_CONCURRENCY × (this + 1) must fit the server's
   * max_connections (checked at start).
   */
  DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(2).max(1000).default(10)),
  /** Server processes sharing the port (node:cluster); above 1 only with DATABASE_URL. */
  WEB_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(1)),
  /** Log level (pino): fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
  /** Log format: one JSON object per line, or pino-pretty's lines (development). Default: json in production, else pretty. */
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(["json", "pretty"]).optional()),
  /** Bearer token for GET /metrics; unset → /metrics answers 404. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  /** How long a stopping server waits for requests in flight (ms) before it exits with code 1. */
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(10_000)),
  /**
   * HTTP connection budgets (issue #36, slow clients): a request's headers must arrive within
   * HTTP_HEADERS_TIMEOUT_MS (else 408 and the connection is closed), the whole request, body
   * included, within HTTP_REQUEST_TIMEOUT_MS; a connection on which nothing moves either way for
   * HTTP_IDLE_TIMEOUT_MS is closed (live-update streams send a heartbeat every 25 s).
   */
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(20_000)),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(3_600_000).default(300_000)),
  HTTP_IDLE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(3_600_000).default(120_000)),
  /** Sent outbox rows are deleted this many days after they were sent. */
  OUTBOX_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(30)),
  /** Delivery attempts before an outbox row is marked failed (the back-off doubles per attempt: 12 span 2–4 days). */
  OUTBOX_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(12).default(10)),
  /** Open live-update streams (GET /events) per server process; above it a new one is answered 503 (docs/product.md#live-updates). */
  SSE_MAX_STREAMS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(5_000)),
  /** Domain of the reply addresses `reply+<token>@INBOUND_DOMAIN`; unset → mails say "reply in the portal" (docs/product.md#email-replies). */
  INBOUND_DOMAIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i,
        "must be a domain name, e.g. reply.example.com",
      )
      .transform((value) => value.toLowerCase())
      .optional(),
  ),
  /** Port of the in-app SMTP listener for e-mail replies; unset → off. */
  INBOUND_SMTP_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  /** Bearer token of POST /webhooks/inbound-mail; unset → the webhook answers 404. */
  INBOUND_WEBHOOK_TOKEN: z.preprocess(emptyToUndefined, z.string().min(24, "must be at least 24 characters").optional()),
  /** Largest file shared in a conversation, in MB (docs/product.md#files). */
  MAX_UPLOAD_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1024).default(25)),
  /** Shared files go to this S3 bucket instead of the database (ADR 011); the S3_* variables below reach it. */
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).optional()),
  /** An S3-compatible service's URL (MinIO, R2, …); unset → AWS S3. */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, urlWithProtocol(["http", "https"]).optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Stripe secret key (docs/product.md#card-payments); with STRIPE_WEBHOOK_SECRET it turns on "Pay by card". */
  STRIPE_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
  /** Signing secret of the Stripe webhook endpoint POST /webhooks/stripe (`whsec_…`). */
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
  /** Another Stripe API base (stripe-mock, a test stand-in), e.g. http://localhost:12111; unset → api.stripe.com. */
  STRIPE_API_URL: z.preprocess(emptyToUndefined, urlWithProtocol(["http", "https"]).optional()),
});

/** Variables whose values are secret or may carry a password: never printed, not even in an error. */
const SECRET_VARIABLES = new Set([
  "BETTER_AUTH_SECRET",
  "ADMIN_PASSWORD",
  "METRICS_TOKEN",
  "INBOUND_WEBHOOK_TOKEN",
  "S3_SECRET_ACCESS_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
]);
/** URL variables that may carry a password: an error shows the scheme and host only. */
const URL_VARIABLES = new Set(["DATABASE_URL", "SMTP_URL", "BETTER_AUTH_URL", "S3_ENDPOINT", "STRIPE_API_URL"]);

/**
 * How a refused value is shown in a configuration error: secrets never, URLs without their
 * user and password, others as given.
 */
function shownValue(name: string, value: string | undefined): string {
  if (SECRET_VARIABLES.has(name)) return `(value hidden, ${value?.length ?? 0} characters)`;
  if (URL_VARIABLES.has(name)) {
    try {
      const url = new URL(value ?? "");
      return `(got ${JSON.stringify(`${url.protocol}//${url.host}`)}, rest hidden)`;
    } catch {
      return "(value hidden: not a URL)";
    }
  }
  return `(got ${JSON.stringify(value ?? "")})`;
}

/** Validated configuration. `dataDir`, `pgliteDir` and `outboxDir` are absolute paths. */
export type Env = z.infer<typeof envSchema> & {
  /** Public origin of the site, e.g. `http://localhost:3000` (no trailing slash). */
  origin: string;
  pgliteDir: string;
  outboxDir: string;
};

/** Thrown by {@link parseEnv}; `message` is the one line to print. */
export class EnvError extends Error {}

/**
 * Parses and validates the given environment (default `process.env`).
 *
 * @param source - a map of variable names to string values.
 * @returns the typed configuration with defaults applied.
 * @throws {EnvError} naming the first invalid variable, e.g.
 *   `Invalid configuration: PORT: Too big: expected number to be <=65535 (got "70000")`. Secret values
 *   (BETTER_AUTH_SECRET, ADMIN_PASSWORD, METRICS_TOKEN) are never shown, URLs without user and password.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new EnvError(`Invalid configuration: ${name}: ${issue.message} ${shownValue(name, source[name])}`);
  }
  const env = result.data;
  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    throw new EnvError(
      `Invalid configuration: WEB_CONCURRENCY: above 1 needs DATABASE_URL, the embedded database (PGlite) is opened by one process only (got "${source.WEB_CONCURRENCY}")`,
    );
  }
  if (env.INBOUND_SMTP_PORT !== undefined && !env.INBOUND_DOMAIN) {
    throw new EnvError(
      `Invalid configuration: INBOUND_SMTP_PORT: the SMTP listener needs INBOUND_DOMAIN, the domain of the reply addresses (got "${source.INBOUND_SMTP_PORT}")`,
    );
  }
  if (env.HTTP_REQUEST_TIMEOUT_MS <= env.HTTP_HEADERS_TIMEOUT_MS) {
    throw new EnvError(
      `Invalid configuration: HTTP_REQUEST_TIMEOUT_MS: must be above HTTP_HEADERS_TIMEOUT_MS (${env.HTTP_HEADERS_TIMEOUT_MS}) (got "${source.HTTP_REQUEST_TIMEOUT_MS ?? env.HTTP_REQUEST_TIMEOUT_MS}")`,
    );
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const origin = (env.BETTER_AUTH_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    ...env,
    DATA_DIR: dataDir,
    origin,
    pgliteDir: path.join(dataDir, "pglite"),
    outboxDir: path.join(dataDir, "outbox"),
  };
}
