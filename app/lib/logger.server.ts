/**
 * The app's logger (pino): one JSON object per line on stdout in production, human-readable
 * lines in development when pino-pretty (a development dependency) is installed.
 *
 * Nothing secret is ever written (docs/product.md#operations): the {@link REDACTED_PATHS}
 * (cookies, authorization headers, passwords, tokens, secrets, connection URLs) are replaced
 * by `[redacted]`, URL passwords (`scheme://user:password@host`) are masked in every message
 * and error text, and values registered with {@link registerSecrets} (BETTER_AUTH_SECRET,
 * ADMIN_PASSWORD, METRICS_TOKEN …) are masked wherever they appear.
 *
 * Level: `LOG_LEVEL` (fatal, error, warn, info, debug, trace, silent; default info, silent
 * under vitest). Format: `LOG_FORMAT` (json or pretty; default json in production).
 *
 * @example logger.error({ err, requestId }, "action failed")
 */
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";

/** Field paths whose values never reach the log. */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "newPassword",
  "*.newPassword",
  "currentPassword",
  "*.currentPassword",
  "token",
  "*.token",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "cookie",
  "*.cookie",
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  "*.headers.cookie",
  "*.headers.authorization",
  "BETTER_AUTH_SECRET",
  "*.BETTER_AUTH_SECRET",
  "ADMIN_PASSWORD",
  "*.ADMIN_PASSWORD",
  "METRICS_TOKEN",
  "*.METRICS_TOKEN",
  "DATABASE_URL",
  "*.DATABASE_URL",
  "SMTP_URL",
  "*.SMTP_URL",
];

const secrets = new Set<string>();

/**
 * Masks these values wherever they appear in later log messages and error texts.
 *
 * @param values - secret strings (empty and very short values are ignored: masking them would garble the log).
 */
export function registerSecrets(values: (string | undefined | null)[]): void {
  for (const value of values) if (value && value.length >= 6) secrets.add(value);
}

/**
 * Masks URL passwords and registered secrets in a text.
 *
 * @returns `text` with `scheme://user:password@` written `scheme://user:***@` and each registered secret written `***`.
 */
export function scrubSecrets(text: string): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi, "$1***@");
  for (const secret of secrets) out = out.replaceAll(secret, "***");
  return out;
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? scrubSecrets(error) : error;
  const out: Record<string, unknown> = {
    type: error.name,
    message: scrubSecrets(error.message),
    stack: error.stack ? scrubSecrets(error.stack) : undefined,
  };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.cause !== undefined) out.cause = serializeError(error.cause);
  return out;
}

export interface LoggerOptions {
  level?: string;
  /** `pretty` needs pino-pretty installed; falls back to JSON without it. */
  format?: "json" | "pretty";
  /** Where lines go (tests pass a stream); default stdout (buffered in production). */
  destination?: DestinationStream;
}

/**
 * Builds a logger with the app's redaction and error serialisation.
 *
 * @returns a pino logger; `logger.info({ fields }, "message")`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const config: pino.LoggerOptions = {
    level: options.level ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === "string" ? scrubSecrets(arg) : arg)) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
    },
  };
  if (options.destination) return pino(config, options.destination);
  if (options.format === "pretty") {
    try {
      const pretty = createRequire(import.meta.url)("pino-pretty") as (o: object) => DestinationStream;
      return pino(config, pretty({ colorize: process.stdout.isTTY, translateTime: "HH:MM:ss.l", ignore: "pid,hostname" }));
    } catch {
      /* pino-pretty is a development dependency: JSON without it */
    }
  }
  const production = process.env.NODE_ENV === "production";
  return pino(config, pino.destination({ dest: 1, sync: !production }));
}

const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

function defaultLevel(): string {
  const configured = process.env.LOG_LEVEL?.trim();
  if (configured && LEVELS.has(configured)) return configured;
  return process.env.VITEST ? "silent" : "info";
}

/** The process's logger. */
export const logger: Logger = createLogger({
  level: defaultLevel(),
  format: (process.env.LOG_FORMAT?.trim() || (process.env.NODE_ENV === "production" ? "json" : "pretty")) === "pretty" ? "pretty" : "json",
});

/**
 * A child of `parent` for the one-line-per-request log ({@link requestLogger}). Its fields are
 * fixed and hold no secret (method, route id, path without its query, status, duration, user and
 * request ids), so only the top-level {@link REDACTED_PATHS} are applied: the wildcard paths
 * (`*.password` …) cost about 14 µs a line, more than answering a prerendered page.
 *
 * @returns a pino child logger writing where `parent` writes, at its level.
 */
export function requestLoggerOf(parent: Logger): Logger {
  return parent.child({}, { redact: { paths: REDACTED_PATHS.filter((path) => !path.includes("*")), censor: "[redacted]" } });
}

/** The request log (server/observability.ts): one line per HTTP request. */
export const requestLogger: Logger = requestLoggerOf(logger);
