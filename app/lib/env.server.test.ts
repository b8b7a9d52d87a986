import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

/** @returns what `parseEnv` throws for these variables, or `undefined` when it accepts them. */
function refusalOf(vars: Record<string, string>): Error | undefined {
  try {
    parseEnv(vars);
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.pgliteDir).toMatch(/data\/pglite$/);
    expect(env.outboxDir).toMatch(/data\/outbox$/);
    expect(env.origin).toBe("http://localhost:3000");
    expect(env.PASSWORD_MIN_LENGTH).toBe(6);
    expect(env.WEB_CONCURRENCY).toBe(1);
    // No proxy is trusted unless configured (X-Forwarded-For is ignored).
    expect(env.TRUST_PROXY).toBe("false");
    expect(parseEnv({ TRUST_PROXY: "" }).TRUST_PROXY).toBe("false");
  });
  it.each([
    ["PORT", "70000"],
    ["PORT", "abc"],
    ["DATABASE_URL", "mysql://x"],
    ["SMTP_URL", "http://mail"],
    ["OWNER_EMAIL", "nope"],
    ["BETTER_AUTH_SECRET", "short"],
    ["BETTER_AUTH_URL", "localhost:3000"],
    ["WEB_CONCURRENCY", "0"],
    ["WEB_CONCURRENCY", "2"], // without DATABASE_URL: PGlite is opened by one process only
    ["DATABASE_POOL_MAX", "1"],
    ["DATABASE_POOL_MAX", "ten"],
    ["OUTBOX_MAX_ATTEMPTS", "13"], // the back-off doubles: 13 attempts would outlive the queue's 14-day retention
  ])("refuses %s=%s with one line naming the variable", (name, value) => {
    const error = refusalOf({ [name]: value });
    expect(error).toBeInstanceOf(EnvError);
    expect(error?.message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
    expect(error?.message).not.toContain("\n");
  });
  it.each([
    ["BETTER_AUTH_SECRET", "hunter2-short", "hunter2-short"],
    ["ADMIN_PASSWORD", "pw123", "pw123"],
    ["METRICS_TOKEN", "tok-s3cret", "tok-s3cret"],
    ["DATABASE_URL", "mysql://app:db-s3cret@db.example.com/app", "db-s3cret"],
    ["DATABASE_URL", "postgres//app:db-s3cret@db.example.com/app", "db-s3cret"],
    ["SMTP_URL", "http://mailer:smtp-s3cret@mail.example.com", "smtp-s3cret"],
    ["BETTER_AUTH_URL", "ftp://user:url-s3cret@example.com", "url-s3cret"],
  ])("names %s but never prints its secret value", (name, value, secret) => {
    const error = refusalOf({ [name]: value });
    expect(error).toBeInstanceOf(EnvError);
    expect(error?.message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
    expect(error?.message).not.toContain(secret);
  });
  it("shows a refused URL's scheme and host, and other refused values as given", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://app:pw@db.example.com/app" })).toThrow(
      /\(got "mysql:\/\/db\.example\.com", rest hidden\)/,
    );
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/\(got "70000"\)/);
  });
  it("reads the operations settings with their defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: 10_000,
      OUTBOX_RETENTION_DAYS: 30,
      OUTBOX_MAX_ATTEMPTS: 10,
      DATABASE_POOL_MAX: 10,
    });
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/^Invalid configuration: LOG_LEVEL: /);
  });
  it("accepts several server processes on PostgreSQL", () => {
    expect(parseEnv({ WEB_CONCURRENCY: "2", DATABASE_URL: "postgres://db/app" }).WEB_CONCURRENCY).toBe(2);
  });
  it("treats empty strings as unset and strips a trailing slash from the origin", () => {
    const env = parseEnv({ PORT: "", BETTER_AUTH_URL: "https://agency.example.com/" });
    expect(env.PORT).toBe(3000);
    expect(env.origin).toBe("https://agency.example.com");
  });
});
