import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, fieldError } from "./errors";
import { conformIntent, parseInput, requireConfirmation, runIntent } from "./intent.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
const reply = async (promise: ReturnType<typeof runIntent>) => {
  const answer = await promise;
  return { status: answer.init?.status, ...answer.data };
};

describe("runIntent", () => {
  it("answers 200 with the handler's message and the posted id as the target", async () => {
    const answer = await reply(runIntent(form({ intent: "go", id: " 7 " }), { go: async () => "Done." }));
    expect(answer).toMatchObject({ status: 200, intent: "go", ok: true, message: "Done.", target: "7" });
  });

  it("takes the target from the field named by the target option", async () => {
    const answer = await reply(
      runIntent(form({ intent: "go", id: "7", userId: "u-1" }), { go: async () => "Done." }, { target: "userId" }),
    );
    expect(answer.target).toBe("u-1");
  });

  it("turns an AppError into its status, message, field errors and the target", async () => {
    const answer = await reply(
      runIntent(form({ intent: "go", id: "7" }), {
        go: async () => {
          throw fieldError("reason", "Tell us why.", 409);
        },
      }),
    );
    expect(answer).toEqual({
      status: 409,
      intent: "go",
      ok: false,
      message: "Tell us why.",
      target: "7",
      fieldErrors: { reason: ["Tell us why."] },
    });
  });

  it("refuses an unknown or missing intent with 400, and an inherited name is unknown", async () => {
    for (const intent of ["nope", "", "toString"]) {
      const answer = await reply(runIntent(form({ intent }), { go: async () => "Done." }));
      expect(answer).toMatchObject({ status: 400, intent, ok: false, message: "Unknown action. Reload the page and try again." });
    }
  });

  it("leaves out a missing or over-long target", async () => {
    expect((await reply(runIntent(form({ intent: "go" }), { go: async () => "Done." }))).target).toBeUndefined();
    expect((await reply(runIntent(form({ intent: "go", id: "x".repeat(65) }), { go: async () => "Done." }))).target).toBeUndefined();
  });

  it("rethrows anything but an AppError", async () => {
    const boom = new Error("boom");
    await expect(
      runIntent(form({ intent: "go" }), {
        go: async () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });

  describe("a conform form", () => {
    const schema = z.object({ name: z.string({ error: "Name is required." }), notes: z.string().optional() });

    it("runs with the parsed value and resets the form on success", async () => {
      let seen: unknown;
      const answer = await reply(
        runIntent(form({ intent: "save", name: "Ann" }), {
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
        runIntent(form({ intent: "save", notes: "kept" }), {
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
        runIntent(form({ intent: "save", name: "Ann" }), {
          save: conformIntent(schema, async () => {
            throw fieldError("name", "Taken.", 409);
          }),
        }),
      );
      expect(onField).toMatchObject({ status: 409, ok: false, message: "Taken.", fieldErrors: { name: ["Taken."] } });
      expect(onField.result?.error).toMatchObject({ name: ["Taken."] });

      const onForm = await reply(
        runIntent(form({ intent: "save", name: "Ann" }), {
          save: conformIntent(schema, async () => {
            throw new AppError(403, "Not yours.");
          }),
        }),
      );
      expect(onForm).toMatchObject({ status: 403, ok: false, message: "Not yours." });
      expect(onForm.result?.error).toMatchObject({ "": ["Not yours."] });
    });
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

describe("requireConfirmation", () => {
  it("passes with confirm=yes and refuses otherwise", () => {
    expect(() => requireConfirmation(form({ confirm: "yes" }))).not.toThrow();
    expect(() => requireConfirmation(form({}))).toThrow(expect.objectContaining({ status: 400, message: "Confirm the deletion first." }));
  });
});
