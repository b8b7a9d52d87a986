import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { requestInfoContext } from "#app/lib/request-info";
import { AppError, fieldError, rateLimited } from "./errors";
import { conformIntent, formAction, formId, formUserId, parseInput, requireConfirmation, runIntent } from "./form-action.server";
import { logger } from "./logger.server";

/** The action arguments of a POST of `fields` (URL-encoded), with a request id in the context. */
function post(fields: Record<string, string> | string) {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  const request = new Request("http://localhost/page", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { ip: "203.0.113.1", nonce: "", requestId: "req-test-1", log: {} });
  return { request, context };
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

type Answer = Awaited<ReturnType<typeof runIntent>> | Awaited<ReturnType<typeof formAction>>;
const reply = async (promise: Promise<Answer>) => {
  const answer = await promise;
  if (answer instanceof Response) throw new Error("unexpected Response");
  return { status: answer.init?.status, headers: new Headers(answer.init?.headers), ...answer.data };
};

afterEach(() => vi.restoreAllMocks());

describe("runIntent", () => {
  it("answers 200 with the handler's message and the posted id as the target", async () => {
    const answer = await reply(runIntent(post({ intent: "go", id: " 7 " }), { go: async () => "Done." }));
    expect(answer).toMatchObject({ status: 200, intent: "go", ok: true, message: "Done.", target: "7" });
  });

  it("takes the target from the field named by the target option", async () => {
    const answer = await reply(
      runIntent(post({ intent: "go", id: "7", userId: "u-1" }), { go: async () => "Done." }, { target: "userId" }),
    );
    expect(answer.target).toBe("u-1");
  });

  it("turns an AppError into its status, message, field errors and the target", async () => {
    const answer = await reply(
      runIntent(post({ intent: "go", id: "7" }), {
        go: async () => {
          throw fieldError("reason", "Tell us why.", "CONFLICT");
        },
      }),
    );
    expect(answer).toMatchObject({
      status: 409,
      intent: "go",
      ok: false,
      message: "Tell us why.",
      target: "7",
      fieldErrors: { reason: ["Tell us why."] },
    });
  });

  it("sends Retry-After with a RATE_LIMITED refusal", async () => {
    const answer = await reply(
      runIntent(post({ intent: "go" }), {
        go: async () => {
          throw rateLimited("Slow down.", 42.2);
        },
      }),
    );
    expect(answer).toMatchObject({ status: 429, message: "Slow down." });
    expect(answer.headers.get("Retry-After")).toBe("43");
  });

  it("refuses an unknown or missing intent with 400, and an inherited name is unknown", async () => {
    for (const intent of ["nope", "", "toString"]) {
      const answer = await reply(runIntent(post({ intent }), { go: async () => "Done." }));
      expect(answer).toMatchObject({ status: 400, intent, ok: false, message: "Unknown action. Reload the page and try again." });
    }
  });

  it("leaves out a missing or over-long target", async () => {
    expect((await reply(runIntent(post({ intent: "go" }), { go: async () => "Done." }))).target).toBeUndefined();
    expect((await reply(runIntent(post({ intent: "go", id: "x".repeat(65) }), { go: async () => "Done." }))).target).toBeUndefined();
  });

  it("answers anything but an AppError with a 500 reply and logs it once with the request id", async () => {
    const log = vi.spyOn(logger, "error").mockImplementation(() => {});
    const boom = new Error("boom");
    const answer = await reply(
      runIntent(post({ intent: "go", id: "3" }), {
        go: async () => {
          throw boom;
        },
      }),
    );
    expect(answer).toMatchObject({ status: 500, ok: false, intent: "go", target: "3" });
    expect(answer.message).toMatch(/Nothing was saved/);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatchObject({ err: boom, requestId: "req-test-1", method: "POST", path: "/page" });
  });

  describe("a conform form", () => {
    const schema = z.object({ name: z.string({ error: "Name is required." }), notes: z.string().optional() });

    it("runs with the parsed value and resets the form on success", async () => {
      let seen: unknown;
      const answer = await reply(
        runIntent(post({ intent: "save", name: "Ann" }), {
          save: conformIntent(schema, async (value) => {
            seen = value;
            return "Saved.";
          }),
        }),
      );
      expect(seen).toEqual({ name: "Ann" });
      expect(answer).toMatchObject({ status: 200, ok: true, message: "Saved." });
      expect(answer.result).toEqual({ initialValue: null }); // conform's reply({ resetForm: true })
    });

    it("answers invalid input with 400 and the schema's errors, without running", async () => {
      let ran = false;
      const answer = await reply(
        runIntent(post({ intent: "save", notes: "kept" }), {
          save: conformIntent(schema, async () => {
            ran = true;
            return "Saved.";
          }),
        }),
      );
      expect(ran).toBe(false);
      expect(answer).toMatchObject({ status: 400, ok: false, message: "Name is required.", fieldErrors: { name: ["Name is required."] } });
      expect(answer.result).toMatchObject({ status: "error", initialValue: { notes: "kept" }, error: { name: ["Name is required."] } });
    });

    it("puts a refusal's field errors on the fields, or its message on the form", async () => {
      const onField = await reply(
        runIntent(post({ intent: "save", name: "Ann" }), {
          save: conformIntent(schema, async () => {
            throw fieldError("name", "Taken.", "CONFLICT");
          }),
        }),
      );
      expect(onField).toMatchObject({ status: 409, ok: false, message: "Taken.", fieldErrors: { name: ["Taken."] } });
      expect(onField.result?.error).toMatchObject({ name: ["Taken."] });

      const onForm = await reply(
        runIntent(post({ intent: "save", name: "Ann" }), {
          save: conformIntent(schema, async () => {
            throw new AppError("FORBIDDEN", "Not yours.");
          }),
        }),
      );
      expect(onForm).toMatchObject({ status: 403, ok: false, message: "Not yours." });
      expect(onForm.result?.error).toMatchObject({ "": ["Not yours."] });
    });
  });
});

describe("formAction", () => {
  const schema = z.object({
    name: z.string({ error: "Name is required." }).max(10, "Too long."),
    password: z.string().optional(),
    items: z.array(z.object({ amount: z.string() })).optional(),
  });

  it("echoes only the schema's fields, cut to their length, and never a password", async () => {
    const answer = await reply(
      formAction(
        post({ name: "x".repeat(20_000), password: "hunter2", extra: "y".repeat(1000), "items[0].amount": "1", "items[0].junk": "z" }),
        schema,
        async () => "never",
      ),
    );
    expect(answer.status).toBe(400);
    const echo = answer.result!.initialValue as Record<string, unknown>;
    expect(Object.keys(echo).sort()).toEqual(["items", "name"]);
    expect((echo.name as string).length).toBeLessThanOrEqual(5_000);
    expect(echo.items).toEqual([{ amount: "1" }]);
    expect(JSON.stringify(answer)).not.toContain("hunter2");
  });

  it("survives forged conform fields (__intent__, __state__) instead of failing with 500", async () => {
    for (const forged of ["__intent__=%7B", "__state__=%7B", "__intent__=%7B%22type%22%3A1%7D"]) {
      const answer = await reply(formAction(post(`name=Ann&${forged}`), schema, async (value) => `Hello ${value.name}`));
      expect(answer).toMatchObject({ status: 200, ok: true, message: "Hello Ann" });
    }
  });

  it("answers a list change without JavaScript (add a row) with the values and no field errors", async () => {
    const insert = JSON.stringify({ type: "insert", payload: { name: "items", defaultValue: { amount: "" } } });
    const answer = await reply(formAction(post({ __intent__: insert, "items[0].amount": "5" }), schema, async () => "never"));
    expect(answer).toMatchObject({ status: 200, ok: false, message: "" });
    expect(answer.result?.status).toBeUndefined();
    const items = (answer.result?.initialValue as { items: unknown[] }).items;
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({ amount: "5" });
    // "Name is required." would show next to a field the user has not reached yet.
    expect(answer.result?.error).toBeUndefined();
  });

  it("answers a body that is not a form with 400", async () => {
    const request = new Request("http://localhost/page", { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    const context = new RouterContextProvider();
    await expect(formAction({ request, context }, schema, async () => "never")).rejects.toMatchObject({
      code: "INVALID_INPUT",
      status: 400,
    });
  });

  it("returns the use-case's Response (a redirect) as it is", async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: "/done" } });
    expect(await formAction(post({ name: "Ann" }), schema, async () => redirect)).toBe(redirect);
  });

  it("answers an unexpected failure with the form's failure message, the input kept", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const answer = await reply(
      formAction(
        post({ name: "Ann" }),
        schema,
        async () => {
          throw new Error("disk on fire");
        },
        { failureMessage: "Could not save." },
      ),
    );
    expect(answer).toMatchObject({ status: 500, ok: false, message: "Could not save." });
    expect(answer.result).toMatchObject({ initialValue: { name: "Ann" }, error: { "": ["Could not save."] } });
  });
});

describe("field helpers", () => {
  it("formId takes plain decimal ids of PostgreSQL's integer range only", () => {
    expect(formId(form({ id: "42" }))).toBe(42);
    expect(formId(form({ invoiceId: "2147483647" }), "invoiceId")).toBe(2_147_483_647);
    for (const bad of ["", "0", "-1", "01", "1e3", "0x10", "2147483648", "99999999999", "1\u0000"]) {
      expect(() => formId(form({ id: bad }))).toThrow(expect.objectContaining({ code: "INVALID_INPUT", status: 400 }));
    }
  });

  it("formUserId takes better-auth ids only", () => {
    expect(formUserId(form({ userId: "AbC_12-x" }))).toBe("AbC_12-x");
    for (const bad of ["", "a b", "x".repeat(65), "a\u0000"]) {
      expect(() => formUserId(form({ userId: bad }))).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    }
  });

  it("requireConfirmation wants confirm=yes", () => {
    expect(() => requireConfirmation(form({}))).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => requireConfirmation(form({ confirm: "yes" }))).not.toThrow();
  });
});

describe("parseInput", () => {
  const schema = z.object({ comment: z.string().trim().min(1, "Describe it.").max(3, "Too long.") });

  it("returns the schema's output", () => {
    expect(parseInput(schema, { comment: " ab " })).toEqual({ comment: "ab" });
  });

  it("throws a 400 with the first message and the messages per field", () => {
    expect(() => parseInput(schema, { comment: "   " })).toThrow(
      expect.objectContaining({ status: 400, message: "Describe it.", fieldErrors: { comment: ["Describe it."] } }),
    );
  });
});

describe("formAction with a whole-object transform", () => {
  const schema = z.object({ on: z.literal("on").optional() }).transform((v) => ({ on: v.on === "on" }));

  it("answers repeated fields with 400 and echoes the form's own fields", async () => {
    const answer = await reply(formAction(post("on=on&on=on&other=x"), schema, async () => "never"));
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.result!.initialValue ?? {})).toEqual(["on"]);
  });
});
