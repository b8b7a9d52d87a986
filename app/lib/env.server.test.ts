import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

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
  ])("refuses %s=%s with one line naming the variable", (name, value) => {
    let error: unknown;
    try {
      parseEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
    expect((error as Error).message).not.toContain("\n");
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
