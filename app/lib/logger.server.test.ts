import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, registerSecrets, requestLoggerOf, scrubSecrets } from "./logger.server";

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({ level: "info", destination: stream });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("logger", () => {
  it("writes one JSON object per line with level, time, message and fields", () => {
    const { logger, parsed } = capture();
    logger.info({ requestId: "r-1", status: 200 }, "request");
    expect(parsed()).toEqual([expect.objectContaining({ level: "info", msg: "request", requestId: "r-1", status: 200 })]);
    expect(parsed()[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("the request log writes to the same place at the same level and still redacts top-level secrets", () => {
    const { logger, parsed } = capture();
    const requests = requestLoggerOf(logger);
    requests.debug({ path: "/hidden" }, "request");
    requests.info({ requestId: "r-2", path: "/about", status: 200, password: "pw-request-1", cookie: "session=abc" }, "request");
    expect(parsed()).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request",
        requestId: "r-2",
        path: "/about",
        status: 200,
        password: "[redacted]",
        cookie: "[redacted]",
      }),
    ]);
  });

  it("redacts passwords, tokens, secrets, cookies, authorization headers and connection URLs, at the top level and one level down", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: "pw-top-level-1",
        form: { password: "pw-nested-2", newPassword: "pw-new-3", currentPassword: "pw-cur-4", email: "kept@example.com" },
        token: "tok-5",
        reset: { token: "tok-6" },
        secret: "sec-7",
        cookie: "session_token=cookie-8",
        headers: { cookie: "session_token=cookie-9", authorization: "Bearer auth-10", "set-cookie": "session_token=cookie-11" },
        authorization: "Basic auth-12",
        env: {
          BETTER_AUTH_SECRET: "auth-secret-13",
          DATABASE_URL: "postgres://u:db-14@h/d",
          SMTP_URL: "smtp://u:smtp-15@h",
          METRICS_TOKEN: "m-16",
        },
        DATABASE_URL: "postgres://u:db-17@h/d",
        ADMIN_PASSWORD: "admin-18",
      },
      "with secrets",
    );
    const line = lines.join("\n");
    for (const secret of [
      "pw-top",
      "pw-nested",
      "pw-new",
      "pw-cur",
      "tok-5",
      "tok-6",
      "sec-7",
      "cookie-8",
      "cookie-9",
      "auth-10",
      "cookie-11",
    ]) {
      expect(line).not.toContain(secret);
    }
    for (const secret of ["auth-12", "auth-secret-13", "db-14", "smtp-15", "m-16", "db-17", "admin-18"]) expect(line).not.toContain(secret);
    expect(line).toContain("kept@example.com");
    expect(line).toContain("[redacted]");
  });

  it("masks URL passwords and registered secrets in messages and error texts, and keeps the stack", () => {
    const { logger, parsed, lines } = capture();
    registerSecrets(["registered-secret-value-0123456789", "", undefined, "abc"]);
    const error = new Error("connect failed for postgres://app:db-pass-xyz@db.example.com:5432/app");
    logger.error({ err: error }, "could not open postgres://app:msg-pass-xyz@db.example.com/app with registered-secret-value-0123456789");
    const [entry] = parsed();
    const err = entry!.err as { message: string; stack: string; type: string };
    expect(err.type).toBe("Error");
    expect(err.message).toBe("connect failed for postgres://app:***@db.example.com:5432/app");
    expect(err.stack).toContain("logger.server.test.ts");
    expect(entry!.msg).toBe("could not open postgres://app:***@db.example.com/app with ***");
    const line = lines.join("\n");
    expect(line).not.toContain("db-pass-xyz");
    expect(line).not.toContain("msg-pass-xyz");
    expect(line).not.toContain("registered-secret-value");
    // Values too short to mask safely are not registered (they would garble the log).
    expect(scrubSecrets("abc")).toBe("abc");
  });
});
